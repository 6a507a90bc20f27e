"""The room hub without a database: viewers of room "r1", a painter that records what it is
asked for, and sockets with no client behind them."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import cast

from starlette.websockets import WebSocket

from app.live.frames import BoardSummary, DrawnBoard
from app.live.sockets import BoardGroup, HandOut, RoomSocket
from app.reads.roomview import RoomFacts, Viewer
from support.boards import playing_facts, text_board

Boards = Mapping[BoardGroup, DrawnBoard]
Previous = Mapping[BoardGroup, BoardSummary]

SEAT_0 = Viewer(room_id="r1", seat=0, kind="seat", token="a" * 43)
SEAT_1 = Viewer(room_id="r1", seat=1, kind="seat", token="b" * 43)
SPECTATOR = Viewer(room_id="r1", seat=None, kind="spectator", token="c" * 43)
OTHER_SPECTATOR = Viewer(room_id="r1", seat=None, kind="spectator", token="d" * 43)


class FakePainter:
    """Records what the hub asks for and draws "who@version" for every group (`draw`; a subclass
    may draw otherwise, or act on the boards drawn before returning them: `drawn`)."""

    def __init__(self, room_version: int = 0) -> None:
        self.room_version = room_version
        self.calls: list[tuple[str, bool, int, frozenset[BoardGroup]]] = []
        self.fail_next = False

    def __call__(
        self,
        room_id: str,
        facts: RoomFacts | None,
        version: int,
        groups: frozenset[BoardGroup],
        hand_out: HandOut | None = None,
        previous: Mapping[BoardGroup, BoardSummary] | None = None,
    ) -> tuple[RoomFacts, int, Mapping[BoardGroup, DrawnBoard]]:
        self.calls.append((room_id, facts is None, version, groups))
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("database gone")
        if facts is None:
            facts = playing_facts(room_id, self.room_version, spectators=0)
        version = max(version, facts.version)
        boards = {group: self.draw(group, version) for group in groups}
        return facts, version, self.drawn(boards, hand_out, previous or {})

    def draw(self, group: BoardGroup, version: int) -> DrawnBoard:
        return text_board(f"{group.viewer.kind}{group.viewer.seat}@{version}")

    def drawn(self, boards: Boards, hand_out: HandOut | None, previous: Previous) -> Boards:
        """The boards the hub gets, from those drawn: the same here."""
        return boards


def socket_for(viewer: Viewer, lang: str = "en") -> RoomSocket:
    return RoomSocket(cast(WebSocket, object()), viewer, lang=lang, base_url="http://x")


async def next_frame(socket: RoomSocket) -> str:
    """The newest board (else chat) offered to `socket`, waited for as the connection's sender
    would be woken (`RoomSocket.on_offer`)."""
    offered = asyncio.Event()
    socket.on_offer = offered.set
    try:
        while not socket.has_frame():
            offered.clear()
            await offered.wait()
    finally:
        socket.on_offer = None
    return socket.take_frame()


async def board(socket: RoomSocket) -> str:
    return await asyncio.wait_for(next_frame(socket), 5)
