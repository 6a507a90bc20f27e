"""Rooms driven through the services directly, on the test database."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.orm import Session, sessionmaker

import engine
from app.db import make_engine, make_sessionmaker
from app.reads.roomview import Viewer
from app.services import moves, rooms


@contextmanager
def first_move_against(
    database_url: str, level: str
) -> Iterator[tuple[sessionmaker[Session], Viewer, engine.Move]]:
    """A room against the computer at `level` in which the host (seat 0) played the first legal
    move: sessions on the database, the host's viewer and that move."""
    db = make_engine(database_url)
    try:
        sessions = make_sessionmaker(db)
        with sessions() as session:
            created = rooms.create_room(
                session, host_seat=0, base_url="http://test", computer=level
            )
        viewer = Viewer(room_id=created.room_id, seat=0, kind="seat", token=created.token)
        first = engine.legal_moves(engine.new_game())[0]
        with sessions() as session:
            moves.submit_move(
                session,
                room_id=created.room_id,
                seat=0,
                move=first.to_json(),
                version=0,
                client_move_id="m1",
            )
        yield sessions, viewer, first
    finally:
        db.dispose()
