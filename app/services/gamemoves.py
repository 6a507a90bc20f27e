"""Moves of the games other than Inland Port, reached only through `app.services.moves.submit_move`
(the one way a move enters a room), on the room row it locked: the same steps and the same log,
the rules asked through the game's interface (`engine.games`).

Every seat must be taken before the first move (a one-seat game starts at once), the version the
client saw must be the room's, the seat the one to move; the game refuses a move with its own code
(`MoveRefused.by_game`). A client move id already used answers again with the original result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from sqlalchemy import Row, select
from sqlalchemy.orm import Session

from app.models import Move
from app.reads.games import GamePosition, game_position
from app.services.errors import (
    ClientMoveIdReused,
    MoveRefused,
    NotStarted,
    NotYourTurn,
    ServiceError,
    StaleVersion,
)
from engine.games import Game, Refusal, game


def checked_move(
    session: Session,
    room: Row[Any],
    *,
    seat: int,
    move: Any,
    version: int,
    taken: Callable[[], bool],
) -> tuple[GamePosition, str, Any]:
    """The position before the move, the move's canonical text and the position after it; else
    the refusal (a `ServiceError`). `taken` tells whether every seat is taken."""
    if room.ending is not None:
        raise NotYourTurn("game_over")
    if seat not in range(room.players):
        raise NotYourTurn("not_a_player")
    if room.version == room.start_moves and not taken():
        raise NotStarted()
    if version != room.version:
        raise StaleVersion(room.id, room.version)
    rules = game(room.game)
    before = game_position(session, room, room.version)
    to_move = rules.to_move(before.state)
    if to_move is None:
        raise NotYourTurn("game_over")
    if to_move != seat:
        raise NotYourTurn("not_your_turn")
    try:
        parsed = rules.parse(move)
        after = rules.apply(before.state, parsed)
    except rules.refusals as refused:
        raise MoveRefused.by_game(room.game, cast(Refusal, refused)) from None
    return before, rules.canonical(parsed), after


def answered_before(
    session: Session, room: Row[Any], seat: int, client_move_id: str, move: Any
) -> GamePosition | None:
    """The position the move logged under `client_move_id` led to, when `move` is that move
    (`ClientMoveIdReused` when it is another; None when the id is new)."""
    rules = game(room.game)
    version = logged_under(
        session, room.id, seat, client_move_id, lambda logged: _same_move(rules, move, logged)
    )
    if version is None:
        return None
    found = game_position(session, room, version)
    session.rollback()
    return found


def logged_under(
    session: Session, room_id: str, seat: int, client_move_id: str, same: Callable[[str], bool]
) -> int | None:
    """The version that the move `seat` logged under `client_move_id` led to, when `same` says
    it is the move sent again; `ClientMoveIdReused` (the transaction rolled back) when another
    move was logged under it; None when the id is new. Both games' moves ask it."""
    earlier = session.execute(
        select(Move.seq, Move.move).where(
            Move.room_id == room_id, Move.seat == seat, Move.client_move_id == client_move_id
        )
    ).first()
    if earlier is None:
        return None
    if not same(earlier.move):
        session.rollback()
        raise ClientMoveIdReused()
    return int(earlier.seq) + 1


def _same_move(rules: Game, move: Any, logged: str) -> bool:
    try:
        return rules.canonical(rules.parse(move)) == logged
    except rules.refusals:
        return False


def refuse_or_answer_again(
    session: Session,
    room: Row[Any],
    seat: int,
    client_move_id: str,
    move: Any,
    refusal: ServiceError,
) -> GamePosition:
    """The original answer's position when the move is already in the log, else `refusal`."""
    again = answered_before(session, room, seat, client_move_id, move)
    if again is None:
        raise refusal
    return again
