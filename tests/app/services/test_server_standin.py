"""The opponent gone (issue 13, point 4): when the player to move has had no open page for
ABSENT_AFTER seconds, the other player may let the computer play for them until they take over,
or claim the game. Through the API and the pages, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, update
from sqlalchemy.orm import Session
from support.rooms import bearer, first_action, new_room, play_first, post_move

from app.main import create_app
from app.models import Room, Seat
from app.services import lock
from app.settings import Settings
from bench.appserver import AppServer

ABSENT_AFTER = Settings().absent_after
WAIT_S = 60.0


@pytest.fixture
def absence_passes(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Moves the server's clock ABSENT_AFTER seconds and one more ahead (back after the test)."""
    monkeypatch.setattr(lock.clock, "ahead", lock.clock.ahead)

    def move_ahead() -> None:
        lock.clock.ahead += ABSENT_AFTER + 1

    return move_ahead


def gone(database_url: str, room_id: str, seat: int) -> None:
    """The seat's player last seen ABSENT_AFTER seconds and one more ago (for servers in other
    processes, whose clock a test cannot move)."""
    past = datetime.now(UTC) - timedelta(seconds=ABSENT_AFTER + 1)
    db = create_engine(database_url)
    with db.begin() as connection:
        connection.execute(
            update(Seat)
            .where(Seat.room_id == room_id, Seat.seat == seat)
            .values(joined_at=past, last_seen_at=past)
        )
    db.dispose()


def state(client: TestClient, room_id: str, token: str) -> dict[str, Any]:
    body: dict[str, Any] = client.get(f"/api/rooms/{room_id}", headers=bearer(token)).json()
    return body


def events(client: TestClient, room_id: str, token: str) -> list[tuple[str, int]]:
    found = client.get(f"/api/rooms/{room_id}/events", headers=bearer(token)).json()["events"]
    return [(e["kind"], e["seat"]) for e in found]


def test_the_computer_stands_in_until_the_owner_takes_over(
    client: TestClient, absence_passes: Callable[[], None]
) -> None:
    room = new_room(client)
    room_id, host, guest = room["room"], room["tokens"][0], room["tokens"][1]
    assert (
        play_first(client, room_id, host).status_code == 200
    )  # now Player 2 (the guest) is to move
    absence_passes()
    # only the present player, against the player to move
    refused = client.post(f"/api/rooms/{room_id}/standin", headers=bearer(guest))
    assert refused.status_code == 409 and refused.json()["code"] == "not_absent"
    spectator = client.post(f"/api/rooms/{room_id}/standin", headers=bearer(room["spectator"]))
    assert spectator.status_code == 403
    absence_passes()  # the guest's request was a sign of life: gone again only now
    answer = client.post(f"/api/rooms/{room_id}/standin", headers=bearer(host))
    assert answer.status_code == 200 and answer.json() == {"standin_seat": 1}
    # the computer plays Player 2's turn; the owner cannot play over it
    deadline = time.monotonic() + WAIT_S
    while state(client, room_id, host)["summary"]["to_move"] != 0:
        assert time.monotonic() < deadline, "the stand-in did not move"
        time.sleep(0.05)
    assert state(client, room_id, host)["version"] >= 2
    played = client.get(f"/api/rooms/{room_id}/moves", headers=bearer(host)).json()["moves"]
    assert played[1]["seat"] == 1
    # the host moves; when it is Player 2's turn again, the computer plays on
    assert play_first(client, room_id, host).status_code == 200
    while state(client, room_id, host)["summary"]["to_move"] != 0:
        assert time.monotonic() < deadline, "the stand-in did not move again"
        time.sleep(0.05)
    # the owner comes back and takes over
    back = client.post(f"/api/rooms/{room_id}/take-over", headers=bearer(guest))
    assert back.status_code == 200 and back.json() == {"standin_seat": None}
    again = client.post(f"/api/rooms/{room_id}/take-over", headers=bearer(guest))
    assert again.status_code == 409 and again.json()["code"] == "no_standin"
    assert events(client, room_id, host) == [("standin_started", 1), ("standin_ended", 1)]


def test_the_owner_cannot_move_while_the_computer_stands_in(
    client: TestClient, database_url: str
) -> None:
    room = new_room(client)
    room_id, guest = room["room"], room["tokens"][1]
    assert play_first(client, room_id, room["tokens"][0]).status_code == 200
    # the computer stands in for Player 2 (written as the service would, without waking it)
    db = create_engine(database_url)
    with Session(db) as session:
        stored = session.get(Room, room_id)
        assert stored is not None
        stored.standin_seat = 1
        session.commit()
    db.dispose()
    blocked = play_first(client, room_id, guest)
    assert blocked.status_code == 409 and blocked.json()["code"] == "standin_playing"
    assert client.post(f"/api/rooms/{room_id}/take-over", headers=bearer(guest)).status_code == 200
    assert play_first(client, room_id, guest).status_code == 200


