"""Presence: writes the server processes' heartbeats and the live sockets (`connections`).

A socket counts as online while its process's heartbeat is fresh; a killed process cannot say
so, so the others notice its silence (`rooms_gone_silent`) and redraw its rooms.

A seat's `last_seen_at` is when its player last showed a sign of life: written when a socket
opens or closes, while it is open with every heartbeat of its process, and on any request made
with the seat's link (a move, a chat message, an answer, a page; `seat_acted`, at most once every
few seconds per seat and process, a move's in the move's own transaction, none while a page of
the seat is open on the process: `app.deps.seen_due`). A seat with no open page
since `absent_after` seconds is *absent* (`absent_seats`); `seats_gone_absent` finds the rooms
where that just became true, so their tables can offer the present player what to do.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from app.live.notify import queue_notify
from app.models import Connection, Room, Seat, ServerProcess
from app.reads.roomview import Viewer
from app.services.lock import clock
from app.services.lock import now as stamp


def register_process(session: Session, *, process_id: str, forget_after: float = 300.0) -> None:
    """Announce a server process and forget processes silent for `forget_after` seconds."""
    now = time.time()
    session.execute(delete(ServerProcess).where(ServerProcess.heartbeat_at < now - forget_after))
    session.add(ServerProcess(id=process_id, heartbeat_at=now))
    session.commit()


def heartbeat(session: Session, *, process_id: str) -> None:
    """Keep this process's connections counted as online, and their seats as seen."""
    result = session.execute(
        update(ServerProcess).where(ServerProcess.id == process_id).values(heartbeat_at=time.time())
    )
    if result.rowcount == 0:  # type: ignore[attr-defined]
        session.add(ServerProcess(id=process_id, heartbeat_at=time.time()))
    connected = (
        select(Connection.id)
        .where(
            Connection.process_id == process_id,
            Connection.room_id == Seat.room_id,
            Connection.seat == Seat.seat,
        )
        .exists()
    )
    session.execute(
        update(Seat)
        .where(connected)
        .values(last_seen_at=stamp())
        .execution_options(synchronize_session=False)
    )
    session.commit()


def _seen(session: Session, room_id: str, seat: int | None) -> None:
    if seat is not None:
        session.execute(
            update(Seat)
            .where(Seat.room_id == room_id, Seat.seat == seat)
            .values(last_seen_at=stamp())
            .execution_options(synchronize_session=False)
        )


class RecentlySeen:
    """The seats this process wrote as seen lately: a request of the same seat within `every`
    seconds writes nothing (a bounded memory: it forgets everything past `limit` seats)."""

    def __init__(self, every: float, limit: int = 10_000) -> None:
        self.every = every
        self.limit = limit
        self._at: dict[tuple[str, int], float] = {}

    def due(self, room_id: str, seat: int) -> bool:
        """Whether this request of the seat should write it as seen (and remember that it did)."""
        now = clock.monotonic()
        last = self._at.get((room_id, seat))
        if last is not None and now - last < self.every:
            return False
        if len(self._at) >= self.limit:
            self._at.clear()
        self._at[(room_id, seat)] = now
        return True


def seat_acted(session: Session, *, room_id: str, seat: int) -> None:
    """A request made with the seat's link: its player is here, whether or not a page is open."""
    _seen(session, room_id, seat)
    session.commit()


def absent_seats(
    session: Session,
    room_id: str,
    online: tuple[bool, ...],
    *,
    absent_after: float,
    at: datetime | None = None,
) -> tuple[bool, ...]:
    """Which seats' players have had no open page for `absent_after` seconds (`online`: which
    seats have a live socket now). A seat nobody holds, or the computer's, is never absent."""
    cutoff = (at or stamp()) - timedelta(seconds=absent_after)
    absent = [False] * len(online)
    for seat, joined, seen in session.execute(
        select(Seat.seat, Seat.joined_at, Seat.last_seen_at).where(Seat.room_id == room_id)
    ):
        last = _aware(seen or joined)
        absent[seat] = not online[seat] and last < cutoff
    return tuple(absent)


def seats_gone_absent(session: Session, *, absent_after: float, window: float) -> list[str]:
    """The unfinished rooms with a seat whose player became absent in the last `window`
    seconds (last seen between `absent_after + window` and `absent_after` seconds ago)."""
    now = stamp()
    newest = now - timedelta(seconds=absent_after)
    oldest = newest - timedelta(seconds=window)
    seen = func.coalesce(Seat.last_seen_at, Seat.joined_at)
    try:
        return list(
            session.scalars(
                select(Seat.room_id)
                .join(Room, Room.id == Seat.room_id)
                .where(Room.finished.is_(False), seen <= newest, seen > oldest)
                .distinct()
            )
        )
    finally:
        session.rollback()


def _aware(moment: datetime) -> datetime:
    """SQLite hands datetimes back without their zone (they were stored in UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def rooms_gone_silent(session: Session, *, timeout: float, window: float) -> list[str]:
    """The rooms with sockets of processes whose heartbeat stopped counting in the last `window`
    seconds (older than `timeout`, but not by more than `window`): their presence just changed."""
    now = time.time()
    try:
        return list(
            session.scalars(
                select(Connection.room_id)
                .join(ServerProcess, ServerProcess.id == Connection.process_id)
                .where(
                    ServerProcess.heartbeat_at <= now - timeout,
                    ServerProcess.heartbeat_at > now - timeout - window,
                )
                .distinct()
            )
        )
    finally:
        session.rollback()


def unregister_process(session: Session, *, process_id: str) -> list[str]:
    """A clean shutdown: drop this process and its connections; returns the rooms affected."""
    rooms = list(
        session.scalars(
            select(Connection.room_id).where(Connection.process_id == process_id).distinct()
        )
    )
    session.execute(delete(Connection).where(Connection.process_id == process_id))
    session.execute(delete(ServerProcess).where(ServerProcess.id == process_id))
    for room_id in rooms:
        queue_notify(session, room_id, None)
    session.commit()
    return rooms


def connection_opened(
    session: Session, *, connection_id: str, process_id: str, viewer: Viewer
) -> None:
    """Record a live socket (a player's seat, or a spectator) and tell the room."""
    seat = viewer.seat if viewer.kind == "seat" else None
    session.add(
        Connection(id=connection_id, process_id=process_id, room_id=viewer.room_id, seat=seat)
    )
    _seen(session, viewer.room_id, seat)
    queue_notify(session, viewer.room_id, None)
    session.commit()


def connection_closed(session: Session, *, connection_id: str, room_id: str) -> None:
    """Forget a socket that closed and tell the room."""
    seat = session.scalar(select(Connection.seat).where(Connection.id == connection_id))
    _seen(session, room_id, seat)
    session.execute(delete(Connection).where(Connection.id == connection_id))
    queue_notify(session, room_id, None)
    session.commit()
