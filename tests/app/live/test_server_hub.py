"""The room hub: one read and one render per group of viewers, versions, slow sockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocket
from support.boards import playing_facts, text_board
from support.coroutines import run_async
from support.hub import (
    OTHER_SPECTATOR,
    SEAT_0,
    SEAT_1,
    SPECTATOR,
    Boards,
    FakePainter,
    Previous,
    board,
    next_frame,
    socket_for,
)

import engine
from app.live import notify
from app.live.frames import PATCH_PREFIX, DrawnBoard, frame_of, part_hash
from app.live.hub import Hub
from app.live.painters import BoardPainter, drawing_order
from app.live.sockets import BoardGroup, HandOut, RoomSocket
from app.reads import games, positions, queries
from app.reads.roomview import RoomView
from app.routes import ws
from engine import lehavre
from engine.games import game


def test_a_change_reads_the_room_once_and_renders_once_per_group() -> None:
    async def scenario() -> tuple[list[str], int, int]:
        painter = FakePainter(room_version=3)
        hub = Hub(asyncio.get_running_loop(), painter)
        sockets = [socket_for(v) for v in (SEAT_0, SEAT_1, SPECTATOR, OTHER_SPECTATOR)]
        sockets.append(socket_for(SPECTATOR, lang="cs"))
        for socket in sockets:
            hub.join("r1", socket)
        hub.deliver("r1", None)
        boards = [await board(socket) for socket in sockets]
        assert sockets[2].viewer == SPECTATOR  # the socket keeps its own token
        return boards, len(painter.calls), len(painter.calls[0][3])

    boards, calls, groups = run_async(scenario())
    assert boards == ["seat0@3", "seat1@3", "spectatorNone@3", "spectatorNone@3", "spectatorNone@3"]
    assert calls == 1
    assert groups == 4  # two seats, the spectators in English (alike), the Czech spectator


def test_a_move_reuses_the_facts_and_other_changes_read_them_again() -> None:
    async def scenario() -> list[tuple[bool, int]]:
        painter = FakePainter()
        hub = Hub(asyncio.get_running_loop(), painter)
        socket = socket_for(SEAT_0)
        hub.join("r1", socket)
        hub.deliver("r1", None)
        assert await board(socket) == "seat0@0"
        hub.deliver("r1", 1)
        assert await board(socket) == "seat0@1"
        hub.deliver("r1", None)
        while len(painter.calls) < 3:
            await asyncio.sleep(0.01)
        # The same board again: the socket shows it already, nothing is sent.
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(next_frame(socket), 0.2)
        return [(fresh, version) for _room, fresh, version, _groups in painter.calls]

    assert run_async(scenario()) == [(True, -1), (False, 1), (True, 1)]


def test_a_version_is_delivered_once() -> None:
    async def scenario() -> int:
        painter = FakePainter()
        hub = Hub(asyncio.get_running_loop(), painter)
        socket = socket_for(SEAT_0)
        hub.join("r1", socket)
        hub.deliver("r1", 2)
        await board(socket)
        for version in (2, 1, 2):
            hub.deliver("r1", version)
        hub.deliver("elsewhere", 5)
        await asyncio.sleep(0.05)
        return len(painter.calls)

    assert run_async(scenario()) == 1


class HandingPainter(FakePainter):
    """Hands the board of seat 1 (the player to move) out first, then waits before the rest."""

    def __init__(self) -> None:
        super().__init__()
        self.go_on = threading.Event()

    def drawn(self, boards: Boards, hand_out: HandOut | None, previous: Previous) -> Boards:
        assert hand_out is not None
        first = next(group for group in boards if group.viewer.seat == 1)
        hand_out(first, boards[first])
        self.go_on.wait(5)
        return boards


def test_a_board_handed_out_while_drawing_goes_out_at_once_and_once() -> None:
    async def scenario() -> None:
        painter = HandingPainter()
        hub = Hub(asyncio.get_running_loop(), painter)
        waiting, mover, spectator = (socket_for(v) for v in (SEAT_1, SEAT_0, SPECTATOR))
        for socket in (waiting, mover, spectator):
            hub.join("r1", socket)
        hub.deliver("r1", 1)
        # Seat 1's board goes out while the others are still being drawn.
        assert await board(waiting) == "seat1@1"
        late = socket_for(SEAT_1)  # joins meanwhile: gets the board of its group at the end
        hub.join("r1", late)
        painter.go_on.set()
        assert [await board(s) for s in (mover, spectator, late)] == [
            "seat0@1",
            "spectatorNone@1",
            "seat1@1",
        ]
        with pytest.raises(TimeoutError):  # the board handed out is not sent twice
            await asyncio.wait_for(next_frame(waiting), 0.2)
        assert len(painter.calls) == 1

    run_async(scenario())


def test_a_wait_for_a_version_ends_when_its_boards_are_handed_out() -> None:
    async def scenario() -> None:
        painter = HandingPainter()
        hub = Hub(asyncio.get_running_loop(), painter)
        started = asyncio.get_running_loop().time()
        await hub.wait_for_boards("r1", 1, 5.0)  # nobody watches: at once
        assert asyncio.get_running_loop().time() - started < 1
        waiting, mover = socket_for(SEAT_1), socket_for(SEAT_0)
        for socket in (waiting, mover):
            hub.join("r1", socket)
        waited = asyncio.create_task(hub.wait_for_boards("r1", 1, 5.0))
        hub.deliver("r1", 1)
        # Seat 1's board goes out; while the mover's is still being drawn, the wait goes on.
        assert await board(waiting) == "seat1@1"
        await asyncio.sleep(0.05)
        assert not waited.done()
        painter.go_on.set()
        assert await board(mover) == "seat0@1"
        await asyncio.wait_for(waited, 2)
        # A version nobody draws: the wait ends after its timeout.
        started = asyncio.get_running_loop().time()
        await hub.wait_for_boards("r1", 2, 0.1)
        assert asyncio.get_running_loop().time() - started >= 0.1

    run_async(scenario())


class ThreadNotingPainter(FakePainter):
    """Notes the thread each board is drawn in."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: list[threading.Thread] = []

    def draw(self, group: BoardGroup, version: int) -> DrawnBoard:
        self.threads.append(threading.current_thread())
        return super().draw(group, version)


