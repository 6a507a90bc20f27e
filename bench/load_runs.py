"""What every load benchmark of bench/ shares (bench/load.py: Inland Port; bench/load_lehavre.py:
Le Havre): its client processes kept in step, one run against a server started with a fresh
database, the run's figures, and the pairs of runs against the bare baseline with their ratios.

A `Load` names what differs between the games: the module that plays a client process's rooms
(bench/load_share.py runs it), the sockets per room, which command each kind of server is, and
the figures only that game's client measures.
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_servers import BackendCpu, Server, start_servers, stop_servers
from load_share import share_main

KINDS = ("baseline", "app")
#: How long a client process may take to reach each step (opening thousands of rooms is slow).
STEP_TIMEOUT = 600.0
POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"


@dataclass(frozen=True)
class Load:
    """One game's load: `client` is the module playing a client process's rooms
    (`load_share.share_main`), `servers` the `load_servers.COMMANDS` key of each kind, `extra`
    the figures of the game's own from what the client processes measured."""

    client: str
    sockets_per_room: int
    servers: dict[str, str]
    requests_per_move: Callable[[argparse.Namespace], int]
    extra: Callable[[list[dict[str, Any]]], dict[str, Any]] = field(default=lambda measured: {})


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


class Shares:
    """The client processes of one run, each with its share of the rooms, kept in step."""

    def __init__(self, load: Load, args: argparse.Namespace, servers: list[Server]) -> None:
        context = multiprocessing.get_context("spawn")
        size = max(1, args.rooms_per_client)
        urls = [server.url for server in servers]
        self.pipes: list[Connection] = []
        self.processes = []
        for start in range(0, args.rooms, size):
            ours, theirs = context.Pipe()
            indices = list(range(start, min(args.rooms, start + size)))
            process = context.Process(
                target=share_main, args=(theirs, args, urls, indices, load.client)
            )
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
    load: Load, args: argparse.Namespace, servers: list[Server], backends: BackendCpu | None
) -> dict[str, Any]:
    """Play the load from the client processes; the run's figures."""
    memory_before = sum(s.memory_kib("VmRSS") for s in servers)
    shares = Shares(load, args, servers)
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
        started, played_from = time.monotonic(), time.time()
        shares.tell("play")
        shares.hear("played")
        elapsed, played_to = time.monotonic() - started, time.time()
        cpu = [s.cpu_seconds() - b for s, b in zip(servers, cpu_before, strict=True)]
        db_cpu = backends.stop() if backends is not None else None
        shares.tell("check")
        measured = shares.hear("results")
    finally:
        shares.close()
    sockets = load.sockets_per_room * max(1, rooms)
    memory = {
        "peak_memory_mib": [round(s.memory_kib("VmHWM") / 1024, 1) for s in servers],
        "memory_per_room_kib": round((memory_rooms - memory_before) / max(1, rooms), 1),
        "memory_per_socket_kib": round((memory_sockets - memory_rooms) / sockets, 1),
    }
    ran = Ran(rooms, len(servers), elapsed, cpu, db_cpu, measured)
    # The play's wall-clock times, to match what was measured meanwhile (bench/gc_promoted.py).
    played = {"played_at": [round(played_from, 1), round(played_to, 1)]}
    return figures(load, args, ran) | memory | load.extra(measured) | played


@dataclass(frozen=True)
class Ran:
    """What one run used and measured: rooms, server processes, seconds of play, each server's
    CPU seconds, the database backends' (None on SQLite), each client process's measures."""

    rooms: int
    processes: int
    elapsed: float
    cpu: list[float]
    db_cpu: float | None
    measured: list[dict[str, Any]]


