"""A flood of strong-computer rooms, and how long the other rooms' computer moves wait meanwhile.

Each round opens `--strong` rooms where the strong computer moves first (each move thinks for its
1 s budget), then, 0.2 s later, one room each with the normal and the easy computer moving first,
and measures the time from opening a room until the computer's first move is in its log. Then it
waits until every strong room has moved, and records each strong room's wait by its place in
the flood. Results in docs/performance.md.

    .venv/bin/python bench/computer_flood.py                      # starts `python -m app` itself
    .venv/bin/python bench/computer_flood.py --strong 15 --rounds 5
    .venv/bin/python bench/computer_flood.py --url http://127.0.0.1:8000   # a running server

A running server must allow the rooms: start it with ROOMS_PER_MINUTE=0.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from appserver import AppServer

POLL_S = 0.01
TIMEOUT_S = 120.0


def open_room(http: httpx.Client, level: str) -> tuple[str, str, float]:
    """A room where the computer at `level` moves first: (room, token, when it was opened)."""
    response = http.post("/api/rooms", json={"host_seat": 1, "computer": level})
    response.raise_for_status()
    body = response.json()
    return body["room"], body["token"], time.monotonic()


def moved(http: httpx.Client, room: str, token: str) -> bool:
    response = http.get(f"/api/rooms/{room}", headers={"Authorization": f"Bearer {token}"})
    response.raise_for_status()
    version: int = response.json()["version"]
    return version >= 1


def wait_moved(http: httpx.Client, room: str, token: str, opened: float) -> float:
    """Seconds from opening the room until the computer's first move is stored."""
    return wait_all(http, [(room, token, opened)])[0]


def wait_all(http: httpx.Client, rooms: list[tuple[str, str, float]]) -> list[float]:
    """For each room, the seconds from its opening until the computer's first move is stored."""
    waits: dict[str, float] = {}
    while len(waits) < len(rooms):
        for room, token, opened in rooms:
            if room not in waits and moved(http, room, token):
                waits[room] = time.monotonic() - opened
        if time.monotonic() - rooms[0][2] > TIMEOUT_S:
            raise RuntimeError(f"no computer move in {TIMEOUT_S} s")
        time.sleep(POLL_S)
    return [waits[room] for room, _token, _opened in rooms]


def one_round(http: httpx.Client, strong: int) -> tuple[float, float, list[float]]:
    """(normal wait, easy wait, each strong room's wait in the order they were opened)."""
    flood = [open_room(http, "strong") for _ in range(strong)]
    time.sleep(0.2)
    quick = [open_room(http, "normal"), open_room(http, "easy")]
    # The quick rooms are polled first in every sweep: their times are the most precise.
    waits = wait_all(http, quick + flood)
    return waits[0], waits[1], waits[2:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--strong", type=int, default=15, help="strong rooms per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--url", help="a running server (else one is started)")
    args = parser.parse_args()

    server = None
    url = args.url
    if url is None:
        data = Path(tempfile.mkdtemp(prefix="computer-flood-"))
        server = AppServer(data, env={"ROOMS_PER_MINUTE": "0"})
        server.start()
        url = server.url
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            # Warm up: the bot processes start on first use.
            for level in ("normal", "strong"):
                wait_moved(http, *open_room(http, level))
            normals, easies, strongs = [], [], []
            for number in range(args.rounds):
                normal, easy, strong = one_round(http, args.strong)
                normals.append(normal)
                easies.append(easy)
                strongs.append(strong)
                print(
                    f"round {number + 1}: normal {normal:.2f} s, easy {easy:.2f} s, strong "
                    f"first {strong[0]:.2f} s, last {strong[-1]:.2f} s",
                    flush=True,
                )
    finally:
        if server is not None:
            server.stop()
    load = os.getloadavg()
    print(
        f"machine: {os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    )
    print(f"{args.strong} strong rooms per round, {args.rounds} rounds")
    print(f"normal move wait: median {statistics.median(normals):.2f} s, max {max(normals):.2f} s")
    print(f"easy move wait:   median {statistics.median(easies):.2f} s, max {max(easies):.2f} s")
    for place in sorted({0, len(strongs[0]) // 2, len(strongs[0]) - 1}):
        waits = [strong[place] for strong in strongs]
        print(f"strong room #{place + 1} wait: median {statistics.median(waits):.2f} s")


if __name__ == "__main__":
    main()
