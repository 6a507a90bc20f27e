"""The computer's lanes: strong searches queue in order, quick moves never wait behind them."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from fastapi.testclient import TestClient
from support.coroutines import run_async
from support.rooms import bearer

from app.computer.lanes import Lane, Lanes, games_ahead

WAIT_S = 60.0


def test_a_lane_serves_rooms_in_order_and_tells_their_places() -> None:
    gates = {room: threading.Event() for room in ("a", "b", "c")}
    moved: list[list[str]] = []

    async def scenario() -> list[str]:
        lane = Lane(workers=1, processes=False, on_moved=moved.append)
        done: list[str] = []

        async def play(room: str) -> None:
            done.append(await lane.run(room, lambda: gates[room].wait(10) and room))

        tasks = [asyncio.create_task(play(room)) for room in ("a", "b", "c")]
        await asyncio.sleep(0.05)
        assert (lane.ahead("a"), lane.ahead("b"), lane.ahead("c")) == (None, 1, 2)
        assert (games_ahead("a"), games_ahead("b"), games_ahead("c")) == (0, 1, 2)
        gates["c"].set()  # c is ready, but it waits for its turn
        await asyncio.sleep(0.05)
        assert done == []
        gates["a"].set()
        await asyncio.sleep(0.05)
        assert done == ["a"] and lane.ahead("c") == 1 and games_ahead("c") == 1
        gates["b"].set()
        await asyncio.gather(*tasks)
        return done

    assert run_async(scenario()) == ["a", "b", "c"]
    assert games_ahead("c") == 0
    # Each room that had to wait was redrawn when it joined the queue and when it moved up.
    assert moved == [["b"], ["c"], ["c"]]


def test_a_room_that_stops_waiting_leaves_the_queue() -> None:
    release = threading.Event()

    async def scenario() -> None:
        lane = Lane(workers=1, processes=False, on_moved=lambda rooms: None)
        first = asyncio.create_task(lane.run("a", release.wait, 10))
        second = asyncio.create_task(lane.run("b", release.wait, 10))
        await asyncio.sleep(0.05)
        assert games_ahead("b") == 1
        second.cancel()
        await asyncio.gather(second, return_exceptions=True)
        assert lane.ahead("b") is None and games_ahead("b") == 0
        release.set()
        assert await first is True

    run_async(scenario())


def test_each_strength_has_a_lane_of_its_own() -> None:
    lanes = Lanes(lambda rooms: None, strong_workers=1)
    assert set(lanes.by_level) == {"easy", "normal", "strong"}
    assert lanes.by_level["normal"] is not lanes.by_level["strong"]
    assert lanes.by_level["strong"].workers == 1


def _computer_room(client: TestClient, level: str) -> tuple[str, str]:
    """A room where the computer (at `level`) moves first: (room id, the human's token)."""
    created = client.post("/api/rooms", json={"host_seat": 1, "computer": level}).json()
    return created["room"], created["token"]


def _version(client: TestClient, room: tuple[str, str]) -> int:
    body: dict[str, Any] = client.get(f"/api/rooms/{room[0]}", headers=bearer(room[1])).json()
    version: int = body["version"]
    return version


def _moved_within(client: TestClient, room: tuple[str, str], seconds: float) -> float:
    started = time.monotonic()
    while _version(client, room) < 1:
        assert time.monotonic() - started < WAIT_S, "the computer never moved"
        time.sleep(0.01)
    waited = time.monotonic() - started
    assert waited < seconds, f"the computer's move took {waited:.2f} s"
    return waited


def test_a_flood_of_strong_rooms_delays_no_normal_move(client: TestClient) -> None:
    # The bot processes start on first use: warm both lanes up before measuring.
    _moved_within(client, _computer_room(client, "normal"), WAIT_S)
    _moved_within(client, _computer_room(client, "strong"), WAIT_S)
    strong = [_computer_room(client, "strong") for _ in range(4)]
    time.sleep(0.3)
    # The last strong room waits behind the others, and its table says so.
    last_room, last_token = strong[-1]
    assert games_ahead(last_room) >= 1
    client.get(f"/s/{last_token}")
    table = client.get(f"/rooms/{last_room}").text
    assert "games ahead" in table or "game ahead" in table, table[:2000]
    for level in ("normal", "easy"):
        _moved_within(client, _computer_room(client, level), 1.0)
    # Every strong room gets its move, in its turn.
    for room in strong:
        _moved_within(client, room, WAIT_S)
