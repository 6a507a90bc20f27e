"""Le Havre rooms driven through the JSON API: opened with every seat claimed, moves played."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from .rooms import bearer, token_of


def lehavre_room(client: TestClient, players: int, **more: Any) -> dict[str, Any]:
    """A short Le Havre room with every seat claimed: {"room", "tokens": {seat: token}, ...}."""
    others = ["friend"] * (players - 1)
    body = {"game": "lehavre", "others": others, "variant": "short", "host_seat": 0, **more}
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    tokens = {created["seat"]: created["token"]}
    for link in created["invite_links"]:
        claimed = client.post(f"/api/invites/{token_of(link)}")
        assert claimed.status_code == 200, claimed.text
        tokens[claimed.json()["seat"]] = claimed.json()["token"]
    return {**created, "tokens": tokens}


def to_move(client: TestClient, room: dict[str, Any]) -> tuple[int, int | None]:
    """The room's version and the seat to move (None: the game is over)."""
    got = client.get(f"/api/rooms/{room['room']}", headers=bearer(room["tokens"][0])).json()
    return got["version"], got["summary"]["current"]


def move(client: TestClient, room: dict[str, Any], seat: int, body: Any, version: int) -> Any:
    return client.post(
        f"/api/rooms/{room['room']}/moves",
        json={"move": body, "version": version, "client_move_id": f"m{version}-{seat}"},
        headers=bearer(room["tokens"][seat]),
    )


def play_legal(client: TestClient, room: dict[str, Any], seat: int, index: int = 0) -> Any:
    """Play `seat`'s legal move number `index` (asserted to be played); its answer."""
    legal = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(room["tokens"][seat]))
    found = legal.json()
    played = move(client, room, seat, found["moves"][index], found["version"])
    assert played.status_code == 200, played.text
    return played


def end_turn(client: TestClient, room: dict[str, Any], seat: int) -> None:
    """Play `seat`'s moves until another seat is to move (the last move ends its turn)."""
    while to_move(client, room)[1] == seat:
        legal = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(room["tokens"][seat]))
        found = legal.json()
        ends = [i for i, m in enumerate(found["moves"]) if m["type"] == "end"]
        play_legal(client, room, seat, ends[0] if ends else 0)


def wait_for_turn(client: TestClient, room: dict[str, Any], seats: set[int]) -> dict[str, Any]:
    """Poll the room until one of `seats` is to move or the game is over (the computer plays on
    the app's own event loop)."""
    deadline = time.monotonic() + 60
    while True:
        got = client.get(f"/api/rooms/{room['room']}", headers=bearer(room["token"])).json()
        if got["finished"] or got["summary"]["current"] in seats:
            return got
        assert time.monotonic() < deadline, f"the room is stuck at version {got['version']}"
        time.sleep(0.01)
