"""A room's chat as a page or a socket draws it: the frozen values and their one read.

Two channels: the players' chat (both players write; spectators read it while the host allows,
which is the default, and never write in it) and the spectators' chat (spectators write; the
players read it and may hide it on their page). The host is the player who opened the room.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import ChatMessage, ChatSettings, Room, Seat
from app.reads.roomview import Viewer
from app.services.errors import RoomNotFound

Channel = Literal["players", "spectators"]
CHANNELS: tuple[Channel, ...] = ("players", "spectators")
#: The newest messages of each channel that a page shows (the API reads further back).
SHOWN = 100


@dataclass(frozen=True)
class ChatLine:
    """One message: its id (rising), channel, the player's seat or the spectator's tag, text."""

    id: int
    channel: Channel
    seat: int | None
    author: str
    text: str
    created_at: datetime


@dataclass(frozen=True)
class ChatGroup:
    """Viewers who see the very same chat: the same seat (or any spectator) and language."""

    seat: int | None
    lang: str

    @classmethod
    def of(cls, viewer: Viewer, lang: str) -> ChatGroup:
        return cls(seat=viewer.seat if viewer.kind == "seat" else None, lang=lang)


@dataclass(frozen=True)
class ChatFacts:
    """A room's chat, the same for every viewer: settings and the newest lines of each channel."""

    room_id: str
    host_seat: int | None
    computer_seat: int | None
    spectators_read: bool
    players: tuple[ChatLine, ...]
    spectators: tuple[ChatLine, ...]
    #: Whether the room has chat settings of its own (the host chose, or a spectator wrote).
    configured: bool = False

    @property
    def empty(self) -> bool:
        """Nothing to draw beyond what the page drew when it opened: no message, no setting."""
        return not self.players and not self.spectators and not self.configured


@dataclass(frozen=True)
class ChatView:
    """A room's chat as one viewer (a seat, or None for a spectator) sees it."""

    facts: ChatFacts
    seat: int | None

    @property
    def is_player(self) -> bool:
        return self.seat is not None

    @property
    def is_host(self) -> bool:
        return self.seat is not None and self.seat == self.facts.host_seat

    @property
    def players_visible(self) -> bool:
        """Whether this viewer may read the players' chat."""
        return self.is_player or self.facts.spectators_read

    def can_write(self, channel: Channel) -> bool:
        return (channel == "players") == self.is_player

    def lines(self, channel: Channel) -> tuple[ChatLine, ...]:
        """The lines of `channel` this viewer may read."""
        if channel == "players":
            return self.facts.players if self.players_visible else ()
        return self.facts.spectators


def host_seat(session: Session, room: Room) -> int | None:
    """The seat of the player who opened the room.

    The rooms table does not name the host: the host's seat is the one taken when the room was
    made (the guest's later, by the invite). A rematch room seats both players at once, each in
    the other seat: its host is the old room's host, in the other seat.
    """
    seen: set[str] = set()
    flips = 0
    while room.id not in seen:
        seen.add(room.id)
        joined = session.execute(
            select(Seat.seat, Seat.joined_at).where(Seat.room_id == room.id).order_by(Seat.seat)
        ).all()
        first = [seat for seat, at in joined if at == room.created_at]
        if len(first) == 1:
            return first[0] if flips % 2 == 0 else 1 - first[0]
        if len(first) != 2 or room.rematch_of is None:
            return None
        older = session.get(Room, room.rematch_of)
        if older is None:
            return None
        room, flips = older, flips + 1
    return None


def _line(row: ChatMessage) -> ChatLine:
    channel: Channel = "players" if row.channel == "players" else "spectators"
    return ChatLine(
        id=row.id,
        channel=channel,
        seat=row.seat,
        author=row.author,
        text=row.text,
        # SQLite gives back naive times; every stamp is written in UTC
        created_at=row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC),
    )


def read_lines(
    session: Session, room_id: str, channel: Channel, *, after: int = 0, limit: int = SHOWN
) -> tuple[ChatLine, ...]:
    """The lines of one channel: the newest `limit` after the id `after`, oldest first."""
    rows = session.scalars(
        select(ChatMessage)
        .where(
            ChatMessage.room_id == room_id,
            ChatMessage.channel == channel,
            ChatMessage.id > after,
        )
        .order_by(ChatMessage.id.desc())
        .limit(limit)
    ).all()
    return tuple(_line(row) for row in reversed(rows))


def load_chat(session: Session, *, room_id: str) -> ChatFacts:
    """The room's chat (`RoomNotFound` when there is no such room)."""
    try:
        room = session.get(Room, room_id)
        if room is None:
            raise RoomNotFound(room_id)
        settings = session.get(ChatSettings, room_id)
        return ChatFacts(
            room_id=room_id,
            host_seat=host_seat(session, room),
            computer_seat=room.computer_seat,
            spectators_read=settings.spectators_read if settings is not None else True,
            players=read_lines(session, room_id, "players"),
            spectators=read_lines(session, room_id, "spectators"),
            configured=settings is not None,
        )
    finally:
        session.rollback()
