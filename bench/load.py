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
import contextlib
import gc
import gzip
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlencode, urlsplit

import httpx
import websockets

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402  (the project's rules engine, to follow each game)
from app.settings import Settings  # noqa: E402

#: A board's version: a whole board's root element, or a patch's header (app.live.frames).
VERSION_RE = re.compile(rb'data-version="(\d+)"|^<!--board-patch \{[^}]*"version":"(\d+)"')
#: How each kind of server is started (in the project's root, settings in the environment).
COMMANDS = {
    "app": [sys.executable, "-m", "app"],
    "baseline": [sys.executable, "bench/baseline.py"],
}
COOKIE_PREFIX = "ip_"  # app.deps: the cookie that holds a browser's token for one room


# --- the servers under test ----------------------------------------------------------------------


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes] | None = None

    def cpu_seconds(self) -> float:
        if not self.process:
            return float("nan")
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def memory_kib(self, key: str) -> int:
        if not self.process:
            return 0
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
        return 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_servers(
    database_url: str, processes: int, data_dir: Path, kind: str = "app"
) -> list[Server]:
    servers = []
    for _ in range(processes):
        port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DATA_DIR": str(data_dir),
            "HOST": "127.0.0.1",
            "PORT": str(port),
            # One client address opens every room and socket: lift the per-address limits.
            "ROOMS_PER_MINUTE": "0",
            "SOCKETS_PER_ADDRESS": "0",
        }
        process = subprocess.Popen(
            COMMANDS[kind],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(data_dir / f"server-{port}.log", "wb"),  # noqa: SIM115
        )
        server = Server(url=f"http://127.0.0.1:{port}", process=process)
        wait_healthy(server)
        servers.append(server)
    return servers


