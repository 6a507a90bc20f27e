"""Presence: writes the server processes' heartbeats and the live sockets (`connections`).

A socket counts as online while its process's heartbeat is fresh; a killed process cannot say
so, so the others notice its silence (`rooms_gone_silent`) and redraw its rooms.
"""

from __future__ import annotations

import time

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from app.models import Connection, ServerProcess
from app.notify import queue_notify
from app.roomview import Viewer


def register_process(session: Session, *, process_id: str, forget_after: float = 300.0) -> None:
    """Announce a server process and forget processes silent for `forget_after` seconds."""
    now = time.time()
    session.execute(delete(ServerProcess).where(ServerProcess.heartbeat_at < now - forget_after))
    session.add(ServerProcess(id=process_id, heartbeat_at=now))
    session.commit()


def heartbeat(session: Session, *, process_id: str) -> None:
    """Keep this process's connections counted as online."""
    result = session.execute(
        update(ServerProcess).where(ServerProcess.id == process_id).values(heartbeat_at=time.time())
    )
    if result.rowcount == 0:  # type: ignore[attr-defined]
        session.add(ServerProcess(id=process_id, heartbeat_at=time.time()))
    session.commit()


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
    queue_notify(session, viewer.room_id, None)
    session.commit()


def connection_closed(session: Session, *, connection_id: str, room_id: str) -> None:
    """Forget a socket that closed and tell the room."""
    session.execute(delete(Connection).where(Connection.id == connection_id))
    queue_notify(session, room_id, None)
    session.commit()