def test_claim_wins_the_game_because_the_opponent_left(
    client: TestClient, absence_passes: Callable[[], None]
) -> None:
    room = new_room(client)
    room_id, host, guest = room["room"], room["tokens"][0], room["tokens"][1]
    assert play_first(client, room_id, host).status_code == 200
    absence_passes()
    answer = client.post(f"/api/rooms/{room_id}/claim", headers=bearer(host))
    assert answer.status_code == 200 and answer.json() == {"ending": "claimed", "seat": 0}
    body = state(client, room_id, guest)
    assert body["finished"] and body["result"]["winner"] == 0
    assert body["result"]["ending"] == {"kind": "claimed", "seat": 0}
    assert events(client, room_id, guest) == [("claimed", 0)]
    client.get(f"/s/{guest}")
    table = client.get(f"/rooms/{room_id}").text
    assert "The game was claimed: the opponent left." in table and "Player 1 wins." in table


def test_an_open_page_keeps_a_player_present(
    client: TestClient, absence_passes: Callable[[], None]
) -> None:
    room = new_room(client)
    room_id, host, guest = room["room"], room["tokens"][0], room["tokens"][1]
    assert play_first(client, room_id, host).status_code == 200
    with client.websocket_connect(f"/ws/rooms/{room_id}?token={guest}") as socket:
        socket.receive_text()
        absence_passes()
        refused = client.post(f"/api/rooms/{room_id}/claim", headers=bearer(host))
        assert refused.status_code == 409 and refused.json()["code"] == "not_absent"
    # the page closed just now: the player is seen until then
    refused = client.post(f"/api/rooms/{room_id}/claim", headers=bearer(host))
    assert refused.status_code == 409
    absence_passes()
    assert client.post(f"/api/rooms/{room_id}/claim", headers=bearer(host)).status_code == 200


def test_nothing_to_claim_before_the_absence_time(client: TestClient) -> None:
    room = new_room(client)
    assert play_first(client, room["room"], room["tokens"][0]).status_code == 200
    for action in ("claim", "standin"):
        refused = client.post(
            f"/api/rooms/{room['room']}/{action}", headers=bearer(room["tokens"][0])
        )
        assert refused.status_code == 409 and refused.json()["code"] == "not_absent"


def test_the_table_offers_the_present_player_what_to_do(
    client: TestClient, absence_passes: Callable[[], None]
) -> None:
    room = new_room(client)
    room_id, host = room["room"], room["tokens"][0]
    assert play_first(client, room_id, host).status_code == 200
    absence_passes()
    client.get(f"/s/{host}")
    table = client.get(f"/rooms/{room_id}").text
    assert 'id="standin-button"' in table and 'id="claim-confirm"' in table
    answer = client.post(f"/rooms/{room_id}/standin", headers={"Accept-Language": "pt-BR"})
    assert answer.status_code == 200
    assert "O computador joga pelo seu adversário" in answer.text


@pytest.mark.slow
@pytest.mark.postgres_only
def test_two_processes_agree_on_the_stand_in(
    two_servers: list[AppServer], database_url: str
) -> None:
    first, second = two_servers
    with httpx.Client(timeout=10) as http:
        room = new_room(http, base=first.url, guest_base=second.url)
        room_id, host, guest = room["room"], room["tokens"][0], room["tokens"][1]
        moved = play_first(http, room_id, host, version=0, base=first.url)
        assert moved.status_code == 200
        gone(database_url, room_id, 1)
        answer = http.post(f"{second.url}/api/rooms/{room_id}/standin", headers=bearer(host))
        assert answer.status_code == 200, answer.text
        deadline = time.monotonic() + WAIT_S
        while True:
            seen = [
                http.get(f"{s.url}/api/rooms/{room_id}", headers=bearer(guest)).json()
                for s in (first, second)
            ]
            if all(b["summary"]["to_move"] == 0 for b in seen):
                break
            assert time.monotonic() < deadline, "the stand-in did not move"
            time.sleep(0.1)
        log = http.get(f"{first.url}/api/rooms/{room_id}/moves", headers=bearer(host)).json()
        assert [m["seat"] for m in log["moves"]][:2] == [0, 1]
        assert seen[0]["version"] == seen[1]["version"]
        back = http.post(f"{first.url}/api/rooms/{room_id}/take-over", headers=bearer(guest))
        assert back.status_code == 200
        kinds = http.get(f"{second.url}/api/rooms/{room_id}/events", headers=bearer(host)).json()
        assert [e["kind"] for e in kinds["events"]] == ["standin_started", "standin_ended"]


