"""The reads of a room's log: its moves, its happenings, its catalog, how its game began, and
the whole game as a record (export, review, analysis). Like `app.reads.queries`, each read ends its
transaction before it returns, and a missing room is `RoomNotFound`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Move
from app.reads import catalogs
from app.reads.games import computer_seats
from app.reads.positions import effective_of
from app.reads.queries import ending_of, room_events, room_row
from engine import games
from engine.record import RecordEnding


@dataclass(frozen=True)
class RoomOrigin:
    """Where a room's game began: `origin` None for a game from the start, "import" for a
    record opened read-only, "fork" for a game played on from a position of `origin_room_id`.
    The first `start_moves` moves of its log are that start."""

    origin: str | None
    start_moves: int
    origin_room_id: str | None


COMPUTER_NAMES = {
    "easy": "Computer (easy)",
    "normal": "Computer (normal)",
    "strong": "Computer (strong)",
    "heuristic": "Computer (steady)",
}
"""How a game record names the computer's seat."""


def move_log(session: Session, *, room_id: str) -> list[dict[str, Any]]:
    """The whole log, oldest first: `{"seq", "seat", "move"}` with canonical move dicts."""
    try:
        room_row(session, room_id)
        rows = session.execute(
            select(Move.seq, Move.seat, Move.move).where(Move.room_id == room_id).order_by(Move.seq)
        ).all()
        return [{"seq": seq, "seat": seat, "move": json.loads(m)} for seq, seat, m in rows]
    finally:
        session.rollback()


def event_log(session: Session, *, room_id: str) -> list[dict[str, Any]]:
    """The room's happenings besides the moves, oldest first: `{"seq", "kind", "seat",
    "at_version"}` (`at_version`: after how many moves)."""
    try:
        room_row(session, room_id)
        return [
            {"seq": e.seq, "kind": e.kind, "seat": e.seat, "at_version": e.at_version}
            for e in room_events(session, room_id)
        ]
    finally:
        session.rollback()


def room_catalog_id(session: Session, *, room_id: str) -> str:
    """The id of the catalog the room is played with."""
    try:
        return room_row(session, room_id).catalog_id
    finally:
        session.rollback()


def canonical_log(session: Session, room_id: str) -> list[str]:
    """The room's moves in force in their canonical text, oldest first: the log without the
    moves taken back and the takebacks (in the caller's transaction)."""
    rows = session.execute(
        select(Move.seq, Move.seat, Move.move).where(Move.room_id == room_id).order_by(Move.seq)
    ).all()
    return [text for _, _, text in effective_of((seq, seat, m) for seq, seat, m in rows)]


def room_game(session: Session, *, room_id: str) -> str:
    """The game the room plays (an `engine.games` id)."""
    try:
        return room_row(session, room_id).game
    finally:
        session.rollback()


def room_origin(session: Session, *, room_id: str) -> RoomOrigin:
    """How the room's game began."""
    try:
        room = room_row(session, room_id)
        return RoomOrigin(room.origin, room.start_moves, room.origin_room_id)
    finally:
        session.rollback()


def can_play_on(session: Session, *, room_id: str) -> bool:
    """Whether a position of the room's game may be played on from in a new room: once the game
    is over, or for an imported record (which never changes). Never a live game's position."""
    try:
        room = room_row(session, room_id)
        return room.finished or room.ending is not None or room.origin == "import"
    finally:
        session.rollback()


def room_record(session: Session, *, room_id: str) -> Any:
    """The room's game as a record of its game (`engine.games.Game.record_of`): its whole log, the
    seats named as at the table, the room's setup and catalog."""
    try:
        room = room_row(session, room_id)
        names = [f"Player {seat + 1}" for seat in range(room.players)]
        computers = computer_seats(room)
        if room.computer is not None and room.computer_seat is not None:
            computers[room.computer_seat] = room.computer
        for seat, level in computers.items():
            names[seat] = COMPUTER_NAMES[level]
        ending = ending_of(room)
        return games.game(room.game).record_of(
            json.loads(room.setup or "{}"),
            tuple(names),
            canonical_log(session, room_id),
            None if ending is None else RecordEnding(ending.kind, ending.seat),
            catalogs.of_game_room(room),
        )
    finally:
        session.rollback()
