"""A room's life through the API and the pages: seats never lost by a link, a new seat link
from the host, no move before both seats are taken, resign and abort (issue 13, points 1-3)."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from support.rooms import bearer, new_room, play, play_first, token_of

from app.services.seats import MAX_REISSUES
from bench.appserver import AppServer


def events_of(client: TestClient, room_id: str, token: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = client.get(
        f"/api/rooms/{room_id}/events", headers=bearer(token)
    ).json()["events"]
    return events


# --- 1. a seat is never lost by a link -------------------------------------------------------


def test_spectator_and_used_invite_links_keep_the_seat_and_say_so(client: TestClient) -> None:
    room = new_room(client)
    room_id = room["room"]
    client.get(f"/s/{room['tokens'][1]}", follow_redirects=False)  # the guest's browser
    watched = client.get(f"/w/{room['spectator']}")
    assert watched.status_code == 200
    assert 'id="kept-seat"' in watched.text and 'id="seat-link"' in watched.text
    assert client.cookies.get(f"ip_{room_id}") == room["tokens"][1]
    used_invite = client.get(f"/i/{token_of(room['invite_link'])}", follow_redirects=False)
    assert used_invite.headers["location"] == f"/rooms/{room_id}"
    assert client.cookies.get(f"ip_{room_id}") == room["tokens"][1]
    # the page without the note is the plain table
    assert 'id="kept-seat"' not in client.get(f"/rooms/{room_id}").text


def test_the_host_sees_the_seat_link_while_waiting(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"host_seat": 0}).json()
    table = client.get(f"/s/{created['token']}")
    assert "Waiting for your opponent" in table.text
    assert created["seat_link"] in table.text and 'id="seat-link"' in table.text
    # the host opening the spectator link before anyone joined keeps the seat too
    client.get(f"/w/{token_of(created['spectator_link'])}")
    assert client.cookies.get(f"ip_{created['room']}") == created["token"]


def test_the_host_reissues_the_guests_seat_link(client: TestClient) -> None:
    room = new_room(client)
    room_id, host, guest = room["room"], room["tokens"][0], room["tokens"][1]
    assert client.get(f"/api/rooms/{room_id}", headers=bearer(guest)).status_code == 200
    refused = client.post(f"/api/rooms/{room_id}/seat-link", headers=bearer(guest))
    assert refused.status_code == 403 and refused.json()["code"] == "not_the_host"
    spectator = client.post(f"/api/rooms/{room_id}/seat-link", headers=bearer(room["spectator"]))
    assert spectator.status_code == 403
    answer = client.post(f"/api/rooms/{room_id}/seat-link", headers=bearer(host))
    assert answer.status_code == 200, answer.text
    assert answer.json()["seat"] == 1
    new_guest = token_of(answer.json()["seat_link"])
    # the old token stops working at once, the new one plays
    assert client.get(f"/api/rooms/{room_id}", headers=bearer(guest)).status_code == 403
    assert client.get(f"/s/{guest}", follow_redirects=False).status_code == 404
    assert play_first(client, room_id, host, version=0).status_code == 200
    assert play_first(client, room_id, new_guest, version=1).status_code == 200
    # the page of the new link shows the guest's own view
    page = client.get(f"/s/{new_guest}")
    assert answer.json()["seat_link"] in page.text
    log = events_of(client, room_id, host)
    assert [(e["kind"], e["seat"], e["at_version"]) for e in log] == [("seat_link_reissued", 1, 0)]
    assert "Player 2 has a new seat link" in page.text


def test_no_seat_to_reissue_while_the_invite_is_open_or_against_the_computer(
    client: TestClient,
) -> None:
    created = client.post("/api/rooms", json={"host_seat": 0}).json()
    refused = client.post(
        f"/api/rooms/{created['room']}/seat-link", headers=bearer(created["token"])
    )
    assert refused.status_code == 409 and refused.json()["code"] == "no_seat_to_reissue"
    computer = client.post("/api/rooms", json={"host_seat": 0, "computer": "easy"}).json()
    refused = client.post(
        f"/api/rooms/{computer['room']}/seat-link", headers=bearer(computer["token"])
    )
    assert refused.status_code == 409


def test_a_room_s_links_are_reissued_a_few_times_at_most(client: TestClient) -> None:
    """A lost link is given again, but not without end: each reissue is a write, a log entry
    and a restart of the opponent's absence clock."""
    room = new_room(client)
    path, host = f"/api/rooms/{room['room']}/seat-link", bearer(room["tokens"][0])
    for _ in range(MAX_REISSUES):
        assert client.post(path, headers=host).status_code == 200
    refused = client.post(path, headers=host)
    assert refused.status_code == 409 and refused.json()["code"] == "too_many_reissues"
    assert refused.json()["params"] == {"limit": MAX_REISSUES}


