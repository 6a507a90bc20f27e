"""The load client of bench/load_lehavre.py: Le Havre rooms of four seats and a spectator over
real sockets, each seat played as a JSON API client plays it, and what every socket received.

A room is opened with ``POST /api/rooms`` (``{"game": "lehavre", "others": ["friend", "friend",
"friend"]}``) and its three other seats claimed with their invite links. The setup holds what no
player may see yet (the order of the supply tiles), so no client can follow the game with the
rules engine on its own: before each move the seat to move asks ``GET /api/rooms/{id}/legal``,
picks one of those moves at random and posts it (``POST /api/rooms/{id}/moves``); the answer's
summary says who moves next. A move's latency runs from that ``POST`` until all five sockets
of the room hold the new version.

Every socket follows the board as a page does (`app.live.frames`, static/js/patch.js): a whole
board sets the frame it shows, a patch on top of that frame moves it on, a patch on top of
another frame makes it ask for the whole board (``board``). Each message received while the
players play is counted: whole board, patch or other, its size as the page reads it (HTML) and
on the wire (compressed by permessage-deflate, frame headers included).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
import uuid
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from load_client import VERSION_RE, HttpLink
from load_client import Results as MoveResults
from load_servers import Server
from websockets.asyncio.client import ClientConnection

from engine.canonical import canonical_json

SEATS = 4
#: A whole board's frame (its root element's ``data-frame``); a patch starts with its header.
FRAME_RE = re.compile(rb'data-frame="([0-9a-f]+)"')
PATCH_PREFIX = b"<!--board-patch "
WHOLE_BOARD_PLEASE = "board"  # app.live.frames: what a page sends to ask for the whole board


@dataclass
class LeHavreRoom:
    room_id: str
    tokens: tuple[str, ...]
    """Each seat's token, by seat."""
    spectator: str
    servers: tuple[str, ...]
    """Which server each socket (seats 0-3, then the spectator) and each seat's requests use."""
    seen: list[int] = field(default_factory=lambda: [0] * (SEATS + 1))
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    acknowledged: dict[int, str] = field(default_factory=dict)
    """version -> canonical move the server acknowledged."""
    current: int | None = 0
    """The seat to move, as the server last said (None: the game is over)."""
    version: int = 0
    results: Results | None = None
    """Where the sockets count what they receive, once the players play."""
    links: dict[int, HttpLink] = field(default_factory=dict)

    def link(self, seat: int) -> HttpLink:
        if seat not in self.links:
            self.links[seat] = HttpLink(self.servers[seat])
        return self.links[seat]


@dataclass
class Results(MoveResults):
    updates: list[tuple[str, int, int]] = field(default_factory=list)
    """Every message the sockets received while the players played: (kind, HTML bytes, bytes
    on the wire), kind "whole", "patch" or "other"."""
    asked_whole: int = 0
    """Patches on top of a frame the socket did not show, answered by asking for the board."""

    def extra(self) -> dict[str, object]:
        return {"updates": self.updates, "asked_whole": self.asked_whole}


class CountingConnection(ClientConnection):
    """A client socket that counts the bytes it reads from the network."""

    received = 0

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        super().data_received(data)


async def create_room(
    client: httpx.AsyncClient, servers: list[Server], index: int, spread: str = "players"
) -> LeHavreRoom:
    """Room `index` with four friends' seats: the host and spectator on one process, each other
    seat on the next processes in turn (`spread` "players") or on the same one ("rooms")."""
    urls = [server.url for server in servers]
    host = urls[index % len(urls)]
    body = {"game": "lehavre", "others": ["friend"] * (SEATS - 1)}
    data = (await client.post(f"{host}/api/rooms", json=body)).raise_for_status().json()
    where = [host if spread == "rooms" else urls[(index + seat) % len(urls)] for seat in range(4)]
    tokens = [data["token"]]
    for seat, link in enumerate(data["invite_links"], start=1):
        invite = link.rsplit("/", 1)[1]
        claimed = await client.post(f"{where[seat]}/api/invites/{invite}")
        tokens.append(claimed.raise_for_status().json()["token"])
    room = LeHavreRoom(
        room_id=data["room"],
        tokens=tuple(tokens),
        spectator=data["spectator_link"].rsplit("/", 1)[1],
        servers=(*where, host),
    )
    await read_room(room)
    return room


async def read_room(room: LeHavreRoom) -> None:
    """The room's version and the seat to move, from the server (`GET /api/rooms/{id}`)."""
    status, data = await room.link(0).request("GET", f"/api/rooms/{room.room_id}", room.tokens[0])
    if status != 200:
        raise ConnectionError(f"reading the room failed with HTTP {status}")
    answer = json.loads(data)
    room.version, room.current = answer["version"], answer["summary"]["current"]


