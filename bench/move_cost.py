"""What one Inland Port move costs the server, counted in instructions or profiled, not timed.

Starts one `python -m app` (SQLite, or PostgreSQL with `--database-url`), opens `--rooms` rooms
of two players and a spectator on real WebSockets (bench/load_client.py), then plays `--moves`
seeded random moves in each room one at a time, each posted as the room's page posts it and
waited for until all three sockets hold the new version. One move in flight at a time: every
move draws the same boards in every run, so two builds compare move for move.

    .venv/bin/python bench/move_cost.py --callgrind          # instructions per move (valgrind)
    .venv/bin/python bench/move_cost.py --profile /tmp/p.out # cProfile of every server thread
    .venv/bin/python bench/move_cost.py --callgrind --server baseline  # the bare server's count

`--server baseline` makes the same seeded choices on bench/baseline.py (the same stack doing the
least a correct server must do), so that the app's count divided by it is a ratio no busy machine
moves (both play the app's default numbers for new rooms, so the moves are the same).
`--profile` profiles the app.

With `--callgrind` the server runs under `valgrind --tool=callgrind` with the instrumentation
off until the rooms are open and their first boards sent; it counts the server process's
instructions over the moves only (all its threads; PostgreSQL's backends and the computer's bot
processes are not counted). `--profile` runs the server with a cProfile in each thread
(bench/profiled_server.py) and writes their sum over the moves to the file (`python -m pstats`).

    .venv/bin/python bench/move_cost.py --callgrind --game lehavre   # Le Havre rooms instead

With `--game lehavre` each room has four seats and a spectator (bench/load_lehavre_client.py):
the seat to move asks `GET /api/rooms/{id}/legal`, posts one of those moves at random (seeded)
through the JSON API and waits until all five sockets hold the new version. The rooms' setups
are dealt from `--seed` (bench/seeded_setups.py), so every run plays the same games.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import load_lehavre_client
from load_client import Results, create_room, one_move, wait_connected, watch
from load_servers import COMMANDS, Server, free_port

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TOTALS = re.compile(r"^(?:summary|totals): (\d+)", re.MULTILINE)


def server_command(args: argparse.Namespace, out: Path) -> list[str]:
    if args.profile:
        return [sys.executable, str(HERE / "profiled_server.py"), args.profile]
    command = COMMANDS[args.server]
    if args.callgrind:
        options = ["--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"]
        return ["valgrind", *options, *command]
    return command


def start(args: argparse.Namespace, workdir: Path) -> Server:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": args.database_url or f"sqlite:///{workdir / 'bench.db'}",
        "DATA_DIR": str(workdir),
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "ROOMS_PER_MINUTE": "0",
        "SOCKETS_PER_ADDRESS": "0",
    }
    log = (workdir / "server.log").open("wb")
    command = server_command(args, workdir / "callgrind.out")
    if args.game == "lehavre":
        command = dealt_alike(command, args.seed)
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    server = Server(url=f"http://127.0.0.1:{port}", process=process)
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError((workdir / "server.log").read_text()[-3000:])
        try:
            if httpx.get(server.url + "/healthz", timeout=5).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError("the server did not become healthy")


def callgrind(pid: int, *options: str) -> None:
    # valgrind names its control pipes after $USER and $HOST: the server's HOST is 127.0.0.1.
    env = {**os.environ, "HOST": "127.0.0.1"}
    command = ["callgrind_control", *options, str(pid)]
    subprocess.run(command, check=True, capture_output=True, env=env)


async def play(args: argparse.Namespace, server: Server) -> Results:
    async with httpx.AsyncClient(timeout=600) as client:
        rooms = [await create_room(client, [server], i) for i in range(args.rooms)]
    stop = asyncio.Event()
    watchers = [
        asyncio.create_task(watch(room, slot, token, server.url, stop))
        for room in rooms
        for slot, token in enumerate((*room.tokens, room.spectator))
    ]
    results = Results()

    async def move(room: Any, rng: random.Random) -> None:
        await one_move(room, results, rng, False, "page")

    results.cpu_s = await measured(args, server, rooms, move)  # type: ignore[attr-defined]
    await stopped(watchers, stop)
    return results


async def measured(
    args: argparse.Namespace,
    server: Server,
    rooms: list[Any],
    move: Callable[[Any, random.Random], Awaitable[None]],
) -> float:
    """Once every room's sockets are open, `move` in each room in turn, `--moves` times, each room
    with its own seeded random; the server's instrumentation (or profile) on over the moves only.
    The CPU seconds the server used meanwhile."""
    await wait_connected(rooms, timeout=900)
    await asyncio.sleep(1.0)  # the first boards' sends are over
    if args.callgrind:
        callgrind(server.process.pid, "--instr=on")  # type: ignore[union-attr]
    if args.profile:
        server.process.send_signal(signal.SIGUSR1)  # type: ignore[union-attr]
    cpu_before = server.cpu_seconds()
    rngs = [random.Random(f"{args.seed} {i}") for i in range(args.rooms)]
    for _ in range(args.moves):
        for room, rng in zip(rooms, rngs, strict=True):
            await move(room, rng)
    cpu = server.cpu_seconds() - cpu_before
    if args.callgrind:
        callgrind(server.process.pid, "--dump")  # type: ignore[union-attr]
        callgrind(server.process.pid, "--instr=off")  # type: ignore[union-attr]
    return cpu


async def stopped(watchers: list[asyncio.Task[Any]], stop: asyncio.Event) -> None:
    stop.set()
    for task in watchers:
        task.cancel()
    await asyncio.gather(*watchers, return_exceptions=True)


def dealt_alike(command: list[str], seed: str) -> list[str]:
    """The server's command with the rooms' setups dealt from `seed` (bench/seeded_setups.py):
    the same Le Havre games in every run."""
    at = command.index(sys.executable) + 1
    return [*command[:at], str(HERE / "seeded_setups.py"), seed, *command[at:]]


async def play_lehavre(args: argparse.Namespace, server: Server) -> Results:
    """`play` for Le Havre rooms: four seats and a spectator, each move asked for and posted
    over the JSON API as bench/load_lehavre_client.py plays it."""
    async with httpx.AsyncClient(timeout=600) as client:
        rooms = [
            await load_lehavre_client.create_room(client, [server], i) for i in range(args.rooms)
        ]
    stop = asyncio.Event()
    watchers = [
        asyncio.create_task(watcher)
        for room in rooms
        for watcher in load_lehavre_client.watchers(room, stop)
    ]
    results = load_lehavre_client.Results()

    async def move(room: Any, rng: random.Random) -> None:
        if room.current is not None:  # the game is not over
            await load_lehavre_client.one_move(room, results, rng)

    results.cpu_s = await measured(args, server, rooms, move)  # type: ignore[attr-defined]
    await stopped(watchers, stop)
    return results


def instructions(workdir: Path) -> int:
    dumps = sorted(workdir.glob("callgrind.out.*"))
    found = TOTALS.search(dumps[-1].read_text(errors="replace")) if dumps else None
    if found is None:
        raise RuntimeError("no callgrind dump with totals")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=3)
    parser.add_argument("--moves", type=int, default=20, help="moves per room")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--database-url", help="an empty PostgreSQL database (default: SQLite)")
    parser.add_argument(
        "--server", choices=("app", "baseline"), default="app", help="baseline: bench/baseline.py"
    )
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--profile", metavar="FILE")
    parser.add_argument("--keep", metavar="FILE", help="with --callgrind: keep the dump here")
    parser.add_argument("--game", choices=("inlandport", "lehavre"), default="inlandport")
    args = parser.parse_args()
    if args.game == "lehavre" and args.server != "app":
        parser.error("--game lehavre plays the app only")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        server = start(args, workdir)
        try:
            playing = play_lehavre if args.game == "lehavre" else play
            results = asyncio.run(playing(args, server))
        finally:
            server.process.terminate()  # type: ignore[union-attr]
            server.process.wait(timeout=120)  # type: ignore[union-attr]
        cpu_ms = 1000 * results.cpu_s / max(1, results.moves)  # type: ignore[attr-defined]
        print(f"moves {results.moves} errors {results.errors or 0} cpu {cpu_ms:.2f} ms per move")
        if args.callgrind and results.moves:
            total = instructions(workdir)
            if args.keep:
                shutil.copy(sorted(workdir.glob("callgrind.out.*"))[-1], args.keep)
            print(f"instructions {total} per move {total / results.moves / 1e6:.2f} M")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