def wait_healthy(server: Server, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process and server.process.poll() is not None:
            raise RuntimeError(
                f"the server on {server.url} exited with {server.process.returncode}"
            )
        try:
            if httpx.get(server.url + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server on {server.url} did not become healthy")


def stop_servers(servers: list[Server]) -> None:
    for server in servers:
        if server.process and server.process.poll() is None:
            server.process.send_signal(signal.SIGINT)
    for server in servers:
        if server.process:
            try:
                server.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.process.kill()


# --- one room: two players and a spectator -------------------------------------------------------


class HttpLink:
    """One player's HTTP/1.1 keep-alive connection to one server, as a browser tab holds one.

    A deliberately small client: with a thousand rooms, httpx's connection pool spent more of
    this process's CPU choosing a connection than the servers spent on the request.
    """

    #: The servers close a kept-alive connection after `keep_alive_timeout` seconds without a
    #: request (app.settings); the client lets go of it a second before they would.
    IDLE_LIMIT = Settings().keep_alive_timeout - 1.0

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0

    async def request(
        self, method: str, path: str, token: str, body: object = None
    ) -> tuple[int, bytes]:
        """Send one JSON API request and read its answer: (status, body)."""
        payload = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Authorization: Bearer {token}\r\nAccept-Encoding: identity\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        )
        return await self.exchange(head.encode() + payload)

    async def post_form(self, path: str, cookie: str, fields: dict[str, str]) -> tuple[int, bytes]:
        """Post a form as the room's page does (htmx): the room's cookie, the page's origin,
        gzip accepted. Returns (status, body unzipped)."""
        payload = urlencode(fields).encode()
        origin = f"http://{self.host}:{self.port}"
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Cookie: {cookie}\r\nOrigin: {origin}\r\nSec-Fetch-Site: same-origin\r\n"
            f"HX-Request: true\r\nAccept-Encoding: gzip, deflate\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(payload)}\r\n\r\n"
        )
        return await self.exchange(head.encode() + payload)

    async def exchange(self, request: bytes) -> tuple[int, bytes]:
        """Write one request on the kept-alive connection (a new one when needed) and read the
        answer: (status, body), a gzip body unzipped."""
        stale = time.monotonic() - self.used > self.IDLE_LIMIT
        if self.reader is None or self.writer is None or stale or self.reader.at_eof():
            self.close()
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        try:
            self.writer.write(request)
            status_line = await self.reader.readline()
            if not status_line:
                raise ConnectionError("connection closed by the server")
            status = int(status_line.split()[1])
            length, keep, zipped = 0, True, False
            while (line := await self.reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"connection" and value.strip().lower() == b"close":
                    keep = False
                elif name == b"content-encoding" and value.strip().lower() == b"gzip":
                    zipped = True
            data = await self.reader.readexactly(length)
        except BaseException:
            self.close()
            raise
        if keep:
            self.used = time.monotonic()
        else:
            self.close()
        return status, gzip.decompress(data) if zipped else data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Room:
    room_id: str
    tokens: tuple[str, str]
    spectator: str
    servers: tuple[str, str, str]
    """Which server each socket (seat 0, seat 1, spectator) and each player's requests use."""
    seen: list[int] = field(default_factory=lambda: [0, 0, 0])
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    acknowledged: dict[int, str] = field(default_factory=dict)
    """version -> canonical move the server acknowledged."""
    finished: bool = False
    state: engine.GameState = field(default_factory=engine.new_game)
    version: int = 0
    """The position this client believes the room is at (re-read after a refused move)."""
    links: dict[int, HttpLink] = field(default_factory=dict)
    """Each player's own connection (seat -> link), opened at the first move."""

    def link(self, seat: int) -> HttpLink:
        if seat not in self.links:
            self.links[seat] = HttpLink(self.servers[seat])
        return self.links[seat]


@dataclass
class Results:
    latencies_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    moves: int = 0

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def with_retries(call: Callable[[], Awaitable[T]], attempts: int = 3) -> T:
    """Setup and checks only: retry when a pooled keep-alive connection was closed under us, or
    when the server answered 503 (busy: no database connection free in time) and asks to retry."""
    for attempt in range(attempts):
        try:
            result = await call()
        except httpx.TransportError:
            if attempt == attempts - 1:
                raise
            await asyncio.sleep(0.2)
            continue
        except httpx.HTTPStatusError as refused:
            if refused.response.status_code != 503 or attempt == attempts - 1:
                raise
            await asyncio.sleep(1.0)
            continue
        busy = isinstance(result, httpx.Response) and result.status_code == 503
        if busy and attempt < attempts - 1:
            await asyncio.sleep(1.0)
            continue
        return result
    raise AssertionError("unreachable")


async def create_room(
    client: httpx.AsyncClient, servers: list[Server], index: int, spread: str = "players"
) -> Room:
    """Room `index`, its host and spectator on one process; the other player on the next process
    (`spread` "players") or on the same one ("rooms": as deploy/Caddyfile routes a room)."""
    host = servers[index % len(servers)].url
    other = host if spread == "rooms" else servers[(index + 1) % len(servers)].url
    created = (await client.post(f"{host}/api/rooms", json={"host_seat": 0})).raise_for_status()
    data = created.json()
    invite = data["invite_link"].rsplit("/", 1)[1]
    claimed = (await client.post(f"{other}/api/invites/{invite}")).raise_for_status().json()
    spectator = data["spectator_link"].rsplit("/", 1)[1]
    return Room(
        room_id=data["room"],
        tokens=(data["token"], claimed["token"]),
        spectator=spectator,
        servers=(host, other, servers[index % len(servers)].url),
    )


async def watch(room: Room, slot: int, token: str, server: str, stop: asyncio.Event) -> None:
    """Keep one socket open and record the newest board version it received."""
    url = server.replace("http://", "ws://") + f"/ws/rooms/{room.room_id}?token={token}"
    while not stop.is_set():
        try:
            async with websockets.connect(
                url,
                origin=websockets.Origin(server),
                max_size=2**22,
                open_timeout=30,
            ) as ws:
                async for message in ws:
                    data = message.encode() if isinstance(message, str) else message
                    found = VERSION_RE.search(data)
                    if found:
                        version = int(found.group(1) or found.group(2))
                        room.seen[slot] = max(room.seen[slot], version)
                        room.changed.set()
                    if stop.is_set():
                        return
        except (TimeoutError, OSError, websockets.WebSocketException):
            if stop.is_set():
                return
            await asyncio.sleep(0.5)


async def play(
    room: Room,
    interval: float,
    stop: asyncio.Event,
    results: Results,
    rng: random.Random,
    fetch_legal: bool,
    via: str,
) -> None:
    """Each ``interval`` (jittered) the player to move makes a random legal move."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), rng.uniform(0, interval))
    while not stop.is_set() and not room.finished:
        started = time.monotonic()
        try:
            await one_move(room, results, rng, fetch_legal, via)
        except (OSError, ValueError, asyncio.IncompleteReadError) as err:
            results.error(type(err).__name__)
        pause = interval - (time.monotonic() - started)
        with contextlib.suppress(TimeoutError):  # the pause ends early when the run stops
            await asyncio.wait_for(stop.wait(), max(0.0, pause * rng.uniform(0.8, 1.2)))


async def one_move(
    room: Room, results: Results, rng: random.Random, fetch_legal: bool, via: str
) -> None:
    if fetch_legal:
        await fetch_position(room)
    if engine.is_finished(room.state):
        room.finished = True
        return
    seat = room.state.to_move
    assert seat is not None
    link, token = room.link(seat), room.tokens[seat]
    if fetch_legal:
        status, data = await link.request("GET", f"/api/rooms/{room.room_id}/legal", token)
        choices = [engine.parse_move(move) for move in json.loads(data)["moves"]]
    else:
        choices = list(engine.legal_moves(room.state))
    if not choices:
        results.error("no legal moves")
        return
    move = rng.choice(choices)
    version = room.version
    client_move_id = uuid.uuid4().hex
    room.changed.clear()
    sent = time.perf_counter()
    if via == "page":
        fields = {"move": move.canonical, "version": str(version), "client_move_id": client_move_id}
        cookie = f"{COOKIE_PREFIX}{room.room_id}={token}"
        status, data = await link.post_form(f"/rooms/{room.room_id}/moves", cookie, fields)
    else:
        body = {"move": move.to_json(), "version": version, "client_move_id": client_move_id}
        status, data = await link.request("POST", f"/api/rooms/{room.room_id}/moves", token, body)
    if status != 200:
        results.error(f"HTTP {status}")
        await fetch_position(room)
        return
    # The page's answer is the panel's message (the board comes over the mover's socket, which
    # is one of the three waited for); the API's is JSON with the version.
    new_version = version + 1 if via == "page" else json.loads(data)["version"]
    room.acknowledged[version] = engine.canonical_json(move.to_json())
    room.state, room.version = engine.apply(room.state, move), new_version
    try:
        while min(room.seen) < new_version:
            room.changed.clear()
            if min(room.seen) >= new_version:
                break
            await asyncio.wait_for(room.changed.wait(), timeout=30)
    except TimeoutError:
        results.error("board not delivered within 30 s")
        return
    results.latencies_ms.append(1000 * (time.perf_counter() - sent))
    results.moves += 1


async def fetch_position(room: Room) -> None:
    """Read the room's position from the server (`GET /api/rooms/{id}`)."""
    status, data = await room.link(0).request("GET", f"/api/rooms/{room.room_id}", room.tokens[0])
    if status != 200:
        raise ConnectionError(f"reading the room failed with HTTP {status}")
    answer = json.loads(data)
    if "summary" in answer:
        room.state, room.version = engine.from_summary(answer["summary"]), answer["version"]
        return
    # A server without the game (bench/baseline.py): follow its move log from the start.
    status, data = await room.link(0).request(
        "GET", f"/api/rooms/{room.room_id}/moves", room.tokens[0]
    )
    if status != 200:
        raise ConnectionError(f"reading the moves failed with HTTP {status}")
    state = engine.new_game()
    for entry in json.loads(data)["moves"]:
        state = engine.apply(state, engine.parse_move(entry["move"]))
    room.state, room.version = state, answer["version"]


async def count_lost(client: httpx.AsyncClient, rooms: list[Room]) -> tuple[int, int]:
    """Acknowledged moves missing from the log, and log entries that differ from what was sent."""
    lost = mismatched = 0
    for room in rooms:
        log = await with_retries(
            partial(
                client.get,
                f"{room.servers[0]}/api/rooms/{room.room_id}/moves",
                headers={"Authorization": f"Bearer {room.tokens[0]}"},
            )
        )
        entries = {m["seq"]: m["move"] for m in log.json()["moves"]}
        for version, move in room.acknowledged.items():
            stored = entries.get(version)
            if stored is None:
                lost += 1
            elif engine.canonical_json(stored) != move:
                mismatched += 1
    return lost, mismatched


def client_cpu_seconds() -> float:
    """CPU time of this load client (it shares the machine with the servers)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


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


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection in this process while it plays: what the setup left is frozen and
    the collector is off. Otherwise a full pass over the rooms' games and the sockets' buffers
    stops this event loop for 0.2-0.9 s at 1,000 rooms (gen. 1: 20-40 ms every few seconds),
    and every move in flight meanwhile would count the pause as the server's."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


async def wait_connected(rooms: list[Room], timeout: float) -> None:
    """Wait until every socket has received its first board (version 0 or later)."""
    deadline = time.monotonic() + timeout
    for room in rooms:
        room.seen = [-1, -1, -1]
    while time.monotonic() < deadline:
        if all(min(room.seen) >= 0 for room in rooms):
            return
        await asyncio.sleep(0.2)
    missing = sum(1 for room in rooms for v in room.seen if v < 0)
    raise RuntimeError(f"{missing} sockets received no board within {timeout} s")


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
