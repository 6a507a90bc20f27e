"""Rooms against the computer: the option, whole games, the log, resuming, duplicates, rematch.

Every test runs on SQLite and on PostgreSQL (the `database_url` fixture). The computer plays in
the app's own event loop (the TestClient's thread), so the tests wait for it by polling the API.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker
from support.boards import board_version, is_board
from support.coroutines import run_async
from support.rooms import bearer, pick, post_move, token_of

import engine
from app.computer.player import ComputerPlayer
from app.db import make_engine, make_sessionmaker
from app.main import create_app
from app.models import Link, Move, Room
from app.reads import catalogs, queries
from app.services import moves, rooms
from app.settings import Settings

WAIT_S = 60.0
"""Long enough for a first process-pool start on a busy two-core machine."""


@pytest.fixture
def sessions(database_url: str) -> Iterator[sessionmaker[Session]]:
    db = make_engine(database_url)
    yield make_sessionmaker(db)
    db.dispose()


def room_body(client: TestClient, room_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/rooms/{room_id}", headers=bearer(token))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def wait_for(
    client: TestClient, room_id: str, token: str, done: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """Poll the room until `done(body)`; fail when the computer does not get there in time."""
    deadline = time.monotonic() + WAIT_S
    while True:
        body = room_body(client, room_id, token)
        if done(body):
            return body
        assert time.monotonic() < deadline, f"the room is stuck at version {body['version']}"
        time.sleep(0.01)


def humans_turn(seat: int) -> Callable[[dict[str, Any]], bool]:
    return lambda body: body["finished"] or body["summary"]["to_move"] == seat


def log_rows(sessions: sessionmaker[Session], room_id: str) -> list[tuple[int, int, str]]:
    """(seq, seat, client_move_id) of every move of the room, oldest first."""
    with sessions() as session:
        rows = session.execute(
            select(Move.seq, Move.seat, Move.client_move_id)
            .where(Move.room_id == room_id)
            .order_by(Move.seq)
        ).all()
    return [(seq, seat, client_move_id) for seq, seat, client_move_id in rows]


def human_move(client: TestClient, room_id: str, token: str, rng: random.Random) -> dict[str, Any]:
    """One scripted move of the human player through the API (a random non-sell action)."""
    legal = client.get(f"/api/rooms/{room_id}/legal", headers=bearer(token)).json()
    response = post_move(client, room_id, token, pick(legal["moves"], rng), legal["version"])
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def create_quietly(
    sessions: sessionmaker[Session], *, host_seat: int, computer: str = "easy"
) -> rooms.CreatedRoom:
    """A computer room made behind the server's back: nobody tells the computer about it."""
    with sessions() as session:
        return rooms.create_room(
            session, host_seat=host_seat, base_url="http://test", computer=computer
        )


def first_action(state: engine.GameState) -> dict[str, Any]:
    return next(m for m in engine.legal_moves(state) if m.type != "sell").to_json()


# --- the option ------------------------------------------------------------------------------


def test_a_computer_room_has_no_invite_and_the_computer_is_present(
    client: TestClient, sessions: sessionmaker[Session]
) -> None:
    response = client.post("/api/rooms", json={"host_seat": 0, "computer": "normal"})
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["seat"] == 0 and created["invite_link"] is None
    body = room_body(client, created["room"], created["token"])
    assert body["online"] == [False, True]  # the host has no socket open; the computer is there
    with sessions() as session:
        room = session.get(Room, created["room"])
        assert room is not None and (room.computer, room.computer_seat) == ("normal", 1)
        kinds = session.scalars(select(Link.kind).where(Link.room_id == created["room"])).all()
        assert kinds == ["spectator"]
    page = client.get(f"/s/{created['token']}", follow_redirects=True)
    assert page.status_code == 200
    assert "Computer (normal)" in page.text
    assert 'id="invite-link"' not in page.text
    # The spectator link works for a computer room too.
    watch = client.get(f"/w/{token_of(created['spectator_link'])}", follow_redirects=True)
    assert watch.status_code == 200 and "Computer (normal)" in watch.text


@pytest.mark.parametrize(
    ("lang", "thinking"),
    [
        ("en", "Computer (strong) is thinking…"),
        ("cs", "Počítač (silný) přemýšlí…"),
        ("pt_BR", "Computador (forte) está pensando…"),
    ],
)
def test_the_table_says_the_computer_is_thinking_on_its_turn(
    client: TestClient, sessions: sessionmaker[Session], lang: str, thinking: str
) -> None:
    created = create_quietly(sessions, host_seat=1, computer="strong")
    client.cookies.set("lang", lang)
    page = client.get(f"/s/{created.token}", follow_redirects=True)
    assert page.status_code == 200
    assert thinking in page.text
    watch = client.get(f"/w/{token_of(created.spectator_link)}", follow_redirects=True)
    assert thinking in watch.text


