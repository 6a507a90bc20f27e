"""The tables: rooms, their seats and links, the append-only move log, and live presence.

The move log is the source of truth. `rooms.snapshot` (the SPEC §8 summary at `rooms.version`)
is only a cache that replaying the log must reproduce.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The game the room plays (an `engine.games` id), its number of seats, and its setup (the
    #: game's JSON start: "{}" for Inland Port; docs/le-havre/spec.md §3 for Le Havre).
    game: Mapped[str] = mapped_column(
        String(16), default="inland_port", server_default="inland_port"
    )
    players: Mapped[int] = mapped_column(Integer, default=2, server_default="2")
    setup: Mapped[str] = mapped_column(Text, default="{}", server_default="{}")
    #: The seats the computer plays in a game other than Inland Port, with its strength
    #: (JSON: {"2": "strong"}); Inland Port's computer is `computer` / `computer_seat`.
    computers: Mapped[str] = mapped_column(Text, default="{}", server_default="{}")
    #: Number of moves in the log.
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: Canonical JSON of the engine summary at `version` (a cache of the replayed log).
    snapshot: Mapped[str] = mapped_column(Text)
    finished: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: The room this one is the rematch of, and the rematch room once both players accepted.
    rematch_of: Mapped[str | None] = mapped_column(String(32), default=None)
    rematch_room_id: Mapped[str | None] = mapped_column(String(32), default=None)
    #: The computer's strength ("easy", "normal", "strong") when it holds `computer_seat`.
    computer: Mapped[str | None] = mapped_column(String(16), default=None)
    computer_seat: Mapped[int | None] = mapped_column(Integer, default=None)
    #: How the room began: None (a new game), "import" (a record, read-only), "fork" (a position).
    origin: Mapped[str | None] = mapped_column(String(16), default=None)
    #: The first `start_moves` moves of the log are the room's start record (not played here).
    start_moves: Mapped[int] = mapped_column(Integer, default=0)
    #: The room a fork was made from.
    origin_room_id: Mapped[str | None] = mapped_column(String(32), default=None)
    #: The seat of the player who opened the room (the one who may reissue the other's link).
    host_seat: Mapped[int | None] = mapped_column(Integer, default=None)
    #: How a game ended before its last move ("resigned", "aborted", "claimed"; see
    #: app/services/ending.py) and the seat whose act ended it.
    ending: Mapped[str | None] = mapped_column(String(16), default=None)
    ending_seat: Mapped[int | None] = mapped_column(Integer, default=None)
    #: The seat the computer plays for an absent player until they take over again.
    standin_seat: Mapped[int | None] = mapped_column(Integer, default=None)
    #: The seat whose takeback request waits for the opponent's answer (app/services/takeback.py).
    takeback_seat: Mapped[int | None] = mapped_column(Integer, default=None)
    #: The catalog (the numbers) the room was created with, by id and SHA-256 (`app.reads.catalogs`):
    #: the room is always replayed with it.
    catalog_id: Mapped[str] = mapped_column(String(64))
    catalog_sha256: Mapped[str] = mapped_column(String(64))


class Seat(Base):
    """A claimed seat: the player holding the token behind `token_hash` plays `seat`."""

    __tablename__ = "seats"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: When the player last had an open page (or moved); None: not since `joined_at`.
    last_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class Link(Base):
    """An invite link (claims `seat` once) or a spectator link (read-only)."""

    __tablename__ = "links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, default=None)
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class Move(Base):
    """One accepted move. Rows are only ever inserted."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("room_id", "seat", "client_move_id"),)

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    #: The move's canonical JSON (SPEC §5).
    move: Mapped[str] = mapped_column(Text)
    client_move_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RoomEvent(Base):
    """A happening of the room that is not a move (a seat link reissued, a resignation, an
    abort...), logged after the first `at_version` moves. Rows are only ever inserted."""

    __tablename__ = "room_events"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(24))
    seat: Mapped[int | None] = mapped_column(Integer, default=None)
    at_version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RematchOffer(Base):
    """A player's request for a rematch, with the hashes of its tokens for the new room."""

    __tablename__ = "rematch_offers"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat_token_hash: Mapped[str] = mapped_column(String(64))
    spectator_token_hash: Mapped[str] = mapped_column(String(64))


class Analysis(Base):
    """The strong computer's analysis of a room's game, computed once (see app/computer/analysis.py).

    `done` of `total` turns are weighed while `status` is "running"; `result` holds the turn
    reviews (JSON) once it is "done".
    """

    __tablename__ = "analyses"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    #: The number of moves of the log analysed.
    version: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[str | None] = mapped_column(Text, default=None)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ServerProcess(Base):
    """A running server process; its connections count as online while it sends heartbeats."""

    __tablename__ = "server_processes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    heartbeat_at: Mapped[float] = mapped_column(Float)


class Connection(Base):
    """One live WebSocket: a player's seat or a spectator (seat NULL) watching a room."""

    __tablename__ = "connections"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    process_id: Mapped[str] = mapped_column(
        ForeignKey("server_processes.id", ondelete="CASCADE"), index=True
    )
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, default=None)


class ChatMessage(Base):
    """One message of a room's chat: the players' (`channel` "players") or the spectators'.

    Rows are only ever inserted. `seat` is the player's seat; a spectator's message has none and
    is signed with `author`, a short tag that tells one spectator from another (app.services.chat).
    """

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    channel: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, default=None)
    author: Mapped[str] = mapped_column(String(16), default="")
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatSettings(Base):
    """A room's chat settings, once the host changed them or a spectator first wrote.

    `spectators_read`: spectators may read the players' chat (the default; never write in it).
    `salt`: the room's secret for the spectators' tags, so a tag never tells an address.
    """

    __tablename__ = "chat_settings"

    room_id: Mapped[str] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    spectators_read: Mapped[bool] = mapped_column(default=True)
    salt: Mapped[str] = mapped_column(String(32))
