"""The hub's painters, run in a worker thread (the boards on the event loop when there is nothing
to read: `BoardPainter.at_once`): one read of a room, then one drawing per group of alike
viewers — the boards (`BoardPainter`, drawn by `app.ui.board`) and the chat (`ChatPainter`,
drawn by `app.ui.chat`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from app.live.frames import BoardSummary, DrawnBoard
from app.live.sockets import BoardGroup, HandOut
from app.reads import queries
from app.reads.chatview import ChatGroup, ChatView, load_chat
from app.reads.roomview import LogEntry, RoomFacts, RoomView
from app.services.errors import RoomNotFound
from app.ui.cache import Shared
from app.ui.chat import render_chat_update
from engine import games

Renderer = Callable[..., DrawnBoard]


class BoardPainter:
    """The hub's `BoardMaker` (see `app.live.hub`): reads a room (the facts only when asked to,
    the position only when it is not in memory) and renders its board for every group of alike
    viewers (only the changed parts for a group given with its previous board)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        render: Renderer,
        *,
        presence_timeout: float,
        absent_after: float = 180.0,
    ) -> None:
        self._sessions = sessions
        self._render = render
        self._presence_timeout = presence_timeout
        self._absent_after = absent_after

    def at_once(self, room_id: str, facts: RoomFacts, version: int) -> bool:
        """Whether the room's boards can be drawn with nothing to read (`app.live.hub`): its facts
        are current and its position at the version is in memory."""
        return queries.position_in_memory(room_id, max(version, facts.version), facts.game)

    def __call__(
        self,
        room_id: str,
        facts: RoomFacts | None,
        version: int,
        groups: frozenset[BoardGroup],
        hand_out: HandOut | None = None,
        previous: Mapping[BoardGroup, BoardSummary] | None = None,
    ) -> tuple[RoomFacts, int, dict[BoardGroup, DrawnBoard]]:
        found = None
        if facts is not None:
            version = max(version, facts.version)
            found = queries.remembered_position(room_id, version, facts.game)
        if facts is None or found is None:
            facts, version, found = self._read(room_id, facts, version)
        state, log = found
        boards = {}
        shared: Shared = {}  # the parts drawn alike for several groups, drawn once
        to_move = games.game(facts.game).to_move(state)
        for group in sorted(groups, key=lambda group: drawing_order(group, to_move)):
            view: RoomView = queries.room_view(
                facts, state, log, viewer=group.viewer, base_url=group.base_url
            )
            before = previous.get(group) if previous else None
            if before is None:
                boards[group] = self._render(view, lang=group.lang, shared=shared)
            else:
                boards[group] = self._render(view, lang=group.lang, before=before, shared=shared)
            if hand_out is not None:
                hand_out(group, boards[group])
        return facts, version, boards

    def _read(
        self, room_id: str, facts: RoomFacts | None, version: int
    ) -> tuple[RoomFacts, int, tuple[Any, tuple[LogEntry, ...]]]:
        """The room's facts (when not given) and its position, read in one session."""
        with self._sessions() as session:
            if facts is None:
                facts = queries.load_room_facts(
                    session,
                    room_id=room_id,
                    presence_timeout=self._presence_timeout,
                    absent_after=self._absent_after,
                )
            version = max(version, facts.version)
            found = queries.load_position(
                session, room_id=room_id, version=version, game=facts.game
            )
        return facts, version, found


def drawing_order(group: BoardGroup, to_move: int | None) -> int:
    """The player to move first (after a move: the one waiting for it), then the other player
    (after a move: the mover, whose page shows its own move only once this board arrives), then
    the spectators."""
    if group.viewer.kind == "seat":
        return 0 if group.viewer.seat == to_move else 1
    return 2


class ChatPainter:
    """The hub's `ChatMaker` (see `app.live.hub`), run in a worker thread: reads a room's chat
    once and draws it for every group; nothing while the chat is empty (the page drew that)."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._sessions = sessions

    def __call__(self, room_id: str, groups: frozenset[ChatGroup]) -> Mapping[ChatGroup, str]:
        try:
            with self._sessions() as session:
                facts = load_chat(session, room_id=room_id)
        except RoomNotFound:  # removed meanwhile: its sockets have nothing to show
            return {}
        if facts.empty:
            return {}
        return {
            group: render_chat_update(ChatView(facts, group.seat), group.lang) for group in groups
        }