def watchers(room: LeHavreRoom, stop: asyncio.Event) -> list[Awaitable[None]]:
    """The room's five sockets: each seat's and the spectator's (`load_share`)."""
    tokens = (*room.tokens, room.spectator)
    return [watch(room, slot, token, stop) for slot, token in enumerate(tokens)]


async def watch(room: LeHavreRoom, slot: int, token: str, stop: asyncio.Event) -> None:
    """Keep one socket open, following its board; record the newest version it holds and, while
    the players play, what each message was."""
    server = room.servers[slot]
    url = server.replace("http://", "ws://") + f"/ws/rooms/{room.room_id}?token={token}"
    while not stop.is_set():
        try:
            async with websockets.connect(
                url,
                origin=websockets.Origin(server),
                max_size=2**22,
                open_timeout=30,
                create_connection=CountingConnection,
            ) as ws:
                await follow(room, slot, ws)
        except (TimeoutError, OSError, websockets.WebSocketException):
            if stop.is_set():
                return
            await asyncio.sleep(0.5)


async def follow(room: LeHavreRoom, slot: int, ws: CountingConnection) -> None:
    shown, read = "", 0
    async for message in ws:
        data = message.encode() if isinstance(message, str) else message
        wire, read = ws.received - read, ws.received
        kind = "other"
        if data.startswith(PATCH_PREFIX):
            kind = "patch"
            header = json.loads(data[len(PATCH_PREFIX) : data.index(b"-->")])
            if header["base"] == shown:
                shown = header["frame"]
            elif header["frame"] != shown:
                await ws.send(WHOLE_BOARD_PLEASE)
                if room.results is not None:
                    room.results.asked_whole += 1
                continue  # a page ignores the patch until the whole board comes
        elif (frame := FRAME_RE.search(data)) is not None:
            kind, shown = "whole", frame.group(1).decode()
        if room.results is not None:
            room.results.updates.append((kind, len(data), wire))
        found = VERSION_RE.search(data)
        if found:
            room.seen[slot] = max(room.seen[slot], int(found.group(1) or found.group(2)))
            room.changed.set()


def player(
    room: LeHavreRoom, args: Any, stop: asyncio.Event, results: Results, rng: random.Random
) -> Awaitable[None]:
    """The room's seats, one move each ``--interval`` seconds (`load_share`)."""
    room.results = results
    return play(room, args.interval, stop, results, rng)


async def play(
    room: LeHavreRoom,
    interval: float,
    stop: asyncio.Event,
    results: Results,
    rng: random.Random,
) -> None:
    """Each ``interval`` (jittered) the seat to move makes a random legal move."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), rng.uniform(0, interval))
    while not stop.is_set() and room.current is not None:
        started = time.monotonic()
        try:
            await one_move(room, results, rng)
        except (OSError, ValueError, KeyError, asyncio.IncompleteReadError) as err:
            results.error(type(err).__name__)
        pause = interval - (time.monotonic() - started)
        with contextlib.suppress(TimeoutError):  # the pause ends early when the run stops
            await asyncio.wait_for(stop.wait(), max(0.0, pause * rng.uniform(0.8, 1.2)))
    room.results = None


async def one_move(room: LeHavreRoom, results: Results, rng: random.Random) -> None:
    """Ask for the seat's legal moves, post one of them, wait until every socket holds it."""
    seat = room.current
    assert seat is not None
    link, token = room.link(seat), room.tokens[seat]
    status, data = await link.request("GET", f"/api/rooms/{room.room_id}/legal", token)
    if status != 200:
        results.error(f"legal: HTTP {status}")
        return await read_room(room)
    legal = json.loads(data)
    if not legal["moves"]:
        results.error("no legal moves")
        return await read_room(room)
    move, version = rng.choice(legal["moves"]), legal["version"]
    body = {"move": move, "version": version, "client_move_id": uuid.uuid4().hex}
    room.changed.clear()
    sent = time.perf_counter()
    status, data = await link.request("POST", f"/api/rooms/{room.room_id}/moves", token, body)
    if status != 200:
        results.error(f"HTTP {status}")
        return await read_room(room)
    answer = json.loads(data)
    room.acknowledged[version] = canonical_json(move)
    room.version, room.current = answer["version"], answer["summary"]["current"]
    try:
        while min(room.seen) < room.version:
            room.changed.clear()
            if min(room.seen) >= room.version:
                break
            await asyncio.wait_for(room.changed.wait(), timeout=30)
    except TimeoutError:
        results.error("board not delivered within 30 s")
        return None
    results.latencies_ms.append(1000 * (time.perf_counter() - sent))
    results.moves += 1
    return None
