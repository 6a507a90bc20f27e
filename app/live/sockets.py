"""What the room hub (`app.live.hub`) knows of the pages watching a room.

`BoardGroup` gathers the viewers who see the very same board (and `ChatGroup`, app.reads.chatview, the
same chat); `RoomSocket` is one open page's socket: the newest board and chat it has not sent
yet, and the frame of the last board it was sent, which decides whether the next one can go as a
patch (`app.live.frames`). `BoardMaker` and `ChatMaker` are the shapes of the functions that draw
a room's boards and chat for the hub (`app.ui.board`, `app.ui.chat`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from starlette.websockets import WebSocket

from app.live.frames import BoardSummary, DrawnBoard, Offer
from app.reads.chatview import ChatGroup
from app.reads.roomview import RoomFacts, Viewer


@dataclass(frozen=True)
class BoardGroup:
    """Viewers who see the very same board: the same viewer (every spectator of a room is alike),
    language and address for links."""

    viewer: Viewer
    lang: str
    base_url: str

    @classmethod
    def of(cls, viewer: Viewer, lang: str, base_url: str) -> BoardGroup:
        if viewer.kind == "spectator":  # a spectator's board shows no links of its own
            viewer = replace(viewer, token="")
        return cls(viewer=viewer, lang=lang, base_url=base_url)


#: Called with each group's board as soon as it is drawn (from the thread that draws).
HandOut = Callable[[BoardGroup, DrawnBoard], None]

#: Draws a room's boards (blocking; in a worker thread, or on the event loop when `AtOnce`):
#: given the room, its facts when still current (None: read them again), the newest version
#: known, the groups watching, where to hand each board out as soon as it is drawn (the player to
#: move first) and the previous board of the groups whose sockets all showed it (for these it may
#: draw only the changed parts: `DrawnBoard.complete`), returns the facts and version used and
#: the board drawn for every group.
BoardMaker = Callable[
    [
        str,
        RoomFacts | None,
        int,
        frozenset[BoardGroup],
        HandOut,
        Mapping[BoardGroup, BoardSummary],
    ],
    tuple[RoomFacts, int, Mapping[BoardGroup, DrawnBoard]],
]


#: Whether a room's boards can be drawn with nothing to read (given the room, its current facts
#: and the newest version known): then the hub draws them on the event loop, not in a thread.
AtOnce = Callable[[str, RoomFacts, int], bool]


#: Draws a room's chat (blocking; runs in a worker thread) for the groups watching: the HTML
#: per group (none when the room's chat is still empty).
ChatMaker = Callable[[str, frozenset[ChatGroup]], Mapping[ChatGroup, str]]


class RoomSocket:
    """One open page's socket, as the hub sees it."""

    def __init__(self, websocket: WebSocket, viewer: Viewer, *, lang: str, base_url: str) -> None:
        self.websocket = websocket
        self.viewer = viewer
        self.group = BoardGroup.of(viewer, lang, base_url)
        self.chat_group = ChatGroup.of(viewer, lang)
        self._board: str | None = None
        self._board_frame: str | None = None
        #: The frame of the last board taken to be sent (None: none yet, or the page asked for
        #: the whole board).
        self.sent_frame: str | None = None
        self._chat: str | None = None
        #: Called when a board or a chat is offered (the connection's sender, `app.routes.ws`).
        self.on_offer: Callable[[], object] | None = None
        #: Board updates and replies must not interleave on the wire.
        self.send_lock = asyncio.Lock()

    def offer_board(self, board: Offer) -> bool:
        """Make `board` (whole, or a patch when this socket was sent the one before) the next
        board to send, replacing one not sent yet; nothing when it shows what was sent last.
        False when this socket needs the whole board and only the changed parts were drawn."""
        if board.frame == self.sent_frame:
            self._board = self._board_frame = None
            return True
        html = board.patch if self.sent_frame == board.base else None
        if html is None and not board.complete:
            return False
        self.offer(board.whole if html is None else html, board.frame)
        return True

    def offer(self, html: str, frame: str | None = None) -> None:
        """Make `html` (the board of `frame`) the next board to send (replacing one not sent)."""
        self._board = html
        self._board_frame = frame
        self._wake()

    def shows(self, frame: str) -> bool:
        """Whether the board of `frame` is the last one taken to be sent, with none newer
        waiting (then a patch on top of it will do)."""
        return self.sent_frame == frame and self._board is None

    def want_whole(self) -> None:
        """The page shows a board other than the one last sent: the next board goes whole (a
        patch not sent yet is dropped: it would not fit either)."""
        self.sent_frame = None
        self._board = self._board_frame = None

    def _take_board(self) -> str:
        html, self._board = self._board or "", None
        self.sent_frame, self._board_frame = self._board_frame, None
        return html

    def offer_chat(self, html: str) -> None:
        """Make `html` the next chat to send (replacing one not sent yet)."""
        self._chat = html
        self._wake()

    def has_frame(self) -> bool:
        """Whether a board or a chat waits to be sent (`take_frame`)."""
        return self._board is not None or self._chat is not None

    def take_frame(self) -> str:
        """The board waiting to be sent (the newest offered), else the chat."""
        if self._board is not None:
            return self._take_board()
        html, self._chat = self._chat or "", None
        return html

    def _wake(self) -> None:
        if self.on_offer is not None:
            self.on_offer()