def test_a_player_who_plays_through_the_api_is_not_absent(
    client: TestClient, absence_passes: Callable[[], None]
) -> None:
    """A request made with a seat's link is a sign of life, socket or not: a player who moves
    through the API cannot be claimed against while playing."""
    room = new_room(client)
    room_id, host, guest = room["room"], room["tokens"][0], room["tokens"][1]
    assert play_first(client, room_id, host).status_code == 200
    absence_passes()
    assert play_first(client, room_id, guest).status_code == 200  # the guest moves, no page open
    assert play_first(client, room_id, host).status_code == 200
    claim = client.post(f"/api/rooms/{room_id}/claim", headers=bearer(host))
    assert claim.status_code == 409 and claim.json()["code"] == "not_absent"
    # Silent from then on by every measure, the guest is gone again.
    absence_passes()
    claim = client.post(f"/api/rooms/{room_id}/claim", headers=bearer(host))
    assert claim.status_code == 200 and claim.json()["ending"] == "claimed"
    assert state(client, room_id, guest)["result"]["ending"]["kind"] == "claimed"


def test_a_move_from_the_page_and_a_refused_one_are_signs_of_life(
    client: TestClient, database_url: str, absence_passes: Callable[[], None]
) -> None:
    """A move played from the page writes its seat as seen (in the move's own transaction), and
    a move refused is a sign of life as well."""
    room = new_room(client)
    room_id, host, guest = room["room"], room["tokens"][0], room["tokens"][1]
    assert play_first(client, room_id, host).status_code == 200
    assert client.get(f"/s/{guest}", follow_redirects=False).status_code == 303  # the page's cookie
    move, version = first_action(client, room_id, guest)  # asked before: a request is a sign too
    absence_passes()
    form = {"move": json.dumps(move), "version": str(version), "client_move_id": "page-1"}
    assert client.post(f"/rooms/{room_id}/moves", data=form).status_code == 200
    later = datetime.now(UTC) + timedelta(seconds=ABSENT_AFTER)
    assert last_seen(database_url, room_id, 1) >= later
    absence_passes()
    refused = post_move(client, room_id, host, {"type": "pass"}, version)  # a stale version
    assert refused.status_code == 409
    assert last_seen(database_url, room_id, 0) >= later + timedelta(seconds=ABSENT_AFTER)


def test_a_move_with_the_seats_page_open_writes_nothing_more_and_is_not_absent(
    settings: Settings, database_url: str, absence_passes: Callable[[], None]
) -> None:
    """While a page of the seat is open on the process, its socket keeps the seat online: a
    move writes no sign of life of its own, and the player cannot be claimed against. (No
    heartbeat, which writes an online seat as seen, comes during the test.)"""
    quiet = settings.model_copy(update={"presence_timeout": 3600.0})
    with TestClient(create_app(quiet)) as client:
        played_with_the_page_open(client, database_url, absence_passes)


def played_with_the_page_open(
    client: TestClient, database_url: str, absence_passes: Callable[[], None]
) -> None:
    room = new_room(client)
    room_id, host, guest = room["room"], room["tokens"][0], room["tokens"][1]
    assert play_first(client, room_id, host).status_code == 200
    with client.websocket_connect(f"/ws/rooms/{room_id}?token={guest}") as socket:
        socket.receive_text()  # the first board: the socket is open and counted
        opened = last_seen(database_url, room_id, 1)
        absence_passes()
        assert play_first(client, room_id, guest).status_code == 200
        assert last_seen(database_url, room_id, 1) == opened
        assert play_first(client, room_id, host).status_code == 200  # the guest is to move
        claim = client.post(f"/api/rooms/{room_id}/claim", headers=bearer(host))
        assert claim.status_code == 409 and claim.json()["code"] == "not_absent"


def last_seen(database_url: str, room_id: str, seat: int) -> datetime:
    db = create_engine(database_url)
    with db.connect() as connection:
        seen = connection.scalar(
            select(Seat.last_seen_at).where(Seat.room_id == room_id, Seat.seat == seat)
        )
    db.dispose()
    assert seen is not None
    return seen if seen.tzinfo is not None else seen.replace(tzinfo=UTC)


def test_a_new_link_for_the_opponent_restarts_their_absence_clock(
    client: TestClient, absence_passes: Callable[[], None]
) -> None:
    """The host cannot take the opponent's link away and claim at once: the absence clock starts
    again when the new link is issued (and again when it is first used)."""
    room = new_room(client)
    room_id, host = room["room"], room["tokens"][0]
    assert play_first(client, room_id, host).status_code == 200  # the guest is to move
    absence_passes()
    reissued = client.post(f"/api/rooms/{room_id}/seat-link", headers=bearer(host))
    assert reissued.status_code == 200
    claim = client.post(f"/api/rooms/{room_id}/claim", headers=bearer(host))
    assert claim.status_code == 409 and claim.json()["code"] == "not_absent"
