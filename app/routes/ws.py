"""`/ws/rooms/{room_id}`: one socket per open page, carrying that viewer's board as HTML.

Authentication: the room's cookie (set by the link routes) or `?token=`. The handshake's
Origin must be this server's (or an allowed one); otherwise the socket is refused.

Server to client: text frames of HTML from `app.ui.board.draw_board`, sent on connect and after
every change of the room (a move, a seat claimed, presence, a rematch): the whole board — an htmx
fragment whose root element has `id="board"`, `data-version="V"`, `data-frame` and `hx-swap-oob`
— on connect, or a patch with only the parts that changed since the board last sent
(`app.live.frames`). Once the room's chat has
a message, also the viewer's chat (`app.ui.chat.render_chat_update`: out-of-band swaps of the
chat's message lists), on connect and after every change of the chat; a frame is either a board
or a chat, never both.

The socket only carries boards: moves are posted over HTTP (the page's form, the JSON API). The
client may send `board` (a patch did not fit the board it shows): the next board it gets is
whole. Any other message from the client changes nothing and gets back
`<div id="move-error" hx-swap-oob="true" role="alert">reason</div>`. Messages are limited to
8 KiB and to 100 per 20 seconds per connection; beyond that the socket is closed with a
policy-violation (or too-big) code.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import deque
from collections.abc import Callable

import anyio
from starlette import status
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.deps import base_url, get_hub, get_sessionmaker, get_settings
from app.edge.cookies import cookie_name
from app.edge.guards import origin_allowed
from app.i18n import language_of
from app.live.frames import WHOLE_BOARD_PLEASE
from app.live.sockets import RoomSocket
from app.models import Room
from app.reads import catalogs
from app.reads.roomview import Viewer
from app.services import presence, seats

MAX_MESSAGE_BYTES = 8 * 1024
RATE_LIMIT = 100
RATE_WINDOW = 20.0
SEND_TIMEOUT = 10.0
#: The answer to any other message from the client: this socket only sends boards.
NOT_HERE = (
    '<div id="move-error" hx-swap-oob="true" role="alert">'
    "This socket only sends boards: moves are posted over HTTP.</div>"
)


async def room_socket(websocket: WebSocket, room_id: str, token: str | None) -> None:
    settings = get_settings(websocket)
    if not origin_allowed(websocket.scope["headers"], settings.extra_origins):
        await websocket.close(code=status.WS_1008_POLICY_VIOLATION, reason="origin not allowed")
        return
    token = token or websocket.cookies.get(cookie_name(room_id))
    viewer = await run_in_threadpool(_resolve, websocket, token) if token else None
    if viewer is None or viewer.room_id != room_id:
        await websocket.close(code=status.WS_1008_POLICY_VIOLATION, reason="no access to room")
        return
    if not await run_in_threadpool(_catalog_here, websocket, room_id):
        reason = "this server does not have the room's catalog"
        await websocket.close(code=status.WS_1008_POLICY_VIOLATION, reason=reason)
        return
    await websocket.accept()
    await _serve(websocket, viewer)


def _catalog_here(websocket: WebSocket, room_id: str) -> bool:
    """Whether this server has the numbers the room is pinned to (`app.reads.catalogs`)."""
    with get_sessionmaker(websocket)() as session:
        room = session.get(Room, room_id)
        return room is not None and catalogs.numbers_here(room)


def _resolve(websocket: WebSocket, token: str) -> Viewer | None:
    with get_sessionmaker(websocket)() as session:
        return seats.resolve_token(session, token=token)


async def _serve(websocket: WebSocket, viewer: Viewer) -> None:
    hub = get_hub(websocket)
    sessions = get_sessionmaker(websocket)
    process_id: str = websocket.app.state.process_id
    connection_id = secrets.token_hex(16)
    socket = RoomSocket(
        websocket, viewer, lang=language_of(websocket), base_url=base_url(websocket)
    )

    def opened() -> None:
        with sessions() as session:
            presence.connection_opened(
                session, connection_id=connection_id, process_id=process_id, viewer=viewer
            )

    def closed() -> None:
        with sessions() as session:
            presence.connection_closed(session, connection_id=connection_id, room_id=viewer.room_id)

    # The receiving runs in the connection's task, the sending in a task of its own while there
    # is something to send (`Sender`). A sender that cannot send ends the receiving.
    with anyio.CancelScope() as receiving:
        sender = Sender(socket, receiving.cancel)
        socket.on_offer = sender.wake
        try:
            await run_in_threadpool(opened)
            hub.join(viewer.room_id, socket)
            hub.recheck(viewer.room_id, [socket])  # a reissue since `_resolve` missed this socket
            hub.room_changed(viewer.room_id, None)  # presence changed; this socket's first board
            hub.chat_changed(viewer.room_id)  # the chat, for a page that missed messages offline
            await _receive(socket)
        finally:
            socket.on_offer = None
            sender.cancel()
            with anyio.CancelScope(shield=True):
                hub.leave(viewer.room_id, socket)
                await run_in_threadpool(closed)
                hub.room_changed(viewer.room_id, None)


class Sender:
    """Sends a socket's boards and chats from a task started when one is offered, which ends when
    none is left: an idle socket keeps no task waiting (its stack would be walked by every full
    pass of the collector, and a wait made for every frame would outlive its young passes). A
    client stuck for `SEND_TIMEOUT` is closed; then, or when the socket is gone, `stop`."""

    __slots__ = ("socket", "stop", "task")

    def __init__(self, socket: RoomSocket, stop: Callable[[], object]) -> None:
        self.socket = socket
        self.stop = stop
        self.task: asyncio.Task[None] | None = None

    def wake(self) -> None:
        """Something was offered: send it, unless the task that sends is still at work (it sends
        whatever waits before it ends)."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._send())

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _send(self) -> None:
        try:
            if not await _send_waiting(self.socket):
                self.stop()
        finally:
            self.task = None