# --- 2. the game starts when both seats are taken --------------------------------------------


def test_nobody_moves_before_both_seats_are_taken(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"host_seat": 0}).json()
    room_id, host = created["room"], created["token"]
    refused = play_first(client, room_id, host, version=0)
    assert refused.status_code == 409 and refused.json()["code"] == "not_started"
    assert "both seats are taken" in refused.json()["detail"]
    table = client.get(f"/s/{host}")
    assert table.text.count("The game has not started") >= 2  # the banner and the controls
    banner = re.search(r'id="turn-banner"[^>]*>([^<]*)<', table.text)
    assert banner is not None and banner.group(1).startswith("The game has not started")
    assert 'data-acting="false"' in table.text
    form = client.post(
        f"/rooms/{room_id}/moves",
        data={"move": '{"type": "pass"}', "version": "0", "client_move_id": "x1"},
        headers={"Accept-Language": "cs"},
    )
    assert form.status_code == 409 and "Hra ještě nezačala" in form.text
    client.post(f"/api/invites/{token_of(created['invite_link'])}")
    assert play_first(client, room_id, host, version=0).status_code == 200


def test_against_the_computer_the_game_starts_at_once(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"host_seat": 0, "computer": "easy"}).json()
    assert play_first(client, created["room"], created["token"], version=0).status_code == 200


# --- 3. resign and abort ---------------------------------------------------------------------


def test_resign_ends_the_game_with_the_opponent_winning(client: TestClient) -> None:
    room = new_room(client)
    room_id = room["room"]
    version = play(client, room, 3)
    answer = client.post(f"/api/rooms/{room_id}/resign", headers=bearer(room["tokens"][0]))
    assert answer.status_code == 200 and answer.json() == {"ending": "resigned", "seat": 0}
    state = client.get(f"/api/rooms/{room_id}", headers=bearer(room["spectator"])).json()
    assert state["finished"] is True
    assert state["result"]["winner"] == 1
    assert state["result"]["ending"] == {"kind": "resigned", "seat": 0}
    assert state["version"] == version
    again = client.post(f"/api/rooms/{room_id}/resign", headers=bearer(room["tokens"][1]))
    assert again.status_code == 403 and again.json()["code"] == "game_over"
    assert play_first(client, room_id, room["tokens"][1], version=version).status_code == 403
    assert [e["kind"] for e in events_of(client, room_id, room["spectator"])] == ["resigned"]
    # the game-over screen and the rematch flow
    client.get(f"/s/{room['tokens'][1]}")
    table = client.get(f"/rooms/{room_id}")
    assert "You win!" in table.text and "Player 1 resigned." in table.text
    assert 'id="game-over-title"' in table.text
    offers = [
        client.post(f"/api/rooms/{room_id}/rematch", headers=bearer(room["tokens"][s])).json()
        for s in (0, 1)
    ]
    assert offers[1]["room"] is not None


