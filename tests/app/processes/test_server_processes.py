"""Real server processes: SIGKILL durability, two processes on one PostgreSQL room, chaos."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from support.boards import board_version, is_board
from support.rooms import first_action, new_room, post_move
from websockets.sync.client import ClientConnection, connect

from bench.appserver import ROOT, AppServer

pytestmark = pytest.mark.slow


@pytest.fixture
def servers(database_url: str, tmp_path: Path) -> Iterator[list[AppServer]]:
    started: list[AppServer] = []
    yield started
    for server in started:
        server.stop()


def start(servers: list[AppServer], database_url: str, tmp_path: Path) -> AppServer:
    server = AppServer(tmp_path, database_url=database_url)
    servers.append(server)
    server.start()
    return server


def api(
    http: httpx.Client, method: str, url: str, token: str | None = None, body: Any = None
) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = http.request(method, url, json=body, headers=headers)
    assert response.status_code < 300, response.text
    return response.json()


def move(http: httpx.Client, base: str, room: dict[str, Any], version: int) -> dict[str, Any]:
    """The seat to move plays its first action (sells last); returns the move."""
    state = api(http, "GET", f"{base}/api/rooms/{room['room']}", room["spectator"])
    token = room["tokens"][state["summary"]["to_move"]]
    chosen, _ = first_action(http, room["room"], token, base=base)
    answer = post_move(http, room["room"], token, chosen, version, base=base)
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] == version + 1
    return chosen


def test_sigkill_loses_no_acknowledged_move(
    servers: list[AppServer], database_url: str, tmp_path: Path
) -> None:
    server = start(servers, database_url, tmp_path)
    with httpx.Client(timeout=10) as http:
        room = new_room(http, base=server.url)
        acknowledged = [move(http, server.url, room, version) for version in range(12)]
        server.kill()
        server.start()
        log = api(http, "GET", f"{server.url}/api/rooms/{room['room']}/moves", room["spectator"])
        assert [m["move"] for m in log["moves"]] == acknowledged
        state = api(http, "GET", f"{server.url}/api/rooms/{room['room']}", room["tokens"][0])
        assert state["version"] == 12
        # the game goes on from the same position
        acknowledged += [move(http, server.url, room, version) for version in range(12, 16)]
        log = api(http, "GET", f"{server.url}/api/rooms/{room['room']}/moves", room["spectator"])
        assert [m["move"] for m in log["moves"]] == acknowledged


def next_version(ws: ClientConnection, at_least: int) -> int:
    """Read boards until one has at least this version."""
    while True:
        frame = ws.recv(timeout=10)
        assert isinstance(frame, str)
        if not is_board(frame):
            continue
        version = board_version(frame)
        if version >= at_least:
            return version


@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
def test_two_processes_serve_one_room_through_listen_notify(
    servers: list[AppServer], database_url: str, tmp_path: Path
) -> None:
    first = start(servers, database_url, tmp_path)
    second = start(servers, database_url, tmp_path)
    with httpx.Client(timeout=10) as http:
        room = new_room(http, base=first.url, guest_base=second.url)
        ws_url = "ws://127.0.0.1:{port}/ws/rooms/{room}?token={token}"
        with (
            connect(
                ws_url.format(port=first.port, room=room["room"], token=room["tokens"][0])
            ) as a,
            connect(
                ws_url.format(port=second.port, room=room["room"], token=room["tokens"][1])
            ) as b,
        ):
            assert next_version(a, 0) == 0 and next_version(b, 0) == 0
            state = api(http, "GET", f"{first.url}/api/rooms/{room['room']}", room["spectator"])
            assert state["online"] == [True, True]  # presence across processes
            for version in range(8):
                # seat 0 moves through the first process, seat 1 through the second
                base = first.url if version % 2 == 0 else second.url
                move(http, base, room, version)
                assert next_version(a, version + 1) == version + 1
                assert next_version(b, version + 1) == version + 1


def test_chaos_with_three_kills(database_url: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "chaos.py"),
            "--kills=3",
            "--games=2",
            "--players=2",
            f"--database-url={database_url}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["kills"] == 3 and report["games_finished"] >= 2
    assert report["lost"] == report["doubled"] == report["unfinished"] == 0
