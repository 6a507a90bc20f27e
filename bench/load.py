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
processes' CPU time and peak memory, on PostgreSQL the CPU time of the backends serving the
run's database (``db_cpu``; ``cpu_ms_per_move`` is the servers' and their backends' together),
and the CPU time of the load client's processes apart (they run on the same machine, so their
share is CPU the servers did not have).

The rooms are played from one client process per ``--rooms-per-client`` rooms (1,000 by
default; bench/load_share.py), each with an event loop of its own.

    .venv/bin/python bench/load.py --rooms 100 --interval 10 --duration 60 --db postgres --processes 2
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --rooms 50     # a running server
    .venv/bin/python bench/load.py --db postgres --processes 2 --rooms 1000 --via page \\
        --against-baseline --repeat 3

With two processes a room's host and spectator use one process and the other player the other
one, so every move crosses between them (``--spread players``); ``--spread rooms`` keeps each room
on one process, as the deployment's proxy routes a room's requests (deploy/Caddyfile), the rooms
spread over both.

``--against-baseline`` runs the same load on ``bench/baseline.py`` (a bare server on the same
stack that does the least a correct server must do per move) and on the app, each with a fresh
database; ``--repeat N`` makes N such pairs, the baseline first in the first, the app in the
next, and so on. It prints each pair, then each ratio (the app's figure over the baseline's) of
every pair with its spread, and ends with one line ``ratio cpu_per_move X p50 Y p99 Z``: the
medians. ``--server baseline`` runs the baseline alone.

By default it starts the server itself (``python -m app``) on free loopback ports, against a fresh
SQLite file or a fresh PostgreSQL database (``--db postgres``; created with createdb and dropped
afterwards), with one or two processes. Traffic goes only to 127.0.0.1. The servers' logs go to a
temporary directory removed at the end; ``--keep-logs DIR`` copies them to DIR first.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_servers import COMMANDS, BackendCpu, Server, start_servers, stop_servers
from load_share import share_main

KINDS = ("baseline", "app")
#: How long a client process may take to reach each step (opening thousands of rooms is slow).
STEP_TIMEOUT = 600.0
POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


class Shares:
    """The client processes of one run, each with its share of the rooms, kept in step."""

    def __init__(self, args: argparse.Namespace, servers: list[Server]) -> None:
        context = multiprocessing.get_context("spawn")
        size = max(1, args.rooms_per_client)
        urls = [server.url for server in servers]
        self.pipes: list[Connection] = []
        self.processes = []
        for start in range(0, args.rooms, size):
            ours, theirs = context.Pipe()
            indices = list(range(start, min(args.rooms, start + size)))
            process = context.Process(target=share_main, args=(theirs, args, urls, indices))
            process.start()
            theirs.close()
            self.pipes.append(ours)
            self.processes.append(process)

    def tell(self, word: str) -> None:
        for pipe in self.pipes:
            pipe.send(word)

    def hear(self, word: str) -> list[Any]:
        """Wait for `word` from every client process; what each sent with it."""
        heard = []
        for pipe in self.pipes:
            if not pipe.poll(STEP_TIMEOUT):
                raise RuntimeError(f"a client process sent no {word!r} within {STEP_TIMEOUT} s")
            said, payload = pipe.recv()
            if said == "failed":
                raise RuntimeError(f"a client process failed:\n{payload}")
            if said != word:
                raise RuntimeError(f"a client process sent {said!r} instead of {word!r}")
            heard.append(payload)
        return heard

    def close(self) -> None:
        for process in self.processes:
            process.join(timeout=30)
            if process.is_alive():
                process.kill()
                process.join()
        for pipe in self.pipes:
            pipe.close()