def test_boards_with_nothing_to_read_are_drawn_on_the_event_loop() -> None:
    """A change that needs a read (the facts, or a position not in memory: `at_once` says so) is
    drawn in a worker thread; one with nothing to read on the event loop, with no hand-off."""

    async def scenario() -> tuple[list[bool], list[int]]:
        painter, in_memory, asked = ThreadNotingPainter(), {"r1": False}, []

        def at_once(room_id: str, facts: object, version: int) -> bool:
            asked.append(version)
            return in_memory[room_id]

        hub = Hub(asyncio.get_running_loop(), painter, at_once=at_once)
        socket = socket_for(SEAT_0)
        hub.join("r1", socket)
        hub.deliver("r1", None)  # the facts to read: at_once is not asked
        assert await board(socket) == "seat0@0"
        hub.deliver("r1", 1)
        assert await board(socket) == "seat0@1"
        in_memory["r1"] = True
        hub.deliver("r1", 2)
        assert await board(socket) == "seat0@2"
        loop_thread = threading.current_thread()
        return [thread is loop_thread for thread in painter.threads], asked

    assert run_async(scenario()) == ([False, False, True], [1, 2])


def test_a_position_is_in_memory_only_at_its_version() -> None:
    room_id = "in-memory-" + "".join(random.choices("abcdef", k=12))
    assert not queries.position_in_memory(room_id, 0)
    positions.positions.put(room_id, positions.Position(0, engine.new_game(), ()))
    assert queries.position_in_memory(room_id, 0)
    assert not queries.position_in_memory(room_id, 1)
    assert not queries.position_in_memory(room_id, 0, "lehavre")


def test_a_painter_draws_a_position_in_memory_without_a_session() -> None:
    room_id = "painted-" + "".join(random.choices("abcdef", k=12))
    state = engine.new_game()
    positions.positions.put(room_id, positions.Position(0, state, ()))
    drawn: list[tuple[object, int | None]] = []

    def no_session() -> object:
        raise AssertionError("a position in memory needs no session")

    def render(view: RoomView, **_: object) -> DrawnBoard:
        drawn.append((view.state, view.viewer_seat))
        return text_board("drawn")

    painter = BoardPainter(cast(Any, no_session), render, presence_timeout=30.0)
    groups = frozenset(BoardGroup.of(v, "en", "http://x") for v in (SEAT_0, SPECTATOR))
    facts, version, boards = painter(room_id, playing_facts(room_id, 0, 1), 0, groups)
    assert (facts.room_id, version, len(boards)) == (room_id, 0, 2)
    assert sorted(drawn, key=str) == [(state, 0), (state, None)]


