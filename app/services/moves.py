"""Moves: `submit_move` is the one way a move enters a room (the JSON API, the page's form and
the computer player all call it), and the whole rule of the move log. It writes the move's row,
the room's new version, snapshot and finished flag."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import engine
from app.live.notify import Publisher, queue_notify
from app.models import Move, Room, Seat
from app.reads.games import GamePosition, computer_seats, remember_after, standin_seats
from app.reads.positions import Position, log_entry, position, positions
from app.reads.roomview import LogEntry
from app.services import gamemoves
from app.services.errors import (
    EndingRefused,
    MoveRefused,
    NotStarted,
    NotYourTurn,
    ServiceError,
    StaleVersion,
)
from app.services.lock import now, room_columns_lock
from app.services.presence import seat_acted
from engine import games

INLAND_PORT = "inland_port"
#: The most seats a room of any game has (Le Havre: five).
MAX_SEATS = 5
MAX_CLIENT_MOVE_ID = 64
CLIENT_MOVE_ID_PATTERN = rf"^[^\x00-\x1f\x7f-\x9f]{{1,{MAX_CLIENT_MOVE_ID}}}$"
"""A client move id: 1 to 64 characters, none a control character (PostgreSQL refuses NUL in
text). A lone surrogate, which JSON can carry but text cannot store, is refused too."""

#: A move's row and its room's new version, written as plain statements on the transaction's
#: connection: the ORM's unit of work would cost more than both of them.
_MOVES = Move.metadata.tables[Move.__tablename__]
_ROOMS = Room.metadata.tables[Room.__tablename__]
_INSERT_MOVE = insert(_MOVES)
_UPDATE_ROOM = (
    update(_ROOMS)
    .where(_ROOMS.c.id == bindparam("room"))
    .values(
        version=bindparam("version"),
        takeback_seat=bindparam("takeback_seat"),
        snapshot=bindparam("snapshot"),
        finished=bindparam("finished"),
        updated_at=bindparam("updated_at"),
    )
)
_SEATS = Seat.metadata.tables[Seat.__tablename__]
#: The mover's seat written as seen (`app.services.presence`), in the move's own transaction.
_SEAT_SEEN = (
    update(_SEATS)
    .where(_SEATS.c.room_id == bindparam("room"), _SEATS.c.seat == bindparam("mover"))
    .values(last_seen_at=bindparam("seen_at"))
)
_HELD_SEATS = select(_SEATS.c.seat).where(_SEATS.c.room_id == bindparam("room"))
#: What a move reads of its room's row under the lock (not the snapshot it replaces).
_LOCKED_COLUMNS = (
    Room.id,
    Room.version,
    Room.start_moves,
    Room.ending,
    Room.computer_seat,
    Room.standin_seat,
    Room.takeback_seat,
    Room.game,
    Room.players,
    Room.setup,
    Room.computers,
)


@dataclass(frozen=True)
class MoveResult:
    """The answer to a move: the room's version and position after it, and the move's own log
    entry (what happened), enough to tell the mover without reading the room again."""

    room_id: str
    version: int
    summary: dict[str, Any]
    #: The position after the move (the game's own state: `engine.GameState` for Inland Port).
    state: Any
    entry: LogEntry
    #: True when the client move id was already used and this is the original answer again.
    duplicate: bool = False
    #: The game the room plays (an `engine.games` id).
    game: str = INLAND_PORT


def submit_move(
    session: Session,
    *,
    room_id: str,
    seat: int | None,
    move: Any,
    version: int,
    client_move_id: str,
    publisher: Publisher | None = None,
    by_computer: bool = False,
    seen: bool = False,
) -> MoveResult:
    """Apply one move for `seat`, in this order (with `seen`, the seat is also written as seen,
    `app.services.presence`: in the move's own transaction when it is played, else on its own):

    1. lock the room (`SELECT ... FOR UPDATE` on PostgreSQL; a per-room lock plus SQLite's write
       lock), reading only the columns the move needs;
    2. a `client_move_id` this seat already used gets the original answer and applies nothing
       when it carries the same move (compared canonically), else `ClientMoveIdReused`; the
       log is asked only when steps 3-5 refuse the move or its row clashes with the log's
       (the unique `client_move_id` of the seat), since a move already in the log is one of
       the two (`_answer_again`);
    3. the game must have started: both seats taken (else `NotStarted`), not ended early
       (else `NotYourTurn` "game_over");
    4. the version the client saw must be the room's version (else `StaleVersion`);
       the seat must be the one to move (else `NotYourTurn`); a seat the computer stands in for
       is the computer's (`by_computer`) until its owner takes over (else "standin_playing"),
       and the computer plays only its own seat or the one it stands in for;
    5. the engine applies the move (else `MoveRefused` with the engine's code and params);
    6. append the canonical move, bump the version, refresh the snapshot (plain statements,
       not the ORM's flush), commit;
    7. only then publish "room R is at version V" (on PostgreSQL the NOTIFY is part of the
       transaction, so PostgreSQL delivers it only once the commit succeeded).
    """
    try:
        mover = _mover(seat, client_move_id)
        result = _submit(
            session, room_id, mover, move, version, client_move_id, publisher, by_computer, seen
        )
    except ServiceError:
        if seen and seat is not None:
            seat_acted(session, room_id=room_id, seat=seat)
        raise
    if seen and result.duplicate:
        seat_acted(session, room_id=room_id, seat=mover)
    return result


def _submit(
    session: Session,
    room_id: str,
    seat: int,
    move: Any,
    version: int,
    client_move_id: str,
    publisher: Publisher | None,
    by_computer: bool,
    seen: bool,
) -> MoveResult:
    """`submit_move`'s steps 1 to 7 (the seat written as seen only with a move played)."""
    with room_columns_lock(session, room_id, *_LOCKED_COLUMNS) as room:
        if room.game != INLAND_PORT:
            _check_who_plays(session, room, seat, by_computer=by_computer)
            return game_move(session, room, seat, move, version, client_move_id, publisher, seen)
        try:
            before, parsed, new_state, events = _checked(
                session, room, seat=seat, move=move, version=version, by_computer=by_computer
            )
        except ServiceError as refused:
            return _again_or_refuse(session, room_id, seat, client_move_id, move, refused)
        canonical = engine.canonical(parsed)
        lapsed = room.takeback_seat is not None  # a move lets an open takeback request lapse
        snapshot, finished = engine.summary_json(new_state), engine.is_finished(new_state)
        written = Written(canonical, client_move_id, snapshot, finished, seen)
        if not _write_move(session, room, seat, written):
            stale = StaleVersion(room_id, version + 1)
            return _again_or_refuse(session, room_id, seat, client_move_id, move, stale)
    entry = log_entry(version, seat, parsed, events)
    played = (*before.played, (version, seat, canonical))
    result = MoveResult(room_id, room.version + 1, engine.summary(new_state), new_state, entry)
    positions.put(room_id, Position(result.version, new_state, (*before.log, entry), played))
    if publisher is not None:
        publisher.room_changed(room_id, result.version)
        if lapsed:
            publisher.room_changed(room_id, None)
    return result


def _check_who_plays(session: Session, room: Row[Any], seat: int, *, by_computer: bool) -> None:
    """In another game's room the computer plays its seats and those it stands in for, and
    nobody else does: "standin_playing" for the owner of such a seat, else "not_your_turn"."""
    standins = standin_seats(session, room)
    if not by_computer and seat in standins:
        raise EndingRefused("standin_playing")
    if by_computer != (seat in computer_seats(room) or seat in standins):
        raise NotYourTurn("not_your_turn")


def game_move(
    session: Session,
    room: Row[Any],
    seat: int,
    move: Any,
    version: int,
    client_move_id: str,
    publisher: Publisher | None,
    seen: bool = False,
) -> MoveResult:
    """Steps 2 to 7 for a game other than Inland Port, on the locked `room`
    (`app.services.gamemoves`): the same log, version, snapshot and notification."""
    rules = games.game(room.game)
    try:
        before, text, after = gamemoves.checked_move(
            session,
            room,
            seat=seat,
            move=move,
            version=version,
            taken=lambda: every_seat_taken(session, room),
        )
    except ServiceError as refused:
        found = gamemoves.refuse_or_answer_again(session, room, seat, client_move_id, move, refused)
        return _game_result(room.id, rules, found, duplicate=True)
    written = Written(
        text, client_move_id, games.summary_json(rules, after), rules.finished(after), seen
    )
    if not _write_move(session, room, seat, written):
        stale = StaleVersion(room.id, version + 1)
        found = gamemoves.refuse_or_answer_again(session, room, seat, client_move_id, move, stale)
        return _game_result(room.id, rules, found, duplicate=True)
    result = _game_result(room.id, rules, remember_after(room.id, before, seat, text, after))
    if publisher is not None:
        publisher.room_changed(room.id, result.version)
        if room.takeback_seat is not None:  # the move let an open takeback request lapse
            publisher.room_changed(room.id, None)
    return result


def _game_result(
    room_id: str, rules: games.Game, found: GamePosition, *, duplicate: bool = False
) -> MoveResult:
    return MoveResult(
        room_id=room_id,
        version=found.version,
        summary=rules.summary(found.state),
        state=found.state,
        entry=found.log[-1],
        duplicate=duplicate,
        game=rules.id,
    )


def _again_or_refuse(
    session: Session,
    room_id: str,
    seat: int,
    client_move_id: str,
    move: Any,
    refusal: ServiceError,
) -> MoveResult:
    """The original answer when the move is already in the log (step 2), else `refusal`."""
    again = _answer_again(session, room_id, seat, client_move_id, move)
    if again is None:
        raise refusal
    return again


def _mover(seat: int | None, client_move_id: str) -> int:
    """The mover's seat, checked to be a player's, with a client move id of 1 to
    `MAX_CLIENT_MOVE_ID` printable characters."""
    if seat is None or seat not in range(MAX_SEATS):
        raise NotYourTurn("not_a_player")
    if re.fullmatch(CLIENT_MOVE_ID_PATTERN, client_move_id) is None or not _encodable(
        client_move_id
    ):
        raise MoveRefused("bad_client_move_id", {"max_length": MAX_CLIENT_MOVE_ID})
    return seat


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True)
class Written:
    """What a played move writes besides its room's new version."""

    move: Any
    """The canonical move, as the log keeps it."""
    client_move_id: str
    snapshot: str
    finished: bool
    seen: bool
    """Whether the mover's seat is written as seen too."""


def _write_move(session: Session, room: Row[Any], seat: int, written: Written) -> bool:
    """Step 6 and the NOTIFY of step 7: the move's row, the room's new version and snapshot
    (and the seat as seen), committed. False (rolled back) when the row clashes with the log's."""
    stamp = now()
    new_version = room.version + 1
    values = {
        "version": new_version,
        "takeback_seat": None,
        "snapshot": written.snapshot,
        "finished": written.finished,
        "updated_at": stamp,
    }
    connection = session.connection()
    try:
        connection.execute(
            _INSERT_MOVE,
            {
                "room_id": room.id,
                "seq": room.version,
                "seat": seat,
                "move": written.move,
                "client_move_id": written.client_move_id,
                "created_at": stamp,
            },
        )
        connection.execute(_UPDATE_ROOM, {"room": room.id, **values})
        if written.seen:
            connection.execute(_SEAT_SEEN, {"room": room.id, "mover": seat, "seen_at": stamp})
        queue_notify(session, room.id, new_version, (seat, written.move))
        if room.takeback_seat is not None:
            queue_notify(session, room.id, None)
        session.commit()
    except IntegrityError:
        session.rollback()
        return False
    return True


def _checked(
    session: Session, room: Row[Any], *, seat: int, move: Any, version: int, by_computer: bool
) -> tuple[Position, engine.Move, engine.GameState, tuple[engine.Event, ...]]:
    """Steps 3 to 5 of `submit_move` on the locked `room`: the position before the move, the
    move parsed, the position after it and its events; else the refusal (a `ServiceError`)."""
    if room.ending is not None:
        raise NotYourTurn("game_over")
    if room.version == room.start_moves and not every_seat_taken(session, room):
        raise NotStarted()
    if version != room.version:
        raise StaleVersion(room.id, room.version)
    if by_computer and seat not in (room.computer_seat, room.standin_seat):
        raise NotYourTurn("not_your_turn")
    if not by_computer and seat == room.standin_seat:
        raise EndingRefused("standin_playing")
    before = position(session, room.id, room.version)
    state = before.state
    if state.to_move is None:
        raise NotYourTurn("game_over")
    if state.to_move != seat:
        raise NotYourTurn("not_your_turn")
    try:
        parsed = engine.parse_move(move)
        new_state, events = engine.apply_with_events(state, parsed)
    except (engine.MalformedMove, engine.IllegalMove) as refused:
        raise MoveRefused.by_engine(refused) from None
    return before, parsed, new_state, events


def _answer_again(
    session: Session, room_id: str, seat: int, client_move_id: str, move: Any
) -> MoveResult | None:
    """Step 2 of `submit_move`, asked only when the move would be refused or its row clashes
    with the log's (a `client_move_id` the seat already used is in the log, so its move could
    not be applied now without either): the original answer when `move` is the one logged
    under this id, `ClientMoveIdReused` when it is another, None when the id is new."""
    version = gamemoves.logged_under(
        session, room_id, seat, client_move_id, lambda logged: _same_move(move, logged)
    )
    if version is None:
        return None
    answered = position(session, room_id, version)
    session.rollback()
    state, entry = answered.state, answered.log[-1]
    return MoveResult(room_id, version, engine.summary(state), state, entry, duplicate=True)


def every_seat_taken(session: Session, room: Room | Row[Any]) -> bool:
    """Whether every seat of `room` is taken (by people, or by the computer)."""
    held = set(session.connection().execute(_HELD_SEATS, {"room": room.id}).scalars())
    held.update(computer_seats(room))
    if room.computer_seat is not None:
        held.add(room.computer_seat)
    return held == set(range(room.players))


def _same_move(move: Any, logged: str) -> bool:
    """Whether `move` is the log's canonical move `logged` (a move that does not parse is not)."""
    try:
        return engine.canonical(move) == logged
    except ValueError:
        return False
