"""The hub's chat feed: one read and one drawing per group, the newest chat only, the notices."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

from support.coroutines import run_async
from support.hub import (
    OTHER_SPECTATOR,
    SEAT_0,
    SEAT_1,
    SPECTATOR,
    FakePainter,
    next_frame,
    socket_for,
)

from app.live import notify
from app.live.hub import Hub
from app.reads.chatview import ChatGroup
from app.reads.yourgames import YourGame, room_tokens
from app.ui.yourgames import ago_text, state_text


class FakeChats:
    """Records the groups it is asked for and draws "chat n for seat" for each."""

    def __init__(self) -> None:
        self.calls: list[frozenset[ChatGroup]] = []

    def __call__(self, room_id: str, groups: frozenset[ChatGroup]) -> Mapping[ChatGroup, str]:
        self.calls.append(groups)
        return {g: f"chat {len(self.calls)} for {g.seat}" for g in groups}


def test_a_chat_change_draws_once_per_group_and_sockets_keep_only_the_newest() -> None:
    async def scenario() -> None:
        chats = FakeChats()
        hub = Hub(asyncio.get_running_loop(), FakePainter(), chats)
        sockets = [socket_for(v) for v in (SEAT_0, SEAT_1, SPECTATOR, OTHER_SPECTATOR)]
        for socket in sockets:
            hub.join("r1", socket)
        hub.chat_changed("r1")
        await asyncio.sleep(0.05)
        assert len(chats.calls) == 1 and len(chats.calls[0]) == 3  # two seats, the spectators
        hub.chat_changed("r1")
        await asyncio.sleep(0.05)
        frames = [await asyncio.wait_for(next_frame(s), 5) for s in sockets]
        assert frames == ["chat 2 for 0", "chat 2 for 1", "chat 2 for None", "chat 2 for None"]

        # A board and a chat waiting together go out as two frames, the board first.
        hub.room_changed("r1", 3)
        hub.chat_changed("r1")
        await asyncio.sleep(0.05)
        first = await asyncio.wait_for(next_frame(sockets[0]), 5)
        second = await asyncio.wait_for(next_frame(sockets[0]), 5)
        assert first == "seat0@3" and second == "chat 3 for 0"

        # A chat notice from another process wakes the chat feed, not the board's.
        hub._on_notify(notify.encode("r1", None).replace("*", notify.CHAT))
        await asyncio.sleep(0.05)
        assert await asyncio.wait_for(next_frame(sockets[0]), 5) == "chat 4 for 0"
        for socket in sockets:
            hub.leave("r1", socket)

    run_async(scenario())


def test_a_quiet_chat_keeps_no_task_and_a_change_while_drawing_is_drawn_after() -> None:
    async def scenario() -> None:
        chats = FakeChats()
        hub = Hub(asyncio.get_running_loop(), FakePainter(), chats)
        socket = socket_for(SEAT_0)
        hub.join("r1", socket)
        assert hub._feeds["r1"].chat_task is None
        hub.chat_changed("r1")
        hub.chat_changed("r1")  # while the first drawing has not run: drawn with it
        await asyncio.sleep(0.05)
        assert len(chats.calls) == 1
        assert hub._feeds["r1"].chat_task is None  # drawn: the room waits with no task
        hub.chat_changed("r1")
        await asyncio.sleep(0.05)
        assert len(chats.calls) == 2
        assert await asyncio.wait_for(next_frame(socket), 5) == "chat 2 for 0"
        hub.leave("r1", socket)

    run_async(scenario())


def test_the_chat_notice_reads_back() -> None:
    assert notify.decode("room1 chat") == notify.Notification("room1", None, chat=True)
    assert notify.decode("room1 *").chat is False


def test_only_room_cookies_with_a_token_count() -> None:
    token = "t" * 43
    cookies = {"ip_room1": token, "lang": "cs", "ip_room2": "x", "ip_": token}
    assert room_tokens(cookies) == {"room1": token}


def test_the_list_says_whose_turn_and_how_the_game_ended() -> None:
    now = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    game = YourGame(
        room_id="r",
        seat=1,
        opponent="friend",
        round_letter="C",
        to_move=1,
        finished=False,
        winner=None,
        scores=(40, 52),
        updated_at=now,
    )
    assert state_text("en", game) == "Your turn"
    assert state_text("en", YourGame(**{**game.__dict__, "to_move": 0})) == "Your opponent's turn"
    assert state_text("en", YourGame(**{**game.__dict__, "opponent": "waiting"})) == "Not started"
    over = YourGame(**{**game.__dict__, "finished": True, "winner": 1})
    assert state_text("en", over) == "You won, 52–40"
    assert state_text("cs", YourGame(**{**over.__dict__, "winner": 0})) == "Prohráli jste, 52–40"
    assert ago_text("en", now, now) == "just now"
    assert ago_text("en", now - timedelta(minutes=5), now) == "5 minutes ago"
    assert ago_text("cs", now - timedelta(hours=2), now) == "před 2 hodinami"
    assert ago_text("pt_BR", now - timedelta(days=1), now) == "há 1 dia"
