"""Takeback by agreement (issue 13, point 5): a player asks to take back their own actions since
the opponent last acted; the opponent accepts or declines; one request at a time. The log stays
append-only: replaying it (tests/app/conftest.py, after every test) gives the stored position."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from support.rooms import answer_takeback as answer
from support.rooms import ask_takeback as ask
from support.rooms import bearer, new_room, play_first
from support.services import first_move_against

import engine
from app.reads import catalogs
from app.reads.positions import effective_of, own_moves_to_take_back, takeback_text
from app.reads.queries import room_summary
from app.services import takeback
from bench.appserver import AppServer
from engine.record import read_record


def state(client: TestClient, room_id: str, token: str) -> dict[str, Any]:
    body: dict[str, Any] = client.get(f"/api/rooms/{room_id}", headers=bearer(token)).json()
    return body


def kinds(client: TestClient, room: dict[str, Any]) -> list[str]:
    found = client.get(f"/api/rooms/{room['room']}/events", headers=bearer(room["spectator"]))
    return [e["kind"] for e in found.json()["events"]]


def test_an_accepted_takeback_is_a_log_entry_and_the_position_goes_back(
    client: TestClient,
) -> None:
    room = new_room(client)
    room_id = room["room"]
    start = state(client, room_id, room["spectator"])["summary"]
    assert play_first(client, room["room"], room["tokens"][0]).status_code == 200
    asked = ask(client, room, 0)
    assert asked.status_code == 200 and asked.json() == {"status": "asked"}
    client.get(f"/s/{room['tokens'][1]}")
    table = client.get(f"/rooms/{room_id}").text
    assert "Player 1 asks to take back their last action." in table
    assert 'id="takeback-accept"' in table
    accepted = answer(client, room, 1, True)
    assert accepted.status_code == 200 and accepted.json() == {"status": "accepted"}
    after = state(client, room_id, room["spectator"])
    assert after["version"] == 2 and after["summary"] == start
    log = client.get(f"/api/rooms/{room_id}/moves", headers=bearer(room["spectator"])).json()
    assert [m["move"]["type"] for m in log["moves"]][1] == "takeback"
    assert log["moves"][1] == {"seq": 1, "seat": 0, "move": {"count": 1, "type": "takeback"}}
    assert kinds(client, room) == ["takeback_asked"]
    # the game goes on from there, and the table tells it
    assert play_first(client, room["room"], room["tokens"][0]).status_code == 200
    table = client.get(f"/rooms/{room_id}").text
    assert "Player 1 took back their last action (the opponent agreed)" in table
    review = client.get(f"/rooms/{room_id}/review")
    assert review.status_code == 200


def test_a_declined_takeback_changes_nothing(client: TestClient) -> None:
    room = new_room(client)
    assert play_first(client, room["room"], room["tokens"][0]).status_code == 200
    before = state(client, room["room"], room["spectator"])
    assert ask(client, room, 0).status_code == 200
    declined = answer(client, room, 1, False)
    assert declined.status_code == 200 and declined.json() == {"status": "declined"}
    after = state(client, room["room"], room["spectator"])
    assert after["version"] == before["version"] and after["summary"] == before["summary"]
    assert kinds(client, room) == ["takeback_asked", "takeback_declined"]


def test_one_request_at_a_time_and_only_the_opponent_answers(client: TestClient) -> None:
    room = new_room(client)
    assert play_first(client, room["room"], room["tokens"][0]).status_code == 200
    assert ask(client, room, 0).status_code == 200
    again = ask(client, room, 0)
    assert again.status_code == 409 and again.json()["code"] == "takeback_pending"
    own = answer(client, room, 0, True)
    assert own.status_code == 409 and own.json()["code"] == "no_takeback"
    spectator = client.post(
        f"/api/rooms/{room['room']}/takeback/answer",
        json={"accept": True},
        headers=bearer(room["spectator"]),
    )
    assert spectator.status_code == 403


def test_only_ones_own_actions_since_the_opponent_last_acted(client: TestClient) -> None:
    room = new_room(client)
    nothing = ask(client, room, 0)
    assert nothing.status_code == 409 and nothing.json()["code"] == "nothing_to_take_back"
    assert play_first(client, room["room"], room["tokens"][0]).status_code == 200
    other = ask(client, room, 1)
    assert other.status_code == 409 and other.json()["code"] == "nothing_to_take_back"


def test_a_move_lets_the_request_lapse(client: TestClient) -> None:
    room = new_room(client)
    assert play_first(client, room["room"], room["tokens"][0]).status_code == 200
    assert ask(client, room, 0).status_code == 200
    assert play_first(client, room["room"], room["tokens"][1]).status_code == 200
    late = answer(client, room, 1, True)
    assert late.status_code == 409 and late.json()["code"] == "no_takeback"
    assert state(client, room["room"], room["spectator"])["version"] == 2


@pytest.mark.parametrize(("level", "agrees"), [("easy", True), ("normal", True), ("strong", False)])
def test_the_computer_accepts_unless_strong(database_url: str, level: str, agrees: bool) -> None:
    with first_move_against(database_url, level) as (sessions, viewer, first):
        with sessions() as session:
            assert takeback.ask_takeback(session, viewer=viewer) is agrees
        with sessions() as session:
            summary = room_summary(session, room_id=viewer.room_id)
    expected = engine.new_game() if agrees else engine.apply(engine.new_game(), first)
    assert summary.summary == engine.summary(expected)
    assert summary.version == (2 if agrees else 1)


@pytest.mark.slow
@pytest.mark.postgres_only
def test_two_processes_agree_on_a_takeback(two_servers: list[AppServer]) -> None:
    first, second = two_servers
    with httpx.Client(timeout=10) as http:
        room = new_room(http, base=first.url, guest_base=second.url)
        host, guest = room["tokens"][0], room["tokens"][1]
        assert play_first(http, room["room"], host, base=first.url).status_code == 200
        for server in (first, second):  # both processes cache the position at version 1
            seen = http.get(f"{server.url}/api/rooms/{room['room']}", headers=bearer(guest))
            assert seen.json()["version"] == 1
        asked = http.post(f"{first.url}/api/rooms/{room['room']}/takeback", headers=bearer(host))
        assert asked.json() == {"status": "asked"}
        accepted = http.post(
            f"{second.url}/api/rooms/{room['room']}/takeback/answer",
            json={"accept": True},
            headers=bearer(guest),
        )
        assert accepted.status_code == 200
        time.sleep(0.2)
        for server in (first, second):
            body = http.get(f"{server.url}/api/rooms/{room['room']}", headers=bearer(guest)).json()
            assert body["version"] == 2
            assert body["summary"] == engine.summary(engine.new_game())
        assert play_first(http, room["room"], host, base=second.url).status_code == 200


def test_a_takeback_counts_ones_own_moves_sells_included() -> None:
    played = [(0, 0, "build"), (1, 1, "sell"), (2, 1, "sell"), (3, 1, "build")]
    assert own_moves_to_take_back(played, 1, 0) == 3
    assert own_moves_to_take_back(played, 0, 0) == 0
    assert own_moves_to_take_back(played, 1, 3) == 1  # a fork's start record stays
    rows = [*((s, seat, "x") for s, seat, _ in played), (4, 1, takeback_text(2))]
    assert [seq for seq, _, _ in effective_of(rows)] == [0, 1]


def test_the_review_and_the_analysis_number_the_moves_in_force(client: TestClient) -> None:
    """After an accepted takeback the review's steps are the moves in force, as the record and
    the analysis count them: a turning point's position is the review's step of that turn."""
    room = new_room(client)
    room_id = room["room"]
    assert play_first(client, room["room"], room["tokens"][0]).status_code == 200
    assert ask(client, room, 0).status_code == 200
    assert answer(client, room, 1, True).status_code == 200
    for _ in range(3):
        seat = state(client, room_id, room["spectator"])["summary"]["to_move"]
        assert play_first(client, room["room"], room["tokens"][seat]).status_code == 200
    resigned = client.post(f"/api/rooms/{room_id}/resign", headers=bearer(room["tokens"][0]))
    assert resigned.status_code == 200
    rows = client.get(f"/api/rooms/{room_id}/moves", headers=bearer(room["spectator"])).json()
    in_force = effective_of((m["seq"], m["seat"], json.dumps(m["move"])) for m in rows["moves"])
    assert len(rows["moves"]) == 5 and len(in_force) == 3
    client.get(f"/s/{room['tokens'][0]}")
    record = read_record(client.get(f"/rooms/{room_id}/record.json").text, catalogs.find)
    assert len(record.moves) == 3
    page = client.get(f"/rooms/{room_id}/review")
    assert page.status_code == 200
    assert 'data-last="3"' in page.text and 'max="3"' in page.text
    steps = re.findall(r'<li class="review-move seat-(\d)[^"]*">\s*<a href="\?at=(\d+)"', page.text)
    assert [(int(s), int(at)) for s, at in steps] == [
        (seat, i + 1) for i, (_, seat, _) in enumerate(in_force)
    ]
    assert re.search(r'class="review-move review-note seat-0">Player 1 took back', page.text)
    assert client.get(f"/rooms/{room_id}/review?at=4").status_code == 422
    for at in range(4):
        shown = client.get(f"/rooms/{room_id}/review?at={at}").text
        expected = engine.summary(engine.replay(record.moves[:at], catalogs.registry().default()))
        assert review_summary(shown) == expected
    assert client.post(f"/rooms/{room_id}/analysis").status_code == 200
    deadline = time.monotonic() + 60
    while "analysis-done" not in (done := client.get(f"/rooms/{room_id}/analysis").text):
        assert time.monotonic() < deadline
        time.sleep(0.2)
    points = [
        (int(seat), int(at))
        for seat, at in re.findall(r'turning-point seat-(\d)" data-position="(\d+)"', done)
    ]
    assert points, "naive first actions lose points against the strong computer"
    for seat, at in points:
        shown = client.get(f"/rooms/{room_id}/review?at={at}").text
        assert review_summary(shown)["to_move"] == seat
        assert in_force[at][1] == seat


def review_summary(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="review-summary">(.*?)</script>', html)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data
