"""Small helpers for driving rooms through the JSON API in tests."""

from __future__ import annotations

import json
import random
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.live.frames import PATCH_PREFIX, DrawnBoard, part_hash
from app.reads.roomview import RoomFacts
from bench.appserver import AppServer


@contextmanager
def two_processes(
    database_url: str, data_dir: Path, env: dict[str, str] | None = None
) -> Iterator[list[AppServer]]:
    """Two server processes on one database (rooms opened without the per-address limit),
    stopped when the block ends."""
    settings = {"ROOMS_PER_MINUTE": "0", **(env or {})}
    servers = [AppServer(data_dir, database_url=database_url, env=settings) for _ in range(2)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def new_room(
    client: TestClient, host_seat: int | str = 0, catalog: str | None = None
) -> dict[str, Any]:
    """A room with both seats claimed: {"room", "tokens": {seat: token}, "spectator", ...},
    played with `catalog` (None: the default for new rooms)."""
    body: dict[str, Any] = {"host_seat": host_seat}
    if catalog is not None:
        body["catalog"] = catalog
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    claimed = client.post(f"/api/invites/{token_of(created['invite_link'])}")
    assert claimed.status_code == 200, claimed.text
    guest = claimed.json()
    return {
        **created,
        "tokens": {created["seat"]: created["token"], guest["seat"]: guest["token"]},
        "spectator": token_of(created["spectator_link"]),
    }


def pick(moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random action, selling only when nothing else is possible (games then always end)."""
    actions = [m for m in moves if m["type"] != "sell"]
    return rng.choice(actions or moves)


def play(client: TestClient, room: dict[str, Any], count: int, seed: int = 1) -> int:
    """Play `count` moves (or until the end) with random legal actions; returns the version."""
    rng = random.Random(seed)
    state = client.get(f"/api/rooms/{room['room']}", headers=bearer(room["tokens"][0])).json()
    version = state["version"]
    for _ in range(count):
        if state["summary"]["finished"]:
            break
        seat = state["summary"]["to_move"]
        headers = bearer(room["tokens"][seat])
        legal = client.get(f"/api/rooms/{room['room']}/legal", headers=headers).json()
        move = pick(legal["moves"], rng)
        response = client.post(
            f"/api/rooms/{room['room']}/moves",
            json={"move": move, "version": version, "client_move_id": uuid.uuid4().hex},
            headers=headers,
        )
        assert response.status_code == 200, response.text
        state = response.json()
        version = state["version"]
    return version


def is_board(message: str) -> bool:
    """Whether a socket message is a board: whole (root id="board") or a patch of one."""
    return message.startswith(PATCH_PREFIX) or 'id="board"' in message.split(">", 1)[0]


def board_version(html: str) -> int:
    """The board version of a socket message: the data-version of a whole board's root element
    (which must be id="board"), or the version in a patch's header (app.live.frames)."""
    if html.startswith(PATCH_PREFIX):
        header = json.loads(html[len(PATCH_PREFIX) : html.index("-->")])
        return int(header["version"])
    root = re.match(r"\s*<(\w+)([^>]*)>", html)
    assert root is not None, html[:200]
    attributes = root.group(2)
    assert re.search(r'\bid="board"', attributes), attributes
    found = re.search(r'\bdata-version="(\d+)"', attributes)
    assert found is not None, attributes
    return int(found.group(1))


def text_board(text: str) -> DrawnBoard:
    """A board whose whole HTML is `text`, sent whole every time (no two share a shell)."""
    return DrawnBoard(
        frame=text,
        attrs={},
        parts={"p": text},
        hashes={"p": part_hash(text)},
        pieces=("", "p", ""),
        shell=part_hash(text),
    )


def playing_facts(room_id: str, version: int, spectators: int) -> RoomFacts:
    """The facts of a room whose two players are seated and online, with no offer pending."""
    return RoomFacts(
        room_id=room_id,
        version=version,
        seats_claimed=(True, True),
        online=(True, True),
        spectators=spectators,
        open_invites=frozenset(),
        rematch_offered_by=(False, False),
        rematch_room_id=None,
        computer=None,
        computer_seat=None,
    )