def figures(load: Load, args: argparse.Namespace, ran: Ran) -> dict[str, Any]:
    """One run's figures from what the servers used and what each client process measured."""
    measured, elapsed, cpu, db_cpu = ran.measured, ran.elapsed, ran.cpu, ran.db_cpu
    latencies = [ms for share in measured for ms in share["latencies_ms"]]
    moves = sum(share["moves"] for share in measured)
    errors: dict[str, int] = {}
    for share in measured:
        for kind, count in share["errors"].items():
            errors[kind] = errors.get(kind, 0) + count
    per_move = 1000 / max(1, moves)
    return {
        "rooms": ran.rooms,
        "sockets": load.sockets_per_room * ran.rooms,
        "processes": ran.processes,
        "interval_s": args.interval,
        "requests_per_move": load.requests_per_move(args),
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


def measure(load: Load, args: argparse.Namespace, kind: str | None) -> dict[str, Any]:
    """One run against `kind` of server ("app", "baseline") started here with a fresh database,
    or (None) against the running server at ``--url``."""
    if kind is None:
        result = run(load, args, [Server(url=args.url.rstrip("/"))], None)
        return result | {"server": "external", "db": "external", "load_average": load_average()}
    workdir = Path(tempfile.mkdtemp(prefix="inland-load-"))
    servers: list[Server] = []
    try:
        with fresh_database(args, kind, workdir) as url:
            try:
                servers = start_servers(url, args.processes, workdir, load.servers[kind])
                database = url.rsplit("/", 1)[1]
                backends = BackendCpu(POSTGRES, database) if args.db == "postgres" else None
                result = run(load, args, servers, backends)
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


def against_baseline(load: Load, args: argparse.Namespace) -> list[dict[str, dict[str, Any]]]:
    """`--repeat` pairs of runs, the baseline first in the first pair, the app in the next, and
    so on; each pair's results by kind, with which went first."""
    pairs = []
    for repeat in range(args.repeat):
        order = KINDS if repeat % 2 == 0 else KINDS[::-1]
        pair: dict[str, Any] = {kind: measure(load, args, kind) for kind in order}
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


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every load benchmark takes: where it runs, how often, how it is reported."""
    parser.add_argument("--url", help="target a running server instead of starting one")
    parser.add_argument("--server", choices=KINDS, default="app", help="which server to start")
    parser.add_argument(
        "--against-baseline",
        action="store_true",
        help="run the load on the bare baseline server and on the app (alternating which goes "
        "first with --repeat) and print their ratios last",
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
        help="with two processes: a room's players on different processes (each move "
        "crosses between them), or each room whole on one process (as deploy/Caddyfile "
        "routes a room's requests)",
    )
    parser.add_argument(
        "--interval", type=float, default=10.0, help="seconds between moves per room"
    )
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--http-connections", type=int, default=400)
    parser.add_argument("--json", action="store_true", help="print the result as one JSON line")
    parser.add_argument(
        "--keep-logs", metavar="DIR", help="copy the servers' logs (stderr) to DIR at the end"
    )


def check_run_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.url and args.against_baseline:
        parser.error("--against-baseline starts both servers itself: no --url")
    if args.repeat < 1 or args.rooms_per_client < 1:
        parser.error("--repeat and --rooms-per-client must be 1 or more")
    if args.repeat > 1 and not args.against_baseline:
        parser.error("--repeat repeats the runs against the baseline: add --against-baseline")


def run_and_report(load: Load, args: argparse.Namespace) -> int:
    """Run the load as `args` say and print its figures (and ratios); 0 when no acknowledged
    move was lost or stored otherwise."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(
        resource.RLIMIT_NOFILE, (hard, hard)
    )  # thousands of sockets, here and in the servers
    if not args.against_baseline:
        result = measure(load, args, None if args.url else args.server)
        if args.json:
            print(json.dumps(result))
        else:
            for key, value in result.items():
                print(f"{key:>22}: {value}")
        return 0 if result["lost"] == 0 and result["mismatched"] == 0 else 1
    pairs = against_baseline(load, args)
    for line in ratio_lines(pairs):
        print(line)
    runs = [pair[kind] for pair in pairs for kind in KINDS]
    return 0 if all(r["lost"] == 0 and r["mismatched"] == 0 for r in runs) else 1