def run(
    args: argparse.Namespace, servers: list[Server], backends: BackendCpu | None
) -> dict[str, Any]:
    """Play the load from the client processes; the run's figures."""
    memory_before = sum(s.memory_kib("VmRSS") for s in servers)
    shares = Shares(args, servers)
    try:
        rooms = sum(shares.hear("rooms"))
        memory_rooms = sum(s.memory_kib("VmRSS") for s in servers)
        shares.tell("connect")
        shares.hear("connected")
        time.sleep(1)
        memory_sockets = sum(s.memory_kib("VmRSS") for s in servers)
        cpu_before = [s.cpu_seconds() for s in servers]
        if backends is not None:
            backends.start()
        started = time.monotonic()
        shares.tell("play")
        shares.hear("played")
        elapsed = time.monotonic() - started
        cpu = [s.cpu_seconds() - b for s, b in zip(servers, cpu_before, strict=True)]
        db_cpu = backends.stop() if backends is not None else None
        shares.tell("check")
        measured = shares.hear("results")
    finally:
        shares.close()
    memory = {
        "peak_memory_mib": [round(s.memory_kib("VmHWM") / 1024, 1) for s in servers],
        "memory_per_room_kib": round((memory_rooms - memory_before) / max(1, rooms), 1),
        "memory_per_socket_kib": round((memory_sockets - memory_rooms) / max(1, 3 * rooms), 1),
    }
    return figures(args, rooms, len(servers), elapsed, cpu, db_cpu, measured) | memory


def figures(
    args: argparse.Namespace,
    rooms: int,
    processes: int,
    elapsed: float,
    cpu: list[float],
    db_cpu: float | None,
    measured: list[dict[str, Any]],
) -> dict[str, Any]:
    """One run's figures from what the servers used and what each client process measured."""
    latencies = [ms for share in measured for ms in share["latencies_ms"]]
    moves = sum(share["moves"] for share in measured)
    errors: dict[str, int] = {}
    for share in measured:
        for kind, count in share["errors"].items():
            errors[kind] = errors.get(kind, 0) + count
    per_move = 1000 / max(1, moves)
    return {
        "rooms": rooms,
        "sockets": 3 * rooms,
        "processes": processes,
        "interval_s": args.interval,
        "requests_per_move": 3 if args.fetch_legal else 1,
        "via": args.via,
        "spread": args.spread,
        "duration_s": round(elapsed, 1),
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "p50_ms": round(percentile(latencies, 50), 1),
        "p95_ms": round(percentile(latencies, 95), 1),
        "p99_ms": round(percentile(latencies, 99), 1),
        "mean_ms": round(statistics.fmean(latencies), 1) if latencies else None,
        "errors": errors,
        "lost": sum(share["lost"] for share in measured),
        "mismatched": sum(share["mismatched"] for share in measured),
        "server_cpu_s": [round(c, 1) for c in cpu],
        "server_cpu_percent": [round(100 * c / elapsed, 1) for c in cpu],
        "server_cpu_ms_per_move": round(per_move * sum(cpu), 2),
        "db_cpu_s": None if db_cpu is None else round(db_cpu, 1),
        "db_cpu_percent": None if db_cpu is None else round(100 * db_cpu / elapsed, 1),
        "db_cpu_ms_per_move": None if db_cpu is None else round(per_move * db_cpu, 2),
        "cpu_ms_per_move": round(per_move * (sum(cpu) + (db_cpu or 0.0)), 2),
        "client_processes": len(measured),
        "client_cpu_s": [round(share["cpu_s"], 2) for share in measured],
        "client_cpu_percent": [round(100 * share["cpu_s"] / elapsed, 1) for share in measured],
    }


@contextmanager
def fresh_database(args: argparse.Namespace, kind: str, workdir: Path) -> Iterator[str]:
    """A fresh database for one run: its URL (a PostgreSQL database is dropped afterwards)."""
    if args.db != "postgres":
        yield f"sqlite:///{workdir / 'load.sqlite3'}"
        return
    database = f"inlandport_load_{os.getpid()}_{kind}"
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", database], check=True)
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{database}"
    finally:
        subprocess.run(
            ["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", database], check=False
        )


