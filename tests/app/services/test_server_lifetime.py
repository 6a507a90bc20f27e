"""Room lifetime (issue 13, point 8): rooms never started go after 7 days, finished rooms after
90, games under way stay; the server sweeps by itself, also with two processes."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, text
from sqlalchemy.orm import Session
from support.processes import two_processes
from support.rooms import bearer, new_room, play

from app.main import create_app
from app.models import Room
from app.services.lifetime import remove_expired_rooms
from app.settings import Settings


def age(database_url: str, room_id: str, *, created_days: float, updated_days: float) -> None:
    """Make the room look opened `created_days` ago and last changed `updated_days` ago."""
    db = create_engine(database_url)
    with Session(db) as session:
        room = session.get(Room, room_id)
        assert room is not None
        room.created_at -= timedelta(days=created_days)
        room.updated_at -= timedelta(days=updated_days)
        session.commit()
    db.dispose()


def rooms_left(database_url: str) -> set[str]:
    db = create_engine(database_url)
    with db.connect() as connection:
        left = set(connection.scalars(select(Room.id)))
    db.dispose()
    return left


def four_rooms(client: TestClient) -> dict[str, Any]:
    """A room nobody joined, a game under way, a resigned game and a game against the computer."""
    unstarted = client.post("/api/rooms", json={"host_seat": 0}).json()
    playing = new_room(client)
    play(client, playing, 2)
    resigned = new_room(client)
    client.post(f"/api/rooms/{resigned['room']}/resign", headers=bearer(resigned["tokens"][0]))
    computer = client.post("/api/rooms", json={"host_seat": 1, "computer": "easy"}).json()
    return {"unstarted": unstarted, "playing": playing, "resigned": resigned, "computer": computer}


def test_rooms_never_started_go_after_7_days_finished_ones_after_90(
    client: TestClient, database_url: str
) -> None:
    rooms = four_rooms(client)
    for room in rooms.values():
        age(database_url, room["room"], created_days=8, updated_days=8)
    db = create_engine(database_url)
    with Session(db) as session:
        removed = remove_expired_rooms(
            session, unstarted_after=timedelta(days=7), finished_after=timedelta(days=90)
        )
        assert removed == [rooms["unstarted"]["room"]]
    age(database_url, rooms["resigned"]["room"], created_days=83, updated_days=83)
    with Session(db) as session:
        removed = remove_expired_rooms(
            session, unstarted_after=timedelta(days=7), finished_after=timedelta(days=90)
        )
        assert removed == [rooms["resigned"]["room"]]
    assert rooms_left(database_url) == {rooms["playing"]["room"], rooms["computer"]["room"]}
    gone = client.get(
        f"/api/rooms/{rooms['resigned']['room']}", headers=bearer(rooms["resigned"]["spectator"])
    )
    assert gone.status_code in (403, 404)
    assert client.get(f"/s/{rooms['unstarted']['token']}").status_code == 404
    with db.connect() as connection:
        for table in ("seats", "links", "moves", "room_events"):
            count = connection.scalar(
                text(f"SELECT count(*) FROM {table} WHERE room_id = :r"),
                {"r": rooms["resigned"]["room"]},
            )
            assert count == 0, table
    db.dispose()


def test_the_server_sweeps_by_itself(settings: Settings, database_url: str) -> None:
    quick = settings.model_copy(update={"room_sweep_interval": 0.2})
    with TestClient(create_app(quick)) as client:
        room = client.post("/api/rooms", json={"host_seat": 0}).json()
        kept = client.post("/api/rooms", json={"host_seat": 0}).json()
        age(database_url, room["room"], created_days=7.5, updated_days=7.5)
        deadline = time.monotonic() + 10
        while room["room"] in rooms_left(database_url) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert rooms_left(database_url) == {kept["room"]}


@pytest.mark.slow
def test_two_processes_sweep_without_fighting(database_url: str, tmp_path: Path) -> None:
    sweeping = {"ROOM_SWEEP_INTERVAL": "0.3"}
    with (
        two_processes(database_url, tmp_path, sweeping) as (first, second),
        httpx.Client(timeout=10) as http,
    ):
        made = [
            http.post(f"{server.url}/api/rooms", json={"host_seat": 0}).json()
            for server in (first, second)
            for _ in range(5)
        ]
        for room in made:
            age(database_url, room["room"], created_days=8, updated_days=8)
        deadline = time.monotonic() + 15
        while rooms_left(database_url) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert rooms_left(database_url) == set()
        for server in (first, second):
            assert http.get(f"{server.url}/healthz").json() == {"status": "ok"}
            for room in made:
                answer = http.get(
                    f"{server.url}/api/rooms/{room['room']}", headers=bearer(room["token"])
                )
                assert answer.status_code in (403, 404)
    for server in (first, second):
        assert "Traceback" not in server.log.read_text()
