"""The open pages whose token no longer opens their room are closed: after a seat link was
reissued (here or, on PostgreSQL, in another process), after a listener reconnected (a
reissue's notification may have been lost meanwhile) and for each socket once it joined the
room's hub (one let in just before a reissue was missed by the reissue's closing).

Which tokens still hold is read from the database (`app.services.seats.lost_viewers`), never
from what the process remembers. A page closed so gets 1012; it reloads (static/js/connection.js)
and then says the link no longer opens the room.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from starlette.websockets import WebSocket

from app.live.sockets import RoomSocket
from app.reads.roomview import Viewer

log = logging.getLogger(__name__)

#: Given a room and viewers of it, those whose token no longer opens it (blocking: reads it).
ViewerCheck = Callable[[str, frozenset[Viewer]], set[Viewer]]


class Holders:
    """Checks the tokens of a room's sockets in this process and closes those that lost it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        #: The check against the database (None: nothing is checked, as in a hub under test).
        self.check: ViewerCheck | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def recheck(self, room_id: str, sockets: list[RoomSocket]) -> None:
        """Check `sockets` of `room_id` in the background (runs on the event loop)."""
        if self.check is None or not sockets:
            return
        task = self._loop.create_task(self._close_lost(room_id, sockets, self.check))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _close_lost(
        self, room_id: str, sockets: list[RoomSocket], check: ViewerCheck
    ) -> None:
        viewers = frozenset(socket.viewer for socket in sockets)
        try:
            lost = await asyncio.to_thread(check, room_id, viewers)
        except Exception:
            log.exception("could not check the tokens of room %s; closing its pages", room_id)
            lost = set(viewers)  # they reconnect, and are checked then
        for socket in sockets:
            if socket.viewer in lost:
                await close_quietly(socket.websocket)


async def close_quietly(websocket: WebSocket) -> None:
    """Close a socket whose token no longer opens its room (1012: its page reloads)."""
    try:
        await websocket.close(code=1012, reason="seat links changed")
    except Exception:  # already closed
        log.debug("a socket closed before it could be told the seat links changed")
