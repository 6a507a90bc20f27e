"""Rooms, seats and capability links."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from support.rooms import bearer, new_room, token_of

from app.edge.cookies import cookie_name


def test_create_room_gives_the_host_a_seat_and_three_links(client: TestClient) -> None:
    for host_seat in (0, 1):
        response = client.post("/api/rooms", json={"host_seat": host_seat})
        assert response.status_code == 201
        body = response.json()
        assert body["seat"] == host_seat
        assert body["version"] == 0
        assert body["seat_link"].endswith(f"/s/{body['token']}")
        assert "/i/" in body["invite_link"] and "/w/" in body["spectator_link"]
        tokens = {body["token"], token_of(body["invite_link"]), token_of(body["spectator_link"])}
        assert len(tokens) == 3 and all(len(t) >= 22 for t in tokens)  # >= 128 bits


def test_random_host_seat_gives_either_seat(client: TestClient) -> None:
    seats = {
        client.post("/api/rooms", json={"host_seat": "random"}).json()["seat"] for _ in range(40)
    }
    assert seats == {0, 1}


def test_bad_host_seat_is_refused(client: TestClient) -> None:
    for bad in (2, -1, "first", None, True, [0]):
        assert client.post("/api/rooms", json={"host_seat": bad}).status_code == 422


def test_invite_claims_the_other_seat_once(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"host_seat": 1}).json()
    invite = token_of(created["invite_link"])
    first = client.post(f"/api/invites/{invite}")
    assert first.status_code == 200
    assert first.json()["seat"] == 0 and first.json()["room"] == created["room"]
    second = client.post(f"/api/invites/{invite}")
    assert second.status_code == 409
    assert second.json()["room"] == created["room"]
    assert client.post("/api/invites/not-a-real-invite-token-at-all").status_code == 404


def test_database_stores_only_hashes_of_tokens(client: TestClient, database_url: str) -> None:
    room = new_room(client)
    secrets_ = [*room["tokens"].values(), room["spectator"], token_of(room["invite_link"])]
    db = create_engine(database_url)
    with db.connect() as connection:
        dump = " ".join(
            str(row)
            for table in ("rooms", "seats", "links", "moves")
            for row in connection.execute(text(f"SELECT * FROM {table}"))
        )
    db.dispose()
    assert room["room"] in dump
    for secret in secrets_:
        assert secret not in dump


def test_room_api_needs_a_token_of_that_room(client: TestClient) -> None:
    a, b = new_room(client), new_room(client)
    path = f"/api/rooms/{a['room']}"
    assert client.get(path).status_code == 401  # no credential at all (RFC 9110 §15.5.2)
    assert client.get(path, headers=bearer("x" * 40)).status_code == 403
    assert client.get(path, headers=bearer(b["tokens"][0])).status_code == 403
    assert client.get(path, headers=bearer(a["spectator"])).status_code == 200
    body = client.get(path, headers=bearer(a["tokens"][1])).json()
    assert body["version"] == 0 and body["finished"] is False
    assert body["summary"]["to_move"] == 0 and body["summary"]["round"] == "A"
    assert body["online"] == [False, False] and body["result"] is None


def test_seat_link_sets_an_httponly_lax_cookie_and_opens_the_table(client: TestClient) -> None:
    room = new_room(client)
    response = client.get(f"/s/{room['tokens'][0]}", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == f"/rooms/{room['room']}"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{cookie_name(room['room'])}={room['tokens'][0]};")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie


def test_spectator_link_sets_the_spectator_cookie(client: TestClient) -> None:
    room = new_room(client)
    response = client.get(f"/w/{room['spectator']}", follow_redirects=False)
    assert response.status_code == 303
    assert f"={room['spectator']};" in response.headers["set-cookie"]


def test_links_of_the_wrong_kind_or_unknown_are_refused(client: TestClient) -> None:
    room = new_room(client)
    assert client.get(f"/s/{room['spectator']}").status_code == 404
    assert client.get(f"/w/{room['tokens'][0]}").status_code == 404
    assert client.get("/i/unknown-token-unknown-token").status_code == 404
    page = client.get("/s/<script>alert(1)</script>")
    assert page.status_code == 404 and "<script>" not in page.text


def test_opening_an_invite_link_only_shows_the_join_button(client: TestClient) -> None:
    """A chat app fetching the link for a preview must not take the seat."""
    created = client.post("/api/rooms", json={"host_seat": 1}).json()
    invite = token_of(created["invite_link"])
    for _ in range(2):
        page = client.get(f"/i/{invite}", follow_redirects=False)
        assert page.status_code == 200
        assert 'id="join-button"' in page.text and f'action="/i/{invite}"' in page.text
        assert "Player 1, who moves first" in page.text
        assert "set-cookie" not in page.headers
    assert client.post(f"/api/invites/{invite}").status_code == 200  # the seat is still free


def test_invite_link_claims_the_seat_then_shows_the_game_to_latecomers(
    client: TestClient,
) -> None:
    created = client.post("/api/rooms", json={"host_seat": 0}).json()
    invite = token_of(created["invite_link"])
    guest = client.post(f"/i/{invite}", follow_redirects=False)
    assert guest.status_code == 303
    guest_token = guest.cookies[cookie_name(created["room"])]
    assert guest_token != invite
    state = client.get(f"/api/rooms/{created['room']}/legal", headers=bearer(guest_token))
    assert state.status_code == 200  # a seat token
    client.cookies.clear()
    for late in (
        client.get(f"/i/{invite}", follow_redirects=False),
        client.post(f"/i/{invite}", follow_redirects=False),
    ):
        assert late.status_code == 303
        assert late.cookies[cookie_name(created["room"])] == invite  # a spectator now
        client.cookies.clear()
    legal = client.get(f"/api/rooms/{created['room']}/legal", headers=bearer(invite))
    assert legal.status_code == 403
    assert client.get(f"/api/rooms/{created['room']}", headers=bearer(invite)).status_code == 200


def test_a_seated_browser_keeps_its_seat_when_it_opens_the_invite_again(
    client: TestClient,
) -> None:
    created = client.post("/api/rooms", json={"host_seat": 0}).json()
    client.get(f"/s/{created['token']}", follow_redirects=False)
    for again in (
        client.get(f"/i/{token_of(created['invite_link'])}", follow_redirects=False),
        client.post(f"/i/{token_of(created['invite_link'])}", follow_redirects=False),
    ):
        assert again.status_code == 303
        assert "set-cookie" not in again.headers
    # the invite is still free for the guest
    assert client.post(f"/api/invites/{token_of(created['invite_link'])}").status_code == 200


def test_a_seated_browser_keeps_its_seat_when_it_opens_the_spectator_or_review_link(
    client: TestClient,
) -> None:
    created = client.post("/api/rooms", json={"host_seat": 0}).json()
    client.get(f"/s/{created['token']}", follow_redirects=False)
    spectator = token_of(created["spectator_link"])
    for link, page in ((f"/w/{spectator}", "?kept=seat"), (f"/r/{spectator}", "/review")):
        opened = client.get(link, follow_redirects=False)
        assert opened.status_code == 303
        assert opened.headers["location"] == f"/rooms/{created['room']}{page}"
        assert "set-cookie" not in opened.headers
    # the player's own controls are still there (a spectator's table has none)
    table = client.get(f"/rooms/{created['room']}")
    assert table.status_code == 200 and 'hx-get="panel?building=' in table.text
    assert f'data-room="{created["room"]}"' in table.text
    assert client.cookies.get(f"ip_{created['room']}") == created["token"]
    # a browser without a seat watches through the same link
    client.cookies.clear()
    watched = client.get(f"/w/{spectator}", follow_redirects=False)
    assert "set-cookie" in watched.headers


def test_healthz_checks_the_database(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