def test_the_player_to_move_is_drawn_first_then_the_mover_then_the_spectators() -> None:
    groups = [BoardGroup.of(v, "en", "http://x") for v in (SEAT_0, SPECTATOR, SEAT_1)]
    assert sorted(groups, key=lambda g: drawing_order(g, 1)) == [groups[2], groups[0], groups[1]]
    assert sorted(groups, key=lambda g: drawing_order(g, 0)) == [groups[0], groups[2], groups[1]]
    # The game over: the players before the spectators all the same.
    assert sorted(groups, key=lambda g: drawing_order(g, None)) == [groups[0], groups[2], groups[1]]


def test_a_slow_socket_gets_only_the_newest_board() -> None:
    async def scenario() -> tuple[str, bool]:
        painter = FakePainter()
        hub = Hub(asyncio.get_running_loop(), painter)
        slow, fast = socket_for(SEAT_0), socket_for(SEAT_1)
        hub.join("r1", slow)
        hub.join("r1", fast)
        for version in range(1, 6):
            hub.deliver("r1", version)
            assert await board(fast) == f"seat1@{version}"
        newest = await board(slow)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(next_frame(slow), 0.05)
            return newest, True
        return newest, False

    assert run_async(scenario()) == ("seat0@5", False)


def test_a_failed_drawing_is_tried_again() -> None:
    async def scenario() -> str:
        painter = FakePainter()
        painter.fail_next = True
        hub = Hub(asyncio.get_running_loop(), painter)
        socket = socket_for(SEAT_0)
        hub.join("r1", socket)
        hub.deliver("r1", 4)
        return await board(socket)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("app.live.hub.RETRY_DELAY", 0.01)
        assert run_async(scenario()) == "seat0@4"


def test_room_changed_from_a_worker_thread_reaches_the_loop() -> None:
    async def scenario() -> int:
        painter = FakePainter()
        hub = Hub(asyncio.get_running_loop(), painter)
        socket = socket_for(SEAT_0)
        hub.join("r1", socket)
        await asyncio.to_thread(hub.room_changed, "r1", 3)
        assert await board(socket) == "seat0@3"
        hub.leave("r1", socket)
        hub.deliver("r1", 4)
        await asyncio.sleep(0.05)
        return len(painter.calls)

    assert run_async(scenario()) == 1


class StuckWebSocket:
    """A client that stopped reading: sends never finish."""

    def __init__(self) -> None:
        self.closed_with: int | None = None

    async def send_text(self, _html: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int, reason: str = "") -> None:
        self.closed_with = code


def test_a_stuck_client_is_closed_instead_of_holding_the_room(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ws, "SEND_TIMEOUT", 0.05)

    async def scenario() -> tuple[int | None, str]:
        painter = FakePainter()
        hub = Hub(asyncio.get_running_loop(), painter)
        stuck_client = StuckWebSocket()
        stuck = RoomSocket(cast(WebSocket, stuck_client), SEAT_0, lang="en", base_url="http://x")
        other = socket_for(SEAT_1)
        stopped = asyncio.Event()
        sender = ws.Sender(stuck, stopped.set)
        stuck.on_offer = sender.wake
        hub.join("r1", stuck)
        hub.join("r1", other)
        hub.deliver("r1", 1)
        first = await board(other)
        await asyncio.wait_for(stopped.wait(), 5)
        assert sender.task is None
        hub.deliver("r1", 2)
        assert await board(other) == "seat1@2"
        return stuck_client.closed_with, first

    assert run_async(scenario()) == (1013, "seat1@1")


def test_the_api_is_documented_in_openapi(client: TestClient) -> None:
    schema: dict[str, Any] = client.get("/openapi.json").json()
    paths = set(schema["paths"])
    assert {
        "/api/rooms",
        "/api/invites/{invite_token}",
        "/api/rooms/{room_id}",
        "/api/rooms/{room_id}/legal",
        "/api/rooms/{room_id}/moves",
        "/api/rooms/{room_id}/rematch",
        "/api/rooms/{room_id}/chat",
        "/api/rooms/{room_id}/chat/settings",
    } <= paths
    assert client.get("/docs").status_code == 200


