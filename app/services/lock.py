"""The room lock every write to a room holds for the rest of its transaction.

PostgreSQL: `SELECT ... FOR UPDATE` on the room's row. SQLite: a per-room lock inside this
process, then a no-op UPDATE as the transaction's first statement, which takes SQLite's write
lock (so other processes on the same file wait too).

`room_lock` yields the room's ORM object; `room_columns_lock` only the columns asked for, as a
plain row (a move's lock: it needs a handful of values, not the whole row with its snapshot).
The statements of a move's lock are built once, the room id bound, and run on the transaction's
connection: building `WHERE id = ...` anew for each move cost ~1 M instructions (docs/performance.md).
"""

from __future__ import annotations

import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import Row, Select, bindparam, select, update
from sqlalchemy.orm import InstrumentedAttribute, Session

from app.models import Room
from app.services.errors import RoomNotFound

_Locked = TypeVar("_Locked")

_SQLITE_LOCKS = tuple(threading.Lock() for _ in range(64))

_ROOMS = Room.metadata.tables[Room.__tablename__]
#: SQLite's write lock, taken by the transaction's first statement: an UPDATE that changes nothing.
_SQLITE_WRITE_LOCK = (
    update(_ROOMS).where(_ROOMS.c.id == bindparam("room_id")).values(version=_ROOMS.c.version)
)


@cache
def _columns_query(names: tuple[str, ...], for_update: bool) -> Select[Any]:
    """The room's columns `names`, of the room `:room_id` (locked `FOR UPDATE` if asked)."""
    query = select(*(_ROOMS.c[name] for name in names)).where(_ROOMS.c.id == bindparam("room_id"))
    return query.with_for_update() if for_update else query


@contextmanager
def room_lock(session: Session, room_id: str) -> Iterator[Room]:
    """Hold the room's lock for the rest of the transaction and yield its row (else
    `RoomNotFound`); a transaction left open is rolled back."""

    def read(for_update: bool) -> Room | None:
        if for_update:
            return session.scalar(select(Room).where(Room.id == room_id).with_for_update())
        return session.get(Room, room_id, populate_existing=True)

    with _locked(session, room_id, read) as room:
        yield room


@contextmanager
def room_columns_lock(
    session: Session, room_id: str, *columns: InstrumentedAttribute[Any]
) -> Iterator[Row[Any]]:
    """As `room_lock`, yielding only the room's `columns` (a plain row, read with one Core
    `SELECT`; nothing enters the session's identity map)."""
    names = tuple(column.key for column in columns)

    def read(for_update: bool) -> Row[Any] | None:
        query = _columns_query(names, for_update)
        return session.connection().execute(query, {"room_id": room_id}).first()

    with _locked(session, room_id, read) as row:
        yield row


@contextmanager
def _locked(
    session: Session, room_id: str, read: Callable[[bool], _Locked | None]
) -> Iterator[_Locked]:
    """Take the room's lock, then `read` it (with `FOR UPDATE` on PostgreSQL, where that is the
    lock) and hold both for the rest of the transaction, which is rolled back if left open."""
    if session.get_bind().dialect.name == "sqlite":
        lock = _SQLITE_LOCKS[zlib.crc32(room_id.encode()) % len(_SQLITE_LOCKS)]
        with lock:
            session.connection().execute(_SQLITE_WRITE_LOCK, {"room_id": room_id})
            with _held(session, room_id, read(False)) as held:
                yield held
        return
    with _held(session, room_id, read(True)) as held:
        yield held


@contextmanager
def _held(session: Session, room_id: str, room: _Locked | None) -> Iterator[_Locked]:
    """The locked room (or its row) for the rest of the transaction, which is rolled back if
    left open."""
    if room is None:
        session.rollback()
        raise RoomNotFound(room_id)
    try:
        yield room
    finally:
        if session.in_transaction():
            session.rollback()


class Clock:
    """The server's time: what writes stamp on rows and presence measures absence against
    (`now`), and what its throttles count with (`monotonic`), both `ahead` seconds past the
    system's. One per process (`clock`); tests of absence move it ahead instead of waiting."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def now(self) -> datetime:
        return datetime.now(UTC) + timedelta(seconds=self.ahead)

    def monotonic(self) -> float:
        return time.monotonic() + self.ahead


clock = Clock()


def now() -> datetime:
    """The time a write stamps on its rows."""
    return clock.now()