async def _send_waiting(socket: RoomSocket) -> bool:
    """Send what waits, the newest board first; False when the socket cannot be sent to."""
    while socket.has_frame():
        html = socket.take_frame()
        try:
            # A deadline on this task, not `wait_for`, which would send from a task of its own.
            async with socket.send_lock, asyncio.timeout(SEND_TIMEOUT):
                await socket.websocket.send_text(html)
        except TimeoutError:
            await _close(socket.websocket, status.WS_1013_TRY_AGAIN_LATER, "too far behind")
            return False
        except (WebSocketDisconnect, RuntimeError):
            return False
    return True


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(RuntimeError):  # already closed by the other side
        await websocket.close(code=code, reason=reason)


async def _receive(socket: RoomSocket) -> None:
    """Read the client's messages, enforcing the size and rate limits: `board` asks for the whole
    board, any other gets `NOT_HERE`."""
    websocket = socket.websocket
    recent: deque[float] = deque()
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        now = time.monotonic()
        recent.append(now)
        while recent and recent[0] < now - RATE_WINDOW:
            recent.popleft()
        if len(recent) > RATE_LIMIT:
            await _close(websocket, status.WS_1008_POLICY_VIOLATION, "too many messages")
            return
        # The size as sent: bytes that are no UTF-8 count once, not as the three bytes of "\ufffd".
        raw = message.get("bytes")
        size = len(raw) if raw is not None else len((message.get("text") or "").encode())
        if size > MAX_MESSAGE_BYTES:
            await _close(websocket, status.WS_1009_MESSAGE_TOO_BIG, "message too big")
            return
        if message.get("text") == WHOLE_BOARD_PLEASE:
            socket.want_whole()
            get_hub(websocket).redraw(socket.viewer.room_id)
            continue
        async with socket.send_lock:
            await websocket.send_text(NOT_HERE)