@pytest.mark.postgres_only
def test_the_listener_comes_back_after_its_connection_is_cut(postgres_url: str) -> None:
    db = create_engine(postgres_url)

    def sql(statement: str) -> None:
        with db.begin() as connection:
            connection.execute(text(statement))

    async def scenario() -> None:
        painter = FakePainter()
        hub = Hub(asyncio.get_running_loop(), painter)
        socket = socket_for(SEAT_0)
        hub.join("r1", socket)
        listener = asyncio.create_task(hub.listen_postgres(postgres_url, retry_delay=0.1))
        try:
            await asyncio.wait_for(hub.listening.wait(), 10)
            assert await board(socket) == "seat0@0"  # catch-up after (re)connecting
            await asyncio.to_thread(sql, f"NOTIFY {notify.CHANNEL}, 'r1 1'")
            assert await board(socket) == "seat0@1"
            await asyncio.to_thread(
                sql,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE query = 'LISTEN {notify.CHANNEL}' AND pid <> pg_backend_pid() "
                "AND datname = current_database()",
            )
            drawn = len(painter.calls)
            async with asyncio.timeout(10):  # the catch-up after reconnecting (the same board:
                while len(painter.calls) == drawn:  # the socket shows it already)
                    await asyncio.sleep(0.01)
            await asyncio.to_thread(sql, f"NOTIFY {notify.CHANNEL}, 'r1 2'")
            assert await board(socket) == "seat0@2"
        finally:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener

    try:
        run_async(scenario())
    finally:
        db.dispose()


def random_game(moves: int, seed: int = 7) -> list[tuple[int, engine.Move]]:
    rng = random.Random(seed)
    state, played = engine.new_game(), []
    for _ in range(moves):
        seat = state.to_move
        assert seat is not None
        move = rng.choice(engine.legal_moves(state))
        played.append((seat, move))
        state = engine.apply(state, move)
    return played


def test_a_notified_move_advances_the_cached_position_as_a_replay_would() -> None:
    room_id = "notified-room"
    positions.positions.put(room_id, positions.Position(0, engine.new_game(), ()))
    played = random_game(30)
    for version, (seat, move) in enumerate(played, start=1):
        assert positions.remember_move(room_id, version, seat, engine.canonical(move))
    cached = positions.positions.get(room_id)
    assert cached is not None and cached.version == 30
    assert engine.summary(cached.state) == engine.summary(engine.replay(m for _s, m in played))
    assert [entry.seat for entry in cached.log] == [seat for seat, _m in played]
    assert [entry.seq for entry in cached.log] == list(range(30))
    # A gap (a notification missed) leaves the cache alone: the next read replays the log.
    assert not positions.remember_move(room_id, 32, 0, engine.canonical(played[0][1]))
    assert positions.positions.get(room_id) is cached


def test_the_notify_payload_reads_back_as_it_was_written() -> None:
    assert notify.decode(notify.encode("r1", 7, (1, '{"type":"pass"}'))) == notify.Notification(
        "r1", 7, (1, '{"type":"pass"}')
    )
    assert notify.decode(notify.encode("r1", 7)) == notify.Notification("r1", 7)
    assert notify.decode(notify.encode("r1", None)) == notify.Notification("r1", None)
    too_long = "x" * notify.MAX_NOTIFIED_MOVE
    assert notify.decode(notify.encode("r1", 3, (0, too_long))) == notify.Notification("r1", 3)
    assert notify.decode("r1 garbage") == notify.Notification("r1", None)


def test_the_listener_follows_a_notified_move_and_wakes_the_room() -> None:
    room_id = "listened-room"
    (seat, move), *_ = random_game(1)

    async def scenario() -> str:
        hub = Hub(asyncio.get_running_loop(), FakePainter())
        socket = socket_for(replace(SEAT_0, room_id=room_id))
        hub.join(room_id, socket)
        positions.positions.put(room_id, positions.Position(0, engine.new_game(), ()))
        hub._on_notify(notify.encode(room_id, 1, (seat, engine.canonical(move))))
        return await board(socket)

    assert run_async(scenario()) == "seat0@1"
    cached = positions.positions.get(room_id)
    assert cached is not None and cached.version == 1


def test_the_listener_follows_a_notified_move_of_le_havre() -> None:
    room_id = "listened-lehavre-room"
    rules = game("lehavre")
    start = rules.start(rules.random_setup(3, "short", 7))
    seat = rules.to_move(start)
    move = rules.canonical(lehavre.canonical(lehavre.legal_moves(start)[0]))

    async def scenario() -> str:
        hub = Hub(asyncio.get_running_loop(), FakePainter())
        socket = socket_for(replace(SEAT_0, room_id=room_id))
        hub.join(room_id, socket)
        games.game_positions.put(room_id, games.GamePosition(0, start, (), game="lehavre"))
        hub._on_notify(notify.encode(room_id, 1, (seat, move)))
        return await board(socket)

    assert run_async(scenario()) == "seat0@1"
    cached = games.game_positions.get(room_id)
    assert cached is not None and cached.version == 1 and cached.game == "lehavre"
    assert cached.state == rules.apply(start, rules.parse(move))
    assert cached.played == ((0, seat, move),) and cached.log[0].move == json.loads(move)


