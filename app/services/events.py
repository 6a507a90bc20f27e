"""The room's log of happenings that are not moves: a seat link reissued, a resignation, an
abort, a game claimed, the computer standing in for an absent player and handing back, a
takeback asked for, accepted by one of several players, and declined (a takeback done is a
row of the move log itself).

Each is a `RoomEvent` row, only ever inserted, written inside the transaction of the write
it records (under the room lock), logged after the first `at_version` moves of the room.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Room, RoomEvent
from app.services.lock import now

KINDS = (
    "seat_link_reissued",
    "resigned",
    "aborted",
    "claimed",
    "standin_started",
    "standin_ended",
    "takeback_asked",
    "takeback_declined",
    "takeback_accepted",
)


def log_event(session: Session, room: Room, kind: str, seat: int | None) -> RoomEvent:
    """Append the event `kind` of `seat` to the locked `room`'s log (flushed, not committed)."""
    if kind not in KINDS:
        raise ValueError(f"unknown room event {kind!r}")
    last = session.scalar(select(func.max(RoomEvent.seq)).where(RoomEvent.room_id == room.id))
    event = RoomEvent(
        room_id=room.id,
        seq=0 if last is None else last + 1,
        kind=kind,
        seat=seat,
        at_version=room.version,
        created_at=now(),
    )
    session.add(event)
    session.flush()
    return event
