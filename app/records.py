"""Rooms and game records: a room's record (export), and rooms that start from a record.

A room that starts from a record keeps the record's moves as the first `rooms.start_moves` rows of
its own move log, so the log is still the whole game (start + moves) and replaying it gives the
board, as for every room. Two kinds:

- **import** (`origin="import"`): a pasted or uploaded record opens a read-only review room. It has
  no seats and no invite, only a review link; nobody can move in it.
- **fork** (`origin="fork"`): "play from here" opens a new room whose log starts with the first N
  moves of another room's game, against the computer or a friend, like a room from the home page.

The record was replayed by the engine before it gets here (`engine.record.read_record`): a refused
record stores nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from app import services
from app.models import Link, Move, Room, Seat
from app.security import (
    invite_token_for,
    new_room_id,
    new_token,
    spectator_token_for,
    token_hash,
)
from engine.ai import LEVELS
from engine.record import GameRecord

COMPUTER_NAMES = {
    "easy": "Computer (easy)",
    "normal": "Computer (normal)",
    "strong": "Computer (strong)",
}


@dataclass(frozen=True)
class RoomOrigin:
    """Where a room's game began: `origin` None for a game from the start."""

    origin: str | None
    start_moves: int
    origin_room_id: str | None


@dataclass(frozen=True)
class ImportedRoom:
    room_id: str
    #: The review link: anyone holding it may look at the game.
    token: str


def room_origin(session: Session, *, room_id: str) -> RoomOrigin:
    """How the room's game began (raises `services.RoomNotFound`)."""
    try:
        room = session.get(Room, room_id)
        if room is None:
            raise services.RoomNotFound(room_id)
        return RoomOrigin(room.origin, room.start_moves, room.origin_room_id)
    finally:
        session.rollback()


def room_record(session: Session, *, room_id: str) -> GameRecord:
    """The room's game as a record: its whole log, the seats named as at the table."""
    try:
        room = session.get(Room, room_id)
        if room is None:
            raise services.RoomNotFound(room_id)
        moves = session.scalars(
            select(Move.move).where(Move.room_id == room_id).order_by(Move.seq)
        ).all()
        names = ["Player 1", "Player 2"]
        if room.computer is not None and room.computer_seat is not None:
            names[room.computer_seat] = COMPUTER_NAMES[room.computer]
        return GameRecord.of(moves, seats=(names[0], names[1]))
    finally:
        session.rollback()


def import_record(session: Session, *, record: GameRecord) -> ImportedRoom:
    """A read-only review room holding `record`'s game; its one link is a spectator's."""
    token = new_token()
    room_id = _add_room(session, record, origin="import", origin_room_id=None)
    session.add(Link(token_hash=token_hash(token), room_id=room_id, kind="spectator", seat=None))
    session.commit()
    return ImportedRoom(room_id=room_id, token=token)


def fork_room(
    session: Session,
    *,
    record: GameRecord,
    origin_room_id: str,
    host_seat: int,
    computer: str | None,
    base_url: str,
    publisher: services.Publisher | None = None,
) -> services.CreatedRoom:
    """A new room whose game starts with `record`'s moves, the host in `host_seat`.

    As `services.create_room`: with `computer` the computer holds the other seat, else the other
    seat is offered by an invite link.
    """
    if host_seat not in (0, 1) or isinstance(host_seat, bool):
        raise ValueError("host_seat must be 0 or 1")
    if computer is not None and computer not in LEVELS:
        raise ValueError(f"computer must be one of {', '.join(LEVELS)}")
    state = record.positions()[-1]
    if state.finished:
        raise ValueError("the game is over at that position: there is nothing left to play")
    room_id = _add_room(session, record, origin="fork", origin_room_id=origin_room_id)
    room = session.get(Room, room_id)
    assert room is not None
    room.computer = computer
    room.computer_seat = None if computer is None else 1 - host_seat
    token, now = new_token(), datetime.now(UTC)
    session.add(Seat(room_id=room_id, seat=host_seat, token_hash=token_hash(token), joined_at=now))
    invite, spectator = invite_token_for(token), spectator_token_for(token)
    if computer is None:
        session.add(
            Link(token_hash=token_hash(invite), room_id=room_id, kind="invite", seat=1 - host_seat)
        )
    session.add(
        Link(token_hash=token_hash(spectator), room_id=room_id, kind="spectator", seat=host_seat)
    )
    session.commit()
    if publisher is not None:
        publisher.room_changed(room_id, None)
    return services.CreatedRoom(
        room_id=room_id,
        seat=host_seat,
        token=token,
        seat_link=services.seat_link(base_url, token),
        invite_link=None if computer is not None else services.invite_link(base_url, invite),
        spectator_link=services.spectator_link(base_url, spectator),
        version=len(record.moves),
    )


def _add_room(
    session: Session,
    record: GameRecord,
    *,
    origin: Literal["import", "fork"],
    origin_room_id: str | None,
) -> str:
    """Add the room and its start record as the first rows of its log (not committed)."""
    positions = record.positions()
    room_id, now = new_room_id(), datetime.now(UTC)
    session.add(
        Room(
            id=room_id,
            version=len(record.moves),
            snapshot=services.snapshot_json(positions[-1]),
            finished=engine.is_finished(positions[-1]),
            created_at=now,
            updated_at=now,
            origin=origin,
            start_moves=len(record.moves),
            origin_room_id=origin_room_id,
        )
    )
    session.flush()
    for seq, (move, before) in enumerate(zip(record.moves, positions, strict=False)):
        session.add(
            Move(
                room_id=room_id,
                seq=seq,
                seat=before.turn % 2,
                move=move.canonical,
                client_move_id=f"start-{seq}",
                created_at=now,
            )
        )
    return room_id