class PartsPainter(FakePainter):
    """Draws a board of two parts: "moves" changes with the version, "seat" never."""

    def draw(self, group: BoardGroup, version: int) -> DrawnBoard:
        return parts_board(group, version)


def parts_board(group: BoardGroup, version: int) -> DrawnBoard:
    parts = {
        "moves": f'<p id="moves">{version}</p>',
        "seat": f'<p id="seat">{group.viewer.seat}</p>',
    }
    hashes = {name: part_hash(html) for name, html in parts.items()}
    attrs = {"version": str(version)}
    return DrawnBoard(
        frame=frame_of(hashes, attrs),
        attrs=attrs,
        parts=parts,
        hashes=hashes,
        pieces=('<div id="board">', "moves", "", "seat", "</div>"),
        shell=1,
    )


def test_a_socket_gets_a_patch_on_top_of_the_board_it_was_sent_and_else_the_whole() -> None:
    async def scenario() -> None:
        painter = PartsPainter()
        hub = Hub(asyncio.get_running_loop(), painter)
        socket = socket_for(SEAT_0)
        hub.join("r1", socket)
        hub.deliver("r1", None)
        assert await board(socket) == '<div id="board"><p id="moves">0</p><p id="seat">0</p></div>'
        hub.deliver("r1", 1)
        patch = await board(socket)
        assert patch.startswith(PATCH_PREFIX) and patch.endswith('--><p id="moves">1</p>')
        # A slow socket: the board of version 2 is never sent, so version 3 comes whole.
        for version in (2, 3):
            hub.deliver("r1", version)
            while len(painter.calls) < version + 1:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)  # the board handed to the socket
        assert (await board(socket)).startswith('<div id="board"><p id="moves">3</p>')
        # The page asks for the whole board: it comes though nothing changed.
        socket.want_whole()
        hub.redraw("r1")
        assert (await board(socket)).startswith('<div id="board"><p id="moves">3</p>')

    run_async(scenario())


class ChangedPartsPainter(PartsPainter):
    """Like `PartsPainter`, but on top of a group's previous board draws only the part that
    changes ("moves"), as `app.live.painters.BoardPainter` does; `during` runs while it draws."""

    def __init__(self) -> None:
        super().__init__()
        self.previous: list[frozenset[BoardGroup]] = []
        self.during: Callable[[], None] | None = None

    def drawn(self, boards: Boards, hand_out: HandOut | None, previous: Previous) -> Boards:
        self.previous.append(frozenset(previous))
        if self.during is not None:
            self.during()
            self.during = None
        return {g: _only_moves(b) if g in previous else b for g, b in boards.items()}


def _only_moves(board: DrawnBoard) -> DrawnBoard:
    return replace(board, parts={"moves": board.parts["moves"]}, pieces=())


def test_only_the_changed_parts_are_drawn_for_a_group_whose_sockets_show_its_last_board() -> None:
    async def scenario() -> None:
        painter = ChangedPartsPainter()
        hub = Hub(asyncio.get_running_loop(), painter)
        socket = socket_for(SEAT_0)
        group = socket.group
        hub.join("r1", socket)
        hub.deliver("r1", None)
        assert (await board(socket)).startswith('<div id="board"><p id="moves">0</p>')
        hub.deliver("r1", 1)
        assert (await board(socket)).endswith('--><p id="moves">1</p>')
        assert painter.previous == [frozenset(), frozenset({group})]
        # The page asks for the whole board: the group is drawn whole.
        socket.want_whole()
        hub.redraw("r1")
        assert (await board(socket)).startswith('<div id="board"><p id="moves">1</p>')
        assert painter.previous[-1] == frozenset()
        # The page asks while the boards are drawn: drawn again, whole.
        hub.deliver("r1", 2)
        assert (await board(socket)).endswith('--><p id="moves">2</p>')
        painter.during = socket.want_whole
        hub.deliver("r1", 3)
        assert (await board(socket)).startswith('<div id="board"><p id="moves">3</p>')
        assert painter.previous[-2:] == [frozenset({group}), frozenset()]

    run_async(scenario())