@pytest.mark.parametrize(
    "body",
    [
        {"host_seat": 0, "computer": "grandmaster"},
        {"host_seat": 0, "computer": True},
        {"host_seat": 0, "computer": 2},
        {"host_seat": 2, "computer": "easy"},
    ],
)
def test_a_bad_computer_option_is_refused_and_creates_nothing(
    client: TestClient, sessions: sessionmaker[Session], body: dict[str, Any]
) -> None:
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "invalid_request"
    errors = response.json()["params"]["errors"]
    assert any("computer" in e["loc"] or "host_seat" in e["loc"] for e in errors)
    with sessions() as session:
        assert session.scalar(select(func.count()).select_from(Room)) == 0


def test_the_home_form_starts_a_room_against_the_computer(
    client: TestClient, sessions: sessionmaker[Session]
) -> None:
    refused = client.post("/rooms", data={"host_seat": "0", "computer": "genius"})
    assert refused.status_code == 422
    assert "Choose your opponent" in refused.text
    with sessions() as session:
        assert session.scalar(select(func.count()).select_from(Room)) == 0
    page = client.post("/rooms", data={"host_seat": "1", "computer": "easy"})
    assert page.status_code == 200 and "Computer (easy)" in page.text
    with sessions() as session:
        room = session.scalars(select(Room)).one()
    assert (room.computer, room.computer_seat) == ("easy", 0)
    assert page.url.path == f"/rooms/{room.id}"
    # The computer moves first, by itself.
    deadline = time.monotonic() + WAIT_S
    while len(log_rows(sessions, room.id)) < 1:
        assert time.monotonic() < deadline, "the computer did not open the game"
        time.sleep(0.01)
    assert log_rows(sessions, room.id)[0] == (0, 0, "computer-0")


# --- whole games ------------------------------------------------------------------------------


def test_a_whole_game_against_the_easy_computer(
    client: TestClient, sessions: sessionmaker[Session]
) -> None:
    created = client.post("/api/rooms", json={"host_seat": 1, "computer": "easy"}).json()
    room_id, token, human = created["room"], created["token"], created["seat"]
    rng = random.Random(6)
    body = wait_for(client, room_id, token, humans_turn(human))
    while not body["finished"]:
        human_move(client, room_id, token, rng)
        body = wait_for(client, room_id, token, humans_turn(human))

    rows = log_rows(sessions, room_id)
    moves = client.get(f"/api/rooms/{room_id}/moves", headers=bearer(token)).json()["moves"]
    assert [m["seq"] for m in moves] == [seq for seq, _, _ in rows] == list(range(len(rows)))
    # Replaying the log move by move: each move was made by the seat to move, and every move of
    # the computer's seat carries its id for the version it was thought on.
    state = engine.new_game(catalogs.registry().get(created["catalog"]))
    for (seq, seat, client_move_id), logged in zip(rows, moves, strict=True):
        assert seat == state.to_move == logged["seat"]
        if seat != human:
            assert client_move_id == f"computer-{seq}"
        state = engine.apply(state, logged["move"])
    assert engine.is_finished(state)
    assert sum(1 for _, seat, _ in rows if seat != human) == state.catalog.total_actions // 2
    assert body["result"]["scores"] == list(engine.scores(state))


def test_the_normal_computer_thinks_in_a_bot_process(
    client: TestClient, sessions: sessionmaker[Session]
) -> None:
    created = client.post("/api/rooms", json={"host_seat": 1, "computer": "normal"}).json()
    room_id, token = created["room"], created["token"]
    rng = random.Random(3)
    wait_for(client, room_id, token, humans_turn(1))
    human_move(client, room_id, token, rng)
    body = wait_for(client, room_id, token, humans_turn(1))
    assert body["version"] >= 3
    seats = [seat for _, seat, _ in log_rows(sessions, room_id)]
    assert seats[0] == 0 and 1 in seats and seats[-1] == 0


def test_a_rematch_against_the_computer_opens_at_once_with_the_seats_swapped(
    client: TestClient, sessions: sessionmaker[Session]
) -> None:
    created = client.post("/api/rooms", json={"host_seat": 0, "computer": "easy"}).json()
    room_id, token = created["room"], created["token"]
    rng = random.Random(9)
    body = room_body(client, room_id, token)
    while not body["finished"]:
        human_move(client, room_id, token, rng)
        body = wait_for(client, room_id, token, humans_turn(0))
    rematch = client.post(f"/api/rooms/{room_id}/rematch", headers=bearer(token))
    assert rematch.status_code == 200, rematch.text
    info = rematch.json()
    assert info["room"] is not None and info["seat_link"] is not None
    new_token = token_of(info["seat_link"])
    with sessions() as session:
        new_room = session.get(Room, info["room"])
        assert new_room is not None
        assert (new_room.computer, new_room.computer_seat) == ("easy", 0)
    # The computer now moves first, and does so by itself.
    wait_for(client, info["room"], new_token, lambda b: b["version"] >= 1)
    assert log_rows(sessions, info["room"])[0] == (0, 0, "computer-0")


