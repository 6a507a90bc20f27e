"""Load test: many rooms, two players and a spectator each, moving at a set pace over real sockets.

For every move it measures the time from sending ``POST /api/rooms/{id}/moves`` (or, with
``--via page``, the page's form post ``POST /rooms/{id}/moves`` as a browser sends it: the room's
cookie, a form body, gzip accepted) until **all three** WebSockets of the room (both players and
the spectator) hold a board with the new version.

The players choose their moves as a browser does: from what they already know (a browser gets
the legal moves inside the board; this client follows each room's game with the rules engine).
So each move is one HTTP request. ``--fetch-legal`` instead fetches the room and its legal moves
over HTTP before every move (three requests per move). At the end
it compares every acknowledged move with the room's move log (a move acknowledged but missing is
*lost*; must be 0) and reports latency percentiles, moves per second, errors, the server
processes' CPU time and peak memory, and the CPU time of this client itself (it runs on the same
machine, so its share is CPU the servers did not have).

    .venv/bin/python bench/load.py --rooms 100 --interval 10 --duration 60 --db postgres --processes 2
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --rooms 50     # a running server
    .venv/bin/python bench/load.py --db postgres --processes 2 --rooms 200 --against-baseline

With two processes a room's host and spectator use one process and the other player the other
one, so every move crosses between them (``--spread players``); ``--spread rooms`` keeps each room
on one process, as the deployment's proxy routes a room's requests (deploy/Caddyfile), the rooms
spread over both.

``--against-baseline`` runs the same load first on ``bench/baseline.py`` (a bare server on the same
stack: a durable transaction and a fixed board per move, no game) and then on the app, each with a
fresh database, and ends with one line ``ratio cpu_per_move X p50 Y p99 Z``: the app's figures
divided by the baseline's. ``--server baseline`` runs the baseline alone.

By default it starts the server itself (``python -m app``) on free loopback ports, against a fresh
SQLite file or a fresh PostgreSQL database (``--db postgres``; created with createdb and dropped
afterwards), with one or two processes. Traffic goes only to 127.0.0.1. The servers' logs go to a
temporary directory removed at the end; ``--keep-logs DIR`` copies them to DIR first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_client import (
    Results,
    client_cpu_seconds,
    collector_paused,
    count_lost,
    create_room,
    play,
    wait_connected,
    watch,
    with_retries,
)
from load_servers import COMMANDS, Server, start_servers, stop_servers


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


async def run(args: argparse.Namespace, servers: list[Server]) -> dict[str, object]:
    rng = random.Random(args.seed)
    limits = httpx.Limits(max_connections=args.http_connections, max_keepalive_connections=200)
    # The players' JSON calls ask for no compression: the figures are the server's own work.
    headers = {"Accept-Encoding": "identity"}
    async with httpx.AsyncClient(timeout=60, limits=limits, headers=headers) as client:
        memory_before = sum(s.memory_kib("VmRSS") for s in servers)
        rooms = []
        for start in range(0, args.rooms, 50):
            batch = range(start, min(args.rooms, start + 50))
            rooms.extend(
                await asyncio.gather(
                    *(
                        with_retries(partial(create_room, client, servers, i, args.spread))
                        for i in batch
                    )
                )
            )
        memory_rooms = sum(s.memory_kib("VmRSS") for s in servers)

        stop = asyncio.Event()
        watchers = []
        for room in rooms:
            for slot, token in enumerate((*room.tokens, room.spectator)):
                watchers.append(
                    asyncio.create_task(watch(room, slot, token, room.servers[slot], stop))
                )
        await wait_connected(rooms, timeout=120)
        with collector_paused():
            await asyncio.sleep(1)
            memory_sockets = sum(s.memory_kib("VmRSS") for s in servers)

            results = Results()
            cpu_before = [s.cpu_seconds() for s in servers]
            client_before = client_cpu_seconds()
            started = time.monotonic()
            players = [
                asyncio.create_task(
                    play(
                        room,
                        args.interval,
                        stop,
                        results,
                        random.Random(rng.random()),
                        args.fetch_legal,
                        args.via,
                    )
                )
                for room in rooms
            ]
            await asyncio.sleep(args.duration)
            stop.set()
            await asyncio.gather(*players, return_exceptions=True)
        for room in rooms:
            for link in room.links.values():
                link.close()
        elapsed = time.monotonic() - started
        cpu = [s.cpu_seconds() - b for s, b in zip(servers, cpu_before, strict=True)]
        client_cpu = client_cpu_seconds() - client_before
        for task in watchers:
            task.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        lost, mismatched = await count_lost(client, rooms)

    latencies = results.latencies_ms
    sockets = 3 * len(rooms)
    return {
        "rooms": len(rooms),
        "sockets": sockets,
        "processes": len(servers),
        "interval_s": args.interval,
        "requests_per_move": 3 if args.fetch_legal else 1,
        "via": args.via,
        "spread": args.spread,
        "duration_s": round(elapsed, 1),
        "moves": results.moves,
        "moves_per_s": round(results.moves / elapsed, 1),
        "p50_ms": round(percentile(latencies, 50), 1),
        "p95_ms": round(percentile(latencies, 95), 1),
        "p99_ms": round(percentile(latencies, 99), 1),
        "mean_ms": round(statistics.fmean(latencies), 1) if latencies else None,
        "errors": results.errors,
        "lost": lost,
        "mismatched": mismatched,
        "server_cpu_s": [round(c, 1) for c in cpu],
        "server_cpu_percent": [round(100 * c / elapsed, 1) for c in cpu],
        "server_cpu_ms_per_move": round(1000 * sum(cpu) / max(1, results.moves), 1),
        "client_cpu_s": round(client_cpu, 2),
        "client_cpu_percent": round(100 * client_cpu / elapsed, 1),
        "peak_memory_mib": [round(s.memory_kib("VmHWM") / 1024, 1) for s in servers],
        "memory_per_room_kib": round((memory_rooms - memory_before) / max(1, len(rooms)), 1),
        "memory_per_socket_kib": round((memory_sockets - memory_rooms) / max(1, sockets), 1),
    }


def measure(args: argparse.Namespace, kind: str | None) -> dict[str, object]:
    """One run against `kind` of server ("app", "baseline") started here with a fresh database,
    or (None) against the running server at ``--url``."""
    workdir = Path(tempfile.mkdtemp(prefix="inland-load-"))
    database = None
    servers: list[Server] = []
    try:
        if kind is None:
            servers = [Server(url=args.url.rstrip("/"))]
        else:
            if args.db == "postgres":
                database = f"inlandport_load_{os.getpid()}_{kind}"
                subprocess.run(
                    ["createdb", "-h", "127.0.0.1", "-U", "postgres", database], check=True
                )
                url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{database}"
            else:
                url = f"sqlite:///{workdir / 'load.sqlite3'}"
            servers = start_servers(url, args.processes, workdir, kind)
        result = asyncio.run(run(args, servers))
        result["server"] = kind or "external"
        result["db"] = "external" if kind is None else args.db
        result["load_average"] = round(os.getloadavg()[0], 2)
        return result
    finally:
        stop_servers(servers)
        if args.keep_logs:
            keep = Path(args.keep_logs)
            keep.mkdir(parents=True, exist_ok=True)
            for log in workdir.glob("server-*.log"):
                shutil.copy(log, keep / f"{kind or 'external'}-{log.name}")
        if database:
            subprocess.run(
                ["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", database],
                check=False,
            )
        shutil.rmtree(workdir, ignore_errors=True)


def ratio_line(app: dict[str, object], baseline: dict[str, object]) -> str:
    """``ratio cpu_per_move X p50 Y p99 Z``: the app's figures divided by the baseline's."""

    def ratio(key: str) -> str:
        mine, bare = float(app[key]), float(baseline[key])  # type: ignore[arg-type]
        return f"{mine / bare:.2f}" if bare > 0 else "nan"

    return (
        f"ratio cpu_per_move {ratio('server_cpu_ms_per_move')} "
        f"p50 {ratio('p50_ms')} p99 {ratio('p99_ms')}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="target a running server instead of starting one")
    parser.add_argument(
        "--server", choices=sorted(COMMANDS), default="app", help="which server to start"
    )
    parser.add_argument(
        "--against-baseline",
        action="store_true",
        help="run the load on bench/baseline.py, then on the app, and print their ratio last",
    )
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--processes", type=int, default=1, choices=[1, 2])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument(
        "--spread",
        choices=["players", "rooms"],
        default="players",
        help="with two processes: a room's two players on different processes (each move "
        "crosses between them), or each room whole on one process (as deploy/Caddyfile "
        "routes a room's requests)",
    )
    parser.add_argument(
        "--interval", type=float, default=10.0, help="seconds between moves per room"
    )
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--http-connections", type=int, default=400)
    parser.add_argument(
        "--via",
        choices=["api", "page"],
        default="api",
        help="post moves to the JSON API, or as the room's page does (form, cookie, gzip)",
    )
    parser.add_argument(
        "--fetch-legal",
        action="store_true",
        help="GET the room and its legal moves before every move (3 requests per move)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as one JSON line")
    parser.add_argument(
        "--keep-logs", metavar="DIR", help="copy the servers' logs (stderr) to DIR at the end"
    )
    args = parser.parse_args()
    if args.url and args.against_baseline:
        parser.error("--against-baseline starts both servers itself: no --url")
    baseline_runs = args.against_baseline or (args.server == "baseline" and not args.url)
    if args.fetch_legal and baseline_runs:
        parser.error("the baseline knows no legal moves: no --fetch-legal")

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(
        resource.RLIMIT_NOFILE, (hard, hard)
    )  # thousands of sockets, here and in the servers

    if not args.against_baseline:
        result = measure(args, None if args.url else args.server)
        if args.json:
            print(json.dumps(result))
        else:
            for key, value in result.items():
                print(f"{key:>22}: {value}")
        return 0 if result["lost"] == 0 and result["mismatched"] == 0 else 1

    results = {kind: measure(args, kind) for kind in ("baseline", "app")}
    if args.json:
        print(json.dumps(results))
    else:
        print(f"{'':>22}  {'baseline':<28}  app")
        for key in results["app"]:
            print(f"{key:>22}: {results['baseline'][key]!s:<28}  {results['app'][key]}")
    print(ratio_line(results["app"], results["baseline"]))
    clean = all(r["lost"] == 0 and r["mismatched"] == 0 for r in results.values())
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
