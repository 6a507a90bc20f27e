"""Room lifetime: the server removes old rooms by itself (a task in the app's lifespan).

A room that never started (a seat still free, so no game was played) is removed
`UNSTARTED_ROOM_DAYS` after it was opened, and so is a game played on from a position (a fork)
against the computer that stalled: unfinished and unchanged for as long (its one player left
it; nobody else waits for it). A finished room (its last move played, resigned,
aborted or claimed; or an imported record) `FINISHED_ROOM_DAYS` after its last change. A game
under way is kept. Each sweep removes at most `batch` rooms with everything that belongs to
them. On PostgreSQL one process sweeps at a time (a transaction-level advisory lock), so
several processes never fight over the same rows.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import case, delete, func, or_, select, text
from sqlalchemy.orm import Session

from app.models import (
    Analysis,
    Connection,
    Link,
    Move,
    RematchOffer,
    Room,
    RoomEvent,
    Seat,
)
from app.services.lock import now

#: The key of the advisory lock that makes the sweep one process's at a time.
SWEEP_LOCK = 0x1A7D_0008


def expired_rooms(
    session: Session,
    *,
    at: datetime,
    unstarted_after: timedelta,
    finished_after: timedelta,
    batch: int,
) -> list[str]:
    """The rooms past their lifetime at `at` (at most `batch`, oldest first)."""
    seats_taken = (
        select(func.count())
        .select_from(Seat)
        .where(Seat.room_id == Room.id)
        .correlate(Room)
        .scalar_subquery()
    )
    never_started = (
        Room.origin.is_distinct_from("import")
        & (seats_taken + case((Room.computer_seat.is_(None), 0), else_=1) < 2)
        & (Room.created_at < at - unstarted_after)
    )
    stalled = (
        (Room.origin == "fork")
        & Room.computer_seat.is_not(None)
        & Room.finished.is_(False)
        & (Room.updated_at < at - unstarted_after)
    )
    finished = or_(Room.finished.is_(True), Room.origin == "import") & (
        Room.updated_at < at - finished_after
    )
    return list(
        session.scalars(
            select(Room.id)
            .where(or_(never_started, stalled, finished))
            .order_by(Room.created_at)
            .limit(batch)
        )
    )


def remove_expired_rooms(
    session: Session,
    *,
    unstarted_after: timedelta,
    finished_after: timedelta,
    batch: int = 500,
    at: datetime | None = None,
) -> list[str]:
    """Remove the rooms past their lifetime (see the module) and return their ids."""
    on_postgres = session.get_bind().dialect.name == "postgresql"
    if on_postgres and not session.scalar(
        text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": SWEEP_LOCK}
    ):
        session.rollback()
        return []
    rooms = expired_rooms(
        session,
        at=at or now(),
        unstarted_after=unstarted_after,
        finished_after=finished_after,
        batch=batch,
    )
    if rooms:
        for table in (Connection, Analysis, RoomEvent, RematchOffer, Move, Link, Seat):
            session.execute(delete(table).where(table.room_id.in_(rooms)))
        session.execute(delete(Room).where(Room.id.in_(rooms)))
    session.commit()
    return rooms
