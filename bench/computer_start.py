"""The computer's first move after a server start, with and without warming its lanes at start.

For each setting of COMPUTER_WARM_UP (on, off) and each strength (easy, normal) it starts a fresh
server (`python -m app`, its own SQLite file) `--starts` times. After each start (once /healthz
answers and `--settle` seconds more: a first visitor rarely comes the very instant a server is
up) it opens a room where the computer moves first and times, from sending `POST /api/rooms`,
until the computer's turn is over (the room says the human is to move); the time the `POST`
itself took (the server's first request) is shown too. Then the human makes
`--later` random legal moves and each of the computer's answers is timed the same way, from
sending the human's move that ends the human's turn. It prints the medians: the first move over the starts, and the later
moves over every later move of every start.

    .venv/bin/python bench/computer_start.py                          # 3 starts each
    .venv/bin/python bench/computer_start.py --starts 5 --settle 0 --json

Only loopback traffic; each server is stopped before the next one starts.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.appserver import AppServer

POLL_S = 0.005
WAIT_S = 60.0


def computers_turn_over(client: httpx.Client, room: str, token: str, after: int) -> int:
    """Wait until the room is past version `after` and the human (seat 1) is to move again, or
    the game is over; the room's version then."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        body = client.get(f"/api/rooms/{room}", headers={"Authorization": f"Bearer {token}"})
        answer = body.raise_for_status().json()
        summary = answer["summary"]
        if answer["version"] > after and (summary["to_move"] == 1 or summary["finished"]):
            return int(answer["version"])
        time.sleep(POLL_S)
    raise RuntimeError(f"the computer did not finish its turn in room {room} within {WAIT_S} s")


def one_start(
    level: str, warm: bool, settle: float, later: int, rng: random.Random
) -> dict[str, Any]:
    """Start a server, time the computer's first turn and `later` turns after it."""
    with tempfile.TemporaryDirectory(prefix="inland-computer-start-") as data_dir:
        server = AppServer(
            Path(data_dir),
            env={"COMPUTER_WARM_UP": "true" if warm else "false", "ROOMS_PER_MINUTE": "0"},
        )
        server.start()
        try:
            time.sleep(settle)
            with httpx.Client(base_url=server.url, timeout=60) as client:
                started = time.perf_counter()
                created = client.post("/api/rooms", json={"host_seat": 1, "computer": level})
                create = 1000 * (time.perf_counter() - started)
                room, token = created.json()["room"], created.json()["token"]
                version = computers_turn_over(client, room, token, 0)
                first = 1000 * (time.perf_counter() - started)
                turns: list[float] = []
                headers = {"Authorization": f"Bearer {token}"}
                while len(turns) < later:
                    legal = client.get(f"/api/rooms/{room}/legal", headers=headers).json()
                    if not legal["moves"]:
                        break
                    body = {
                        "move": rng.choice(legal["moves"]),
                        "version": version,
                        "client_move_id": f"bench-{version}",
                    }
                    started = time.perf_counter()
                    moved = client.post(f"/api/rooms/{room}/moves", json=body, headers=headers)
                    answer = moved.raise_for_status().json()
                    version = answer["version"]
                    if answer["summary"]["to_move"] != 0:  # a sell: the human's turn goes on
                        continue
                    version = computers_turn_over(client, room, token, version)
                    turns.append(1000 * (time.perf_counter() - started))
        finally:
            server.stop()
    return {"first_ms": first, "create_ms": create, "later_ms": turns}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--starts", type=int, default=3, help="server starts per case")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds after /healthz")
    parser.add_argument("--later", type=int, default=3, help="computer turns timed after the first")
    parser.add_argument("--levels", default="easy,normal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the result as one JSON line")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results = []
    for warm in (True, False):
        for level in args.levels.split(","):
            runs = [
                one_start(level, warm, args.settle, args.later, rng) for _ in range(args.starts)
            ]
            later = [ms for run in runs for ms in run["later_ms"]]
            results.append(
                {
                    "warm_up": warm,
                    "level": level,
                    "starts": args.starts,
                    "settle_s": args.settle,
                    "first_ms_median": round(statistics.median(r["first_ms"] for r in runs), 1),
                    "first_ms": [round(r["first_ms"], 1) for r in runs],
                    "create_ms_median": round(statistics.median(r["create_ms"] for r in runs), 1),
                    "later_ms_median": round(statistics.median(later), 1) if later else None,
                }
            )
    if args.json:
        print(json.dumps(results))
    else:
        for row in results:
            print(
                f"warm_up={'on ' if row['warm_up'] else 'off'} {row['level']:>6}: "
                f"first move {row['first_ms_median']:>7} ms (median of {row['starts']}: "
                f"{row['first_ms']}; of which opening the room {row['create_ms_median']} ms), "
                f"later moves {row['later_ms_median']} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
