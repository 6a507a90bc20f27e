"""What an idle socket keeps: once a board is sent, neither the socket nor its room's feed holds
it (a board is ~60 KB; docs/performance.md, "Memory per open socket")."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import cast

from starlette.websockets import WebSocket
from support.boards import text_board
from support.coroutines import run_async
from support.hub import SEAT_0, SPECTATOR, Boards, FakePainter, Previous

from app.live.frames import DrawnBoard
from app.live.hub import Hub
from app.live.sockets import BoardGroup, HandOut, RoomSocket
from app.routes import ws


class WatchedPainter(FakePainter):
    """Draws a board per group and keeps only weak references to what it drew."""

    def __init__(self) -> None:
        super().__init__(room_version=1)
        self.watched: list[weakref.ref[DrawnBoard]] = []

    def draw(self, group: BoardGroup, version: int) -> DrawnBoard:
        return text_board(f"{group.viewer.kind}@{version}" * 100)

    def drawn(self, boards: Boards, hand_out: HandOut | None, previous: Previous) -> Boards:
        self.watched.extend(weakref.ref(b) for b in boards.values())
        return boards


class CountingWebSocket:
    """A client that reads everything: counts the characters sent, keeps nothing."""

    def __init__(self) -> None:
        self.sent = 0
        self.got = asyncio.Event()

    async def send_text(self, html: str) -> None:
        self.sent += len(html)
        self.got.set()


def test_an_idle_socket_and_its_feed_keep_no_board_already_sent() -> None:
    async def scenario() -> tuple[int, int, list[bool]]:
        painter = WatchedPainter()
        hub = Hub(asyncio.get_running_loop(), painter)
        clients = [CountingWebSocket(), CountingWebSocket()]
        sockets = [
            RoomSocket(cast(WebSocket, client), viewer, lang="en", base_url="http://x")
            for client, viewer in zip(clients, (SEAT_0, SPECTATOR), strict=True)
        ]
        senders = []
        for socket in sockets:
            sender = ws.Sender(socket, lambda: None)
            socket.on_offer = sender.wake
            senders.append(sender)
            hub.join("r1", socket)
        hub.deliver("r1", 1)
        for client in clients:
            await asyncio.wait_for(client.got.wait(), 5)
        await asyncio.sleep(0.05)  # the feed is back to waiting, the senders' tasks ended
        gc.collect()
        alive = [ref() is not None for ref in painter.watched]
        idle = [sender.task is None for sender in senders]
        for socket in sockets:
            hub.leave("r1", socket)
        return len(painter.watched), min(client.sent for client in clients), alive + idle

    drawn, least_sent, gone = run_async(scenario())
    assert drawn == 2  # one board per group: the player's and the spectators'
    assert least_sent > 0  # every socket got its board
    assert gone == [False, False, True, True]  # no board kept, no sender task left waiting