def measure(args: argparse.Namespace, kind: str | None) -> dict[str, Any]:
    """One run against `kind` of server ("app", "baseline") started here with a fresh database,
    or (None) against the running server at ``--url``."""
    if kind is None:
        result = run(args, [Server(url=args.url.rstrip("/"))], None)
        return result | {"server": "external", "db": "external", "load_average": load_average()}
    workdir = Path(tempfile.mkdtemp(prefix="inland-load-"))
    servers: list[Server] = []
    try:
        with fresh_database(args, kind, workdir) as url:
            try:
                servers = start_servers(url, args.processes, workdir, kind)
                database = url.rsplit("/", 1)[1]
                backends = BackendCpu(POSTGRES, database) if args.db == "postgres" else None
                result = run(args, servers, backends)
            finally:
                stop_servers(servers)
                keep_logs(args, kind, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return result | {"server": kind, "db": args.db, "load_average": load_average()}


def keep_logs(args: argparse.Namespace, kind: str, workdir: Path) -> None:
    """Copy the servers' logs to ``--keep-logs``, when given."""
    if args.keep_logs:
        keep = Path(args.keep_logs)
        keep.mkdir(parents=True, exist_ok=True)
        for log in workdir.glob("server-*.log"):
            shutil.copy(log, keep / f"{kind}-{log.name}")


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


#: The figures whose ratios (app / baseline) end a run against the baseline.
RATIOS = {"cpu_per_move": "cpu_ms_per_move", "p50": "p50_ms", "p99": "p99_ms"}


def ratios(app: dict[str, Any], baseline: dict[str, Any]) -> dict[str, float]:
    """The app's figures divided by the baseline's (nan where the baseline's is 0)."""
    found = {}
    for name, key in RATIOS.items():
        mine, bare = float(app[key]), float(baseline[key])
        found[name] = mine / bare if bare > 0 else float("nan")
    return found


def ratio_lines(pairs: list[dict[str, dict[str, Any]]]) -> list[str]:
    """Each ratio over the repeats, in the order run, with its spread (min-max), then the line
    ``ratio cpu_per_move X p50 Y p99 Z`` of their medians."""
    each = [ratios(pair["app"], pair["baseline"]) for pair in pairs]
    spread, median = [], []
    for name in RATIOS:
        values = [r[name] for r in each]
        listed = " ".join(f"{v:.2f}" for v in values)
        spread.append(f"{name} {listed} ({min(values):.2f}-{max(values):.2f})")
        median.append(f"{name} {statistics.median(values):.2f}")
    return ["ratios " + " ".join(spread), "ratio " + " ".join(median)]


def against_baseline(args: argparse.Namespace) -> list[dict[str, dict[str, Any]]]:
    """`--repeat` pairs of runs, the baseline first in the first pair, the app in the next, and
    so on; each pair's results by kind, with which went first."""
    pairs = []
    for repeat in range(args.repeat):
        order = KINDS if repeat % 2 == 0 else KINDS[::-1]
        pair: dict[str, Any] = {kind: measure(args, kind) for kind in order}
        pair["first"] = order[0]
        pairs.append(pair)
        if not args.json:
            print(f"{'':>22}  {'baseline':<28}  app    (run {repeat + 1}, {order[0]} first)")
            for key in pair["app"]:
                print(f"{key:>22}: {pair['baseline'][key]!s:<28}  {pair['app'][key]}")
        else:
            print(json.dumps(pair))
        sys.stdout.flush()
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="target a running server instead of starting one")
    parser.add_argument(
        "--server", choices=sorted(COMMANDS), default="app", help="which server to start"
    )
    parser.add_argument(
        "--against-baseline",
        action="store_true",
        help="run the load on bench/baseline.py and on the app (alternating which goes first "
        "with --repeat) and print their ratios last",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="with --against-baseline: this many pairs of runs; each ratio is their median",
    )
    parser.add_argument(
        "--rooms-per-client",
        type=int,
        default=1000,
        help="rooms per load-client process (one event loop each)",
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
    if args.repeat < 1 or args.rooms_per_client < 1:
        parser.error("--repeat and --rooms-per-client must be 1 or more")
    if args.repeat > 1 and not args.against_baseline:
        parser.error("--repeat repeats the runs against the baseline: add --against-baseline")
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

    pairs = against_baseline(args)
    for line in ratio_lines(pairs):
        print(line)
    runs = [pair[kind] for pair in pairs for kind in KINDS]
    return 0 if all(r["lost"] == 0 and r["mismatched"] == 0 for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