# --- resuming and duplicates ---------------------------------------------------------------------


def test_a_restart_resumes_a_room_left_on_the_computers_turn(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    created = create_quietly(sessions, host_seat=0)
    with sessions() as session:
        moves.submit_move(
            session,
            room_id=created.room_id,
            seat=0,
            move=first_action(engine.new_game()),
            version=0,
            client_move_id="human-0",
        )
    # The server was down (nobody was told): the room waits on the computer's turn.
    assert len(log_rows(sessions, created.room_id)) == 1
    with TestClient(create_app(settings)) as client:
        wait_for(client, created.room_id, created.token, lambda b: b["version"] >= 2)
    assert log_rows(sessions, created.room_id)[1] == (1, 1, "computer-1")


def test_a_viewer_connecting_wakes_the_computer(
    client: TestClient, sessions: sessionmaker[Session]
) -> None:
    created = create_quietly(sessions, host_seat=1)
    assert room_body(client, created.room_id, created.token)["version"] == 0
    with client.websocket_connect(f"/ws/rooms/{created.room_id}?token={created.token}") as ws:
        deadline = time.monotonic() + WAIT_S
        while True:
            frame = ws.receive_text()
            if is_board(frame) and board_version(frame) == 1:
                break
            assert time.monotonic() < deadline, "the computer did not wake up"
    assert log_rows(sessions, created.room_id) == [(0, 0, "computer-0")]


class Recorder:
    """A publisher that only remembers what it was told."""

    def __init__(self) -> None:
        self.changes: list[tuple[str, int | None]] = []

    def room_changed(self, room_id: str, version: int | None) -> None:
        self.changes.append((room_id, version))


def test_two_processes_thinking_alike_apply_the_computer_move_once(
    sessions: sessionmaker[Session], caplog: pytest.LogCaptureFixture
) -> None:
    created = create_quietly(sessions, host_seat=1)
    recorder = Recorder()

    async def both_play() -> None:
        players = [ComputerPlayer(sessions, recorder) for _ in range(2)]
        for player in players:
            player.nudge(created.room_id)
        for player in players:
            await player.idle()
            await player.close()

    with caplog.at_level(logging.WARNING, logger="app.computer.player"):
        run_async(both_play())
    assert log_rows(sessions, created.room_id) == [(0, 0, "computer-0")]
    assert recorder.changes == [(created.room_id, 1)]
    assert caplog.records == []


def test_a_duplicate_or_stale_computer_move_is_dropped_quietly(
    sessions: sessionmaker[Session], caplog: pytest.LogCaptureFixture
) -> None:
    created = create_quietly(sessions, host_seat=1)
    with sessions() as session:
        _has_computer, turn = queries.computer_turn(session, room_id=created.room_id)
    assert turn is not None and (turn.version, turn.seat) == (0, 0)
    legal = [m for m in engine.legal_moves(turn.state) if m.type != "sell"]
    # Another process played the computer's opening first, and chose differently.
    with sessions() as session:
        moves.submit_move(
            session,
            room_id=created.room_id,
            seat=0,
            move=legal[-1].to_json(),
            version=0,
            client_move_id="computer-0",
        )
        moves.submit_move(
            session,
            room_id=created.room_id,
            seat=1,
            move=first_action(engine.apply(turn.state, legal[-1])),
            version=1,
            client_move_id="human-1",
        )
    player = ComputerPlayer(sessions, Recorder())
    late = queries.ComputerTurn(
        room_id=created.room_id, level="easy", seat=0, version=1, state=turn.state
    )
    with caplog.at_level(logging.WARNING, logger="app.computer.player"):
        player._submit(turn, legal[-1])  # a duplicate: the original answer, nothing applied
        player._submit(turn, legal[0])  # its id, another move: refused, nothing applied
        player._submit(late, legal[0])  # a stale version: refused, nothing applied
    rows = log_rows(sessions, created.room_id)
    assert rows == [(0, 0, "computer-0"), (1, 1, "human-1")]
    with sessions() as session:
        first = session.scalar(select(Move.move).where(Move.seq == 0))
    assert first == legal[-1].canonical
    assert caplog.records == []
