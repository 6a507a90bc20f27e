"""The room hub: who is watching which room in this process, and how they hear about changes.

What travels is only "room R changed" (and the new version when the move log grew); every
socket then loads and renders its own viewer's board (players and spectators see different
controls). On SQLite one process serves everything and `Hub.room_changed` is the whole story.
On PostgreSQL several processes may serve one room: `services` queues a `NOTIFY` inside the
move's transaction (PostgreSQL delivers it only after the commit) and every process runs
`Hub.listen_postgres`, which wakes the local sockets of that room.

Each socket has a small bounded queue of wake-ups; a socket that lets it fill up (a slow or
stuck client) is dropped instead of slowing the room down. It resynchronises when it reconnects,
because a (re)connect always starts with the full board.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import psycopg
from sqlalchemy import make_url
from starlette.websockets import WebSocket

from app.roomview import Viewer
from app.services import NOTIFY_CHANNEL

log = logging.getLogger(__name__)

WAKE_QUEUE_SIZE = 16


class RoomSocket:
    """One open page's socket, as the hub sees it."""

    def __init__(self, websocket: WebSocket, viewer: Viewer) -> None:
        self.websocket = websocket
        self.viewer = viewer
        self.wakeups: asyncio.Queue[None] = asyncio.Queue(maxsize=WAKE_QUEUE_SIZE)
        self.dropped = asyncio.Event()
        #: Board updates and replies must not interleave on the wire.
        self.send_lock = asyncio.Lock()

    def wake(self) -> None:
        """Ask for a fresh board; a socket that is too far behind is dropped."""
        try:
            self.wakeups.put_nowait(None)
        except asyncio.QueueFull:
            self.dropped.set()

    async def next_wakeup(self) -> None:
        """Wait for a wake-up, then swallow the others already queued (one render serves all)."""
        await self.wakeups.get()
        while not self.wakeups.empty():
            self.wakeups.get_nowait()


class Hub:
    """Publish/subscribe for the rooms served by this process."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._rooms: dict[str, set[RoomSocket]] = {}
        self._versions: dict[str, int] = {}
        self.listening = asyncio.Event()

    def join(self, room_id: str, socket: RoomSocket) -> None:
        self._rooms.setdefault(room_id, set()).add(socket)

    def leave(self, room_id: str, socket: RoomSocket) -> None:
        sockets = self._rooms.get(room_id)
        if sockets is None:
            return
        sockets.discard(socket)
        if not sockets:
            del self._rooms[room_id]
            self._versions.pop(room_id, None)

    def sockets(self, room_id: str) -> frozenset[RoomSocket]:
        return frozenset(self._rooms.get(room_id, ()))

    @property
    def socket_count(self) -> int:
        return sum(len(s) for s in self._rooms.values())

    def deliver(self, room_id: str, version: int | None) -> None:
        """Wake every local socket of the room (runs on the event loop).

        A version already delivered is skipped: on PostgreSQL a move made in this process is
        delivered at once and then comes back through LISTEN.
        """
        sockets = self._rooms.get(room_id)
        if not sockets:
            return
        if version is not None:
            if version <= self._versions.get(room_id, -1):
                return
            self._versions[room_id] = version
        for socket in sockets:
            socket.wake()

    def deliver_all(self) -> None:
        """Wake every local socket (after a gap in the notifications)."""
        for room_id in list(self._rooms):
            self.deliver(room_id, None)

    def room_changed(self, room_id: str, version: int | None) -> None:
        """`services.Publisher`: safe to call from any thread, after the commit."""
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:
            self.deliver(room_id, version)
        else:
            self._loop.call_soon_threadsafe(self.deliver, room_id, version)

    async def listen_postgres(self, database_url: str, *, retry_delay: float = 1.0) -> None:
        """Deliver the rooms' NOTIFY messages for ever, reconnecting when the link breaks."""
        conninfo = make_url(database_url).set(drivername="postgresql").render_as_string(False)
        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
                async with connection:
                    await connection.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.listening.set()
                    self.deliver_all()
                    async for note in connection.notifies():
                        self._on_notify(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("LISTEN connection lost; reconnecting")
            self.listening.clear()
            await asyncio.sleep(retry_delay)

    def _on_notify(self, payload: str) -> None:
        room_id, _, version = payload.partition(" ")
        if version.isdigit():
            self.deliver(room_id, int(version))
        else:
            self.deliver(room_id, None)


async def run_periodically(interval: float, work: Callable[[], object]) -> None:
    """Run blocking `work` in a worker thread every `interval` seconds, for ever."""
    while True:
        await asyncio.sleep(interval)
        try:
            await asyncio.to_thread(work)
        except Exception:
            log.exception("periodic task failed")
