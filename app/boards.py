"""Drawing a room's boards for the hub: one read of the room, one render per group of viewers.

`BoardPainter` is the hub's `BoardMaker` (see `app.realtime`). It runs in a worker thread.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from app import queries
from app.realtime import BoardGroup
from app.roomview import RoomFacts, RoomView

Renderer = Callable[..., str]


class BoardPainter:
    """Reads a room (the facts only when asked to) and renders its board for every group."""

    def __init__(
        self, sessions: sessionmaker[Session], render: Renderer, *, presence_timeout: float
    ) -> None:
        self._sessions = sessions
        self._render = render
        self._presence_timeout = presence_timeout

    def __call__(
        self,
        room_id: str,
        facts: RoomFacts | None,
        version: int,
        groups: frozenset[BoardGroup],
    ) -> tuple[RoomFacts, int, dict[BoardGroup, str]]:
        with self._sessions() as session:
            if facts is None:
                facts = queries.load_room_facts(
                    session, room_id=room_id, presence_timeout=self._presence_timeout
                )
            version = max(version, facts.version)
            state, log = queries.load_position(session, room_id=room_id, version=version)
        boards = {}
        for group in groups:
            view: RoomView = queries.room_view(
                facts, state, log, viewer=group.viewer, base_url=group.base_url
            )
            boards[group] = self._render(view, lang=group.lang)
        return facts, version, boards
