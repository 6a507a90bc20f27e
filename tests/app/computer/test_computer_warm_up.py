"""The computer's lanes are warmed at start: the bot processes are started and have thought once
before the first computer move, which then runs in one of them instead of starting its own."""

from __future__ import annotations

import os
import time

import pytest
from fastapi.testclient import TestClient
from support.coroutines import run_async
from support.rooms import bearer

from app.computer.bots import warm_up
from app.computer.lanes import Lanes
from app.main import create_app
from app.settings import Settings

WAIT_S = 120.0


def test_the_first_moves_run_in_the_workers_the_warm_up_started() -> None:
    async def scenario() -> tuple[dict[str, list[int]], dict[str, int]]:
        lanes = Lanes(lambda rooms: None, strong_workers=1)
        try:
            warmed = await lanes.warm_up(warm_up)
            first = {
                level: await lanes.run(level, f"room-{level}", os.getpid)
                for level in ("easy", "normal", "strong")
            }
        finally:
            await lanes.close()
        return warmed, first

    warmed, first = run_async(scenario())
    # The easy bot thinks in a worker thread of the server's own process.
    assert warmed["easy"] == [os.getpid()] and first["easy"] == os.getpid()
    # The normal and strong lanes each started their bot process at the warm-up, and their
    # first move ran there.
    for level in ("normal", "strong"):
        assert len(warmed[level]) == 1 and os.getpid() not in warmed[level]
        assert first[level] in warmed[level]
    assert warmed["normal"] != warmed["strong"]


@pytest.mark.parametrize("warm", [True, False])
def test_the_server_warms_the_lanes_at_start_unless_told_not_to(
    warm: bool, settings: Settings
) -> None:
    app = create_app(settings.model_copy(update={"computer_warm_up": warm}))
    with TestClient(app) as client:
        computer = app.state.computer
        if warm:
            task = computer.warming
            assert task is not None
            deadline = time.monotonic() + WAIT_S
            while not task.done():
                assert time.monotonic() < deadline, "the warm-up never ended"
                time.sleep(0.05)
            pids = task.result()
            assert set(pids) == {"easy", "normal", "strong"}
            assert all(pids[level] for level in pids)
        else:
            assert computer.warming is None
        # The computer plays as before: it makes the first move of a room where it starts.
        created = client.post("/api/rooms", json={"host_seat": 1, "computer": "normal"}).json()
        deadline = time.monotonic() + WAIT_S
        while (
            client.get(f"/api/rooms/{created['room']}", headers=bearer(created["token"])).json()[
                "version"
            ]
            < 1
        ):
            assert time.monotonic() < deadline, "the computer never moved"
            time.sleep(0.02)