def test_resign_is_refused_to_spectators_and_before_the_start(client: TestClient) -> None:
    room = new_room(client)
    spectator = client.post(f"/api/rooms/{room['room']}/resign", headers=bearer(room["spectator"]))
    assert spectator.status_code == 403
    created = client.post("/api/rooms", json={"host_seat": 0}).json()
    early = client.post(f"/api/rooms/{created['room']}/resign", headers=bearer(created["token"]))
    assert early.status_code == 409 and early.json()["code"] == "not_started"


def test_abort_before_any_action_ends_the_room_without_a_result(client: TestClient) -> None:
    room = new_room(client)
    room_id = room["room"]
    answer = client.post(f"/api/rooms/{room_id}/abort", headers=bearer(room["tokens"][1]))
    assert answer.status_code == 200 and answer.json() == {"ending": "aborted", "seat": 1}
    state = client.get(f"/api/rooms/{room_id}", headers=bearer(room["tokens"][0])).json()
    assert state["finished"] is True and state["result"]["winner"] is None
    assert state["result"]["ending"] == {"kind": "aborted", "seat": 1}
    client.get(f"/s/{room['tokens'][0]}")
    assert "The game was aborted: it has no result." in client.get(f"/rooms/{room_id}").text
    assert [e["kind"] for e in events_of(client, room_id, room["tokens"][0])] == ["aborted"]


def test_abort_is_refused_after_the_first_action(client: TestClient) -> None:
    room = new_room(client)
    play(client, room, 1)
    refused = client.post(f"/api/rooms/{room['room']}/abort", headers=bearer(room["tokens"][1]))
    assert refused.status_code == 409 and refused.json()["code"] == "cannot_abort"


def test_a_host_alone_may_abort_the_room(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"host_seat": 0}).json()
    table = client.get(f"/s/{created['token']}")
    assert 'id="abort-button"' in table.text and 'id="resign-button"' not in table.text
    answer = client.post(f"/rooms/{created['room']}/abort")
    assert answer.status_code == 200 and "The game was aborted" in answer.text
    assert re.search(r'id="game-over-title"', answer.text)


