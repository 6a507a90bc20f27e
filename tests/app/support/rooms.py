"""Rooms driven through the JSON API: opened with both seats taken, moves played."""

from __future__ import annotations

import random
import uuid
from typing import Any

import httpx
from fastapi.testclient import TestClient


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def new_room(
    client: httpx.Client,
    host_seat: int | str = 0,
    catalog: str | None = None,
    *,
    base: str = "",
    guest_base: str | None = None,
) -> dict[str, Any]:
    """A room with both seats claimed: {"room", "tokens": {seat: token}, "spectator", ...},
    played with `catalog` (None: the default for new rooms); opened on the server at `base` and
    joined on the one at `guest_base` (None: the same; a TestClient needs neither)."""
    body: dict[str, Any] = {"host_seat": host_seat}
    if catalog is not None:
        body["catalog"] = catalog
    response = client.post(f"{base}/api/rooms", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    joined_at = base if guest_base is None else guest_base
    claimed = client.post(f"{joined_at}/api/invites/{token_of(created['invite_link'])}")
    assert claimed.status_code == 200, claimed.text
    guest = claimed.json()
    return {
        **created,
        "tokens": {created["seat"]: created["token"], guest["seat"]: guest["token"]},
        "spectator": token_of(created["spectator_link"]),
    }


def import_record(client: TestClient, text: str) -> tuple[str, str]:
    """Import `text` as a browser's text/plain form does and open its review link: the review
    room's id and the link's token (this client then holds the link)."""
    imported = client.post(
        "/import",
        content=f"record={text}\r\n".encode(),
        headers={"Content-Type": "text/plain"},
        follow_redirects=False,
    )
    assert imported.status_code == 303, imported.text
    opened = client.get(imported.headers["location"], follow_redirects=False)
    assert opened.status_code == 303
    return opened.headers["location"].split("/")[2], token_of(imported.headers["location"])


def ask_takeback(client: TestClient, room: dict[str, Any], seat: int) -> httpx.Response:
    return client.post(f"/api/rooms/{room['room']}/takeback", headers=bearer(room["tokens"][seat]))


def answer_takeback(
    client: TestClient, room: dict[str, Any], seat: int, accept: bool
) -> httpx.Response:
    return client.post(
        f"/api/rooms/{room['room']}/takeback/answer",
        json={"accept": accept},
        headers=bearer(room["tokens"][seat]),
    )


def pick(moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random action, selling only when nothing else is possible (games then always end)."""
    actions = [m for m in moves if m["type"] != "sell"]
    return rng.choice(actions or moves)


def post_move(
    client: httpx.Client,
    room_id: str,
    token: str,
    move: Any,
    version: int,
    client_move_id: str | None = None,
    *,
    base: str = "",
) -> httpx.Response:
    """The seat of `token` sends `move` at `version` (a fresh client move id unless given);
    `base`: another server's address (a TestClient needs none)."""
    return client.post(
        f"{base}/api/rooms/{room_id}/moves",
        json={
            "move": move,
            "version": version,
            "client_move_id": client_move_id or uuid.uuid4().hex,
        },
        headers=bearer(token),
    )


def first_action(
    client: httpx.Client, room_id: str, token: str, *, base: str = ""
) -> tuple[dict[str, Any], int]:
    """The seat's first legal action that is not a sell (a pass when it has none), and the room's
    version."""
    legal = client.get(f"{base}/api/rooms/{room_id}/legal", headers=bearer(token)).json()
    move = next((m for m in legal["moves"] if m["type"] != "sell"), {"type": "pass"})
    return move, legal["version"]


def play_first(
    client: httpx.Client,
    room_id: str,
    token: str,
    *,
    version: int | None = None,
    base: str = "",
) -> httpx.Response:
    """The seat plays its `first_action` at `version` (None: the room's version now)."""
    move, now = first_action(client, room_id, token, base=base)
    return post_move(client, room_id, token, move, now if version is None else version, base=base)


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
        response = post_move(
            client, room["room"], room["tokens"][seat], pick(legal["moves"], rng), version
        )
        assert response.status_code == 200, response.text
        state = response.json()
        version = state["version"]
    return version
