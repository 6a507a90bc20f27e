"""The rooms this browser holds a seat in, for the home page: read from the room cookies.

Each room link leaves its token in the room's cookie (`app.edge.cookies.cookie_name`); the seat tokens
among them are this browser's games. Only the browser's own tokens are looked up, by hash, and
nothing of the other seat (its token, its links) is read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from app.edge.cookies import COOKIE_PREFIX
from app.edge.tokens import looks_like_token, token_hash
from app.models import Room, Seat
from app.reads.games import computer_seats

#: The most games listed (the newest first).
SHOWN = 20


@dataclass(frozen=True)
class YourGame:
    """One room as its player's home page lists it."""

    room_id: str
    seat: int
    #: "friend", "waiting" (the other seat is not taken yet), or the computer's strength.
    opponent: str
    round_letter: str
    to_move: int | None
    finished: bool
    #: Once finished: the winner's seat (None for a draw) and every seat's score.
    winner: int | None
    scores: tuple[int, ...]
    updated_at: datetime
    #: How the game ended before its last move ("resigned", "aborted", "claimed"), if it did.
    ending: str | None = None
    #: The game (an `engine.games` id) and its number of seats.
    game: str = "inland_port"
    players: int = 2

    @property
    def your_turn(self) -> bool:
        return not self.finished and self.opponent != "waiting" and self.to_move == self.seat


def room_tokens(cookies: Mapping[str, str]) -> dict[str, str]:
    """Room id -> token, from the browser's room cookies (anything else is left alone)."""
    found = {}
    for name, value in cookies.items():
        room_id = name.removeprefix(COOKIE_PREFIX)
        if name.startswith(COOKIE_PREFIX) and room_id and looks_like_token(value):
            found[room_id] = value
    return found


def your_games(session: Session, *, tokens: Mapping[str, str]) -> list[YourGame]:
    """The games whose seat token this browser holds, the latest activity first."""
    if not tokens:
        return []
    hashes = {token_hash(token): room_id for room_id, token in list(tokens.items())[:200]}
    try:
        seats = session.scalars(select(Seat).where(Seat.token_hash.in_(hashes))).all()
        mine = {s.room_id: s.seat for s in seats if hashes[s.token_hash] == s.room_id}
        if not mine:
            return []
        rooms = session.scalars(
            select(Room).where(Room.id.in_(mine)).order_by(Room.updated_at.desc()).limit(SHOWN)
        ).all()
        claimed = {
            (room_id, seat)
            for room_id, seat in session.execute(
                select(Seat.room_id, Seat.seat).where(Seat.room_id.in_(mine))
            )
        }
        return [_game(room, mine[room.id], claimed) for room in rooms]
    finally:
        session.rollback()


def _game(room: Room, seat: int, claimed: set[tuple[str, int]]) -> YourGame:
    summary = json.loads(room.snapshot)
    if room.game != "inland_port":
        return _other_game(room, seat, claimed, summary)
    if room.computer is not None and room.computer_seat == 1 - seat:
        opponent = room.computer
    elif (room.id, 1 - seat) in claimed:
        opponent = "friend"
    else:
        opponent = "waiting"
    winner = None
    if room.finished:
        winner = engine.winner(engine.from_summary(summary))
    if room.ending == "aborted":
        winner = None
    elif room.ending is not None and room.ending_seat is not None:
        # a resignation: the opponent wins; a claim: the claimer does
        winner = 1 - room.ending_seat if room.ending == "resigned" else room.ending_seat
    scores = summary.get("scores", [0, 0])
    stamp = _aware(room.updated_at)
    return YourGame(
        room_id=room.id,
        seat=seat,
        opponent=opponent,
        round_letter=summary["round"],
        to_move=summary["to_move"],
        finished=room.finished,
        winner=winner,
        scores=tuple(scores),
        updated_at=stamp,
        ending=room.ending,
    )


def _other_game(
    room: Room, seat: int, claimed: set[tuple[str, int]], summary: dict[str, Any]
) -> YourGame:
    """A room of another game: waiting until every seat is taken; the one best score wins."""
    taken = {s for r, s in claimed if r == room.id} | set(computer_seats(room))
    scores = tuple(summary.get("scores") or ())
    best = [s for s, score in enumerate(scores) if score == max(scores)] if scores else []
    return YourGame(
        room_id=room.id,
        seat=seat,
        opponent="waiting" if len(taken) < room.players else room.game,
        round_letter=str(summary["round"]),
        to_move=None if room.finished else summary.get("current"),
        finished=room.finished,
        winner=best[0] if room.finished and len(best) == 1 else None,
        scores=scores,
        updated_at=_aware(room.updated_at),
        ending=room.ending,
        game=room.game,
        players=room.players,
    )


def _aware(stamp: datetime) -> datetime:
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)
