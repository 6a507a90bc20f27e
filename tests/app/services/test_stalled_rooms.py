"""A game played on from a position against the computer that nobody plays on is removed like
a room that never started."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session
from support.rooms import bearer, new_room

from app.models import Room
from app.services.lifetime import remove_expired_rooms


def _age(database_url: str, room_id: str, *, days: float, unchanged_days: float) -> None:
    """Make the room look opened `days` ago and last changed `unchanged_days` ago."""
    db = create_engine(database_url)
    try:
        with Session(db) as session:
            room = session.get(Room, room_id)
            assert room is not None
            room.created_at -= timedelta(days=days)
            room.updated_at -= timedelta(days=unchanged_days)
            session.commit()
    finally:
        db.dispose()


def _fork(client: TestClient) -> tuple[str, str]:
    """A resigned game and the room that plays on from its start against the computer."""
    room = new_room(client)
    host = room["tokens"][0]
    assert client.post(f"/api/rooms/{room['room']}/resign", headers=bearer(host)).status_code == 200
    assert client.get(f"/s/{host}").status_code == 200
    forked = client.post(
        f"/rooms/{room['room']}/fork",
        data={"at": "0", "seat": "0", "computer": "easy"},
        follow_redirects=False,
    )
    assert forked.status_code == 303, forked.text
    table = client.get(forked.headers["location"], follow_redirects=False)
    return room["room"], table.headers["location"].rsplit("/", 1)[1]


def test_a_stalled_fork_against_the_computer_goes_after_7_days(
    client: TestClient, database_url: str
) -> None:
    source, stalled = _fork(client)
    _, recent = _fork(client)
    for room_id in (source, stalled):
        _age(database_url, room_id, days=8, unchanged_days=8)
    _age(database_url, recent, days=8, unchanged_days=6)
    db = create_engine(database_url)
    try:
        with Session(db) as session:
            removed = remove_expired_rooms(
                session, unstarted_after=timedelta(days=7), finished_after=timedelta(days=90)
            )
        with Session(db) as session:
            left = set(session.scalars(select(Room.id)))
    finally:
        db.dispose()
    assert removed == [stalled]
    assert {source, recent} <= left