def test_the_invite_of_an_aborted_room_seats_nobody(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"host_seat": 0}).json()
    room_id, invite = created["room"], token_of(created["invite_link"])
    assert client.post(f"/api/rooms/{room_id}/abort", headers=bearer(created["token"])).is_success
    client.cookies.clear()  # the guest's browser
    opened = client.get(f"/i/{invite}", follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == f"/rooms/{room_id}"
    table = client.get(f"/rooms/{room_id}")
    assert "The game was aborted" in table.text and 'id="join-button"' not in table.text
    pressed = client.post(f"/i/{invite}", follow_redirects=False)
    assert pressed.headers["location"] == f"/rooms/{room_id}"
    assert client.cookies.get(f"ip_{room_id}") == invite  # watching, not seated
    answer = client.post(f"/api/invites/{invite}")
    assert answer.status_code == 409 and answer.json()["code"] == "invite_closed"
    assert answer.json()["room"] == room_id and "no longer takes a seat" in answer.json()["detail"]
    state = client.get(f"/api/rooms/{room_id}", headers=bearer(created["token"])).json()
    assert state["finished"] is True and state["result"]["ending"]["kind"] == "aborted"


def test_resign_from_the_page_in_czech(client: TestClient) -> None:
    room = new_room(client)
    client.get(f"/s/{room['tokens'][1]}")
    table = client.get(f"/rooms/{room['room']}")
    assert 'id="resign-button"' in table.text and 'id="resign-confirm"' in table.text
    answer = client.post(f"/rooms/{room['room']}/resign", headers={"Accept-Language": "cs"})
    assert answer.status_code == 200 and "Vzdali jste se." in answer.text


@pytest.mark.slow
@pytest.mark.postgres_only
def test_a_reissued_seat_link_stops_working_in_every_process(two_servers: list[AppServer]) -> None:
    first, second = two_servers
    with httpx.Client(timeout=10) as http:
        room = new_room(http, base=first.url, guest_base=second.url)
        room_id, host, guest = room["room"], room["tokens"][0], room["tokens"][1]
        # the second process has seen the guest's token (and remembers it)
        seen = http.get(f"{second.url}/api/rooms/{room_id}", headers=bearer(guest))
        assert seen.status_code == 200
        answer = http.post(f"{first.url}/api/rooms/{room_id}/seat-link", headers=bearer(host))
        assert answer.status_code == 200
        deadline = time.monotonic() + 5
        while (
            http.get(f"{second.url}/api/rooms/{room_id}", headers=bearer(guest)).status_code == 200
        ):
            assert time.monotonic() < deadline, "the old seat token still opens the room"
            time.sleep(0.05)
        new_token = token_of(answer.json()["seat_link"])
        for server in (first, second):
            fresh = http.get(f"{server.url}/api/rooms/{room_id}", headers=bearer(new_token))
            assert fresh.status_code == 200


def test_your_games_tell_a_resigned_and_an_aborted_game(client: TestClient) -> None:
    resigned, aborted = new_room(client), new_room(client)
    client.post(f"/api/rooms/{resigned['room']}/resign", headers=bearer(resigned["tokens"][0]))
    client.post(f"/api/rooms/{aborted['room']}/abort", headers=bearer(aborted["tokens"][0]))
    client.get(f"/s/{resigned['tokens'][1]}")
    client.get(f"/s/{aborted['tokens'][1]}")
    home = client.get("/").text
    assert "You won, 3–3" in home and "Aborted" in home


def test_a_resigned_games_record_keeps_its_ending_and_imports_as_ended(
    client: TestClient,
) -> None:
    room = new_room(client)
    play(client, room, 3)
    client.post(f"/api/rooms/{room['room']}/resign", headers=bearer(room["tokens"][1]))
    client.get(f"/s/{room['tokens'][0]}")
    exported = client.get(f"/rooms/{room['room']}/record.json")
    assert exported.json()["ending"] == {"kind": "resigned", "seat": 1}
    assert "ending resigned player2" in client.get(f"/rooms/{room['room']}/record.txt").text
    review = client.get(f"/rooms/{room['room']}/review?at=3").text
    assert "Player 2 resigned." in review and "Player 1 wins!" in review
    imported = client.post(
        "/import",
        content=f"record={exported.text}\r\n".encode(),
        headers={"Content-Type": "text/plain"},
        follow_redirects=False,
    )
    assert imported.status_code == 303
    opened = client.get(imported.headers["location"], follow_redirects=False)
    room_id = opened.headers["location"].split("/")[2]
    page = client.get(f"/rooms/{room_id}/review?at=3").text
    assert "Player 2 resigned." in page


def test_the_room_life_api_is_in_the_openapi_schema(client: TestClient) -> None:
    paths = set(client.get("/openapi.json").json()["paths"])
    assert {
        f"/api/rooms/{{room_id}}/{action}"
        for action in (
            "events",
            "resign",
            "abort",
            "seat-link",
            "standin",
            "take-over",
            "claim",
            "takeback",
            "takeback/answer",
        )
    } <= paths


@pytest.mark.parametrize("via", ["api", "page"])
def test_the_old_seat_links_open_page_is_closed_and_cannot_come_back(
    client: TestClient, via: str
) -> None:
    room = new_room(client)
    room_id, host, guest = room["room"], room["tokens"][0], room["tokens"][1]
    with client.websocket_connect(f"/ws/rooms/{room_id}?token={guest}") as socket:
        socket.receive_text()
        if via == "api":
            answer = client.post(f"/api/rooms/{room_id}/seat-link", headers=bearer(host))
        else:
            client.get(f"/s/{host}")
            answer = client.post(f"/rooms/{room_id}/seat-link")
        assert answer.status_code == 200
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                socket.receive_text()
        assert closed.value.code == 1012
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/ws/rooms/{room_id}?token={guest}") as again,
    ):
        again.receive_text()
    assert refused.value.code == 1008
