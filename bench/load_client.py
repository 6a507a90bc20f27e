"""The load client of bench/load.py: rooms of two players and a spectator over real sockets, each
player moving at a set pace as a browser does, and what it measured."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import gzip
import json
import random
import re
import resource
import sys
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlencode, urlsplit

import httpx
import websockets

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))  # load_servers, also when imported as bench.load_client

from load_servers import Server  # noqa: E402

import engine  # noqa: E402  (the project's rules engine, to follow each game)
from app.settings import Settings  # noqa: E402
from engine.catalogs import built_in_registry  # noqa: E402

T = TypeVar("T")
#: A board's version: a whole board's root element, or a patch's header (app.live.frames).
VERSION_RE = re.compile(rb'data-version="(\d+)"|^<!--board-patch \{[^}]*"version":"(\d+)"')
#: The catalogs a room may be played with (a room's creation answer names its own).
CATALOGS = built_in_registry()
COOKIE_PREFIX = "ip_"  # app.edge.cookies: the cookie that holds a browser's token for one room


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
    state: engine.GameState
    """The position, played with the room's own catalog (its creation answer names it)."""
    seen: list[int] = field(default_factory=lambda: [0, 0, 0])
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    acknowledged: dict[int, str] = field(default_factory=dict)
    """version -> canonical move the server acknowledged."""
    finished: bool = False
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

    def extra(self) -> dict[str, object]:
        """What this game's client measures beyond moves and latencies (nothing here)."""
        return {}


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
        state=engine.new_game(CATALOGS.get(data["catalog"])),
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


def watchers(room: Room, stop: asyncio.Event) -> list[Awaitable[None]]:
    """The room's sockets: both players' and the spectator's (`load_share`)."""
    tokens = (*room.tokens, room.spectator)
    return [watch(room, slot, token, room.servers[slot], stop) for slot, token in enumerate(tokens)]


def player(
    room: Room, args: Any, stop: asyncio.Event, results: Results, rng: random.Random
) -> Awaitable[None]:
    """The room's players as bench/load.py's options say (`load_share`)."""
    return play(room, args.interval, stop, results, rng, args.fetch_legal, args.via)


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
        catalog = room.state.catalog
        choices = [engine.parse_move(move, catalog) for move in json.loads(data)["moves"]]
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
    catalog = room.state.catalog
    if "summary" in answer:
        state = engine.from_summary(answer["summary"], catalog)
        room.state, room.version = state, answer["version"]
        return
    # A server without the game (bench/baseline.py): follow its move log from the start.
    status, data = await room.link(0).request(
        "GET", f"/api/rooms/{room.room_id}/moves", room.tokens[0]
    )
    if status != 200:
        raise ConnectionError(f"reading the moves failed with HTTP {status}")
    state = engine.new_game(catalog)
    for entry in json.loads(data)["moves"]:
        state = engine.apply(state, engine.parse_move(entry["move"], catalog))
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
        room.seen = [-1] * len(room.seen)
    while time.monotonic() < deadline:
        if all(min(room.seen) >= 0 for room in rooms):
            return
        await asyncio.sleep(0.2)
    missing = sum(1 for room in rooms for v in room.seen if v < 0)
    raise RuntimeError(f"{missing} sockets received no board within {timeout} s")
