"""A seat link opened from another site never takes this browser's other seat away: the
browser is asked first (as an invite asks before it takes a seat)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from support.rooms import new_room

from app.edge.cookies import cookie_name

CROSS_SITE = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}


def test_a_cross_site_seat_link_asks_before_it_replaces_another_seat(client: TestClient) -> None:
    room = new_room(client)
    room_id, host, guest = room["room"], room["tokens"][0], room["tokens"][1]
    client.get(f"/s/{host}", follow_redirects=False)
    asked = client.get(f"/s/{guest}", headers=CROSS_SITE, follow_redirects=False)
    assert asked.status_code == 200 and 'id="switch-seat-button"' in asked.text
    assert f'action="/s/{guest}"' in asked.text and f'href="/rooms/{room_id}"' in asked.text
    assert client.cookies.get(cookie_name(room_id)) == host  # nothing changed yet
    taken = client.post(f"/s/{guest}", follow_redirects=False)
    assert taken.status_code == 303 and taken.headers["location"] == f"/rooms/{room_id}"
    assert client.cookies.get(cookie_name(room_id)) == guest


@pytest.mark.parametrize("lang", ["cs", "pt-BR"])
def test_the_question_is_asked_in_the_viewer_s_language(client: TestClient, lang: str) -> None:
    room = new_room(client)
    client.get(f"/s/{room['tokens'][0]}", follow_redirects=False)
    asked = client.get(f"/s/{room['tokens'][1]}", headers={**CROSS_SITE, "Accept-Language": lang})
    assert asked.status_code == 200
    assert "Take the other seat" not in asked.text and "switch-seat-button" in asked.text


@pytest.mark.parametrize(
    ("fetch_site", "held"),
    [("same-origin", "host"), ("none", "host"), ("cross-site", "guest"), ("cross-site", None)],
)
def test_a_seat_link_is_opened_at_once_otherwise(
    client: TestClient, fetch_site: str, held: str | None
) -> None:
    """From this site or typed in, for a browser with no seat here or this very seat."""
    room = new_room(client)
    room_id, guest = room["room"], room["tokens"][1]
    if held is not None:
        client.get(f"/s/{room['tokens'][0 if held == 'host' else 1]}", follow_redirects=False)
    opened = client.get(
        f"/s/{guest}", headers={"Sec-Fetch-Site": fetch_site}, follow_redirects=False
    )
    assert opened.status_code == 303 and opened.headers["location"] == f"/rooms/{room_id}"
    assert client.cookies.get(cookie_name(room_id)) == guest


def test_an_invalid_seat_link_posted_is_refused(client: TestClient) -> None:
    room = new_room(client)
    client.get(f"/s/{room['tokens'][0]}", follow_redirects=False)
    assert client.post("/s/not-a-token-of-ours-at-all-x", follow_redirects=False).status_code == 404
    assert client.post(f"/s/{room['spectator']}", follow_redirects=False).status_code == 404
    assert client.cookies.get(cookie_name(room["room"])) == room["tokens"][0]
