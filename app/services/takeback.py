"""Takeback by agreement: a player asks to take back their own moves since the opponent last
acted (sells included); the opponent accepts or declines. One request at a time; any move
lets it lapse. At one position a player asks at most once against the computer (its answer
does not change) and at most twice against a person (a decline may be thought over once):
one request per opponent action, and a second chance only where the answer could differ.

The move log stays append-only: an accepted takeback is a row of the log
(`app.reads.positions.takeback_text`), its own version, and replaying the log gives the position
everyone sees. The request and a refusal are entries of the room's log of happenings. Against
the computer the answer comes at once: the easy and normal computer accept, the strong one
declines.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

import engine
from app.live.notify import Publisher, queue_notify
from app.models import Move, Room, RoomEvent
from app.reads.positions import (
    Position,
    own_moves_to_take_back,
    position,
    positions,
    replay_played,
    takeback_entry,
    takeback_text,
)
from app.reads.roomview import Viewer
from app.services.errors import EndingRefused, NotStarted, NotYourTurn
from app.services.events import log_event
from app.services.lock import now, room_lock
from app.services.moves import every_seat_taken

#: The computer's strengths that agree to a takeback.
COMPUTER_AGREES = ("easy", "normal")
#: How many times a player may ask at one position: a person may think a decline over once.
ASKS_OF_A_PERSON = 2


def ask_takeback(
    session: Session, *, viewer: Viewer, publisher: Publisher | None = None
) -> bool | None:
    """Ask to take back the viewer's moves since the opponent last acted. Returns None while the
    request waits for the opponent; against the computer, whether it accepted.

    Refused: "game_over", `NotStarted`, "takeback_pending" (a request is open),
    "nothing_to_take_back" (the opponent acted last, or nothing was played here),
    "takeback_asked_already" (asked at this position once against the computer, or
    `ASKS_OF_A_PERSON` times against a person)."""
    seat = _player_seat(viewer)
    with room_lock(session, viewer.room_id) as room:
        if room.finished or room.ending is not None:
            raise EndingRefused("game_over")
        if room.version == room.start_moves and not every_seat_taken(session, room):
            raise NotStarted()
        if room.takeback_seat is not None:
            raise EndingRefused("takeback_pending")
        now_at = position(session, room.id, room.version)
        count = own_moves_to_take_back(now_at.played, seat, room.start_moves)
        if count == 0:
            raise EndingRefused("nothing_to_take_back")
        against_computer = room.computer is not None and room.computer_seat == 1 - seat
        if not may_ask_again(_asked_here(session, room, seat), against_computer=against_computer):
            raise EndingRefused("takeback_asked_already")
        log_event(session, room, "takeback_asked", seat)
        accepted: bool | None = None
        after = None
        if against_computer:
            accepted = room.computer in COMPUTER_AGREES
            if accepted:
                after = _take_back(session, room, seat, count, now_at)
            else:
                log_event(session, room, "takeback_declined", 1 - seat)
        else:
            room.takeback_seat = seat
        room.updated_at = now()
        version = room.version
        queue_notify(session, room.id, None)
        session.commit()
    if after is not None:
        positions.put(viewer.room_id, after)
    if publisher is not None:
        publisher.room_changed(viewer.room_id, None)
        if accepted:
            publisher.room_changed(viewer.room_id, version)
    return accepted


def answer_takeback(
    session: Session, *, viewer: Viewer, accept: bool, publisher: Publisher | None = None
) -> None:
    """The opponent accepts (the takeback row joins the log) or declines the open request
    ("no_takeback" when there is none for this player to answer)."""
    seat = _player_seat(viewer)
    after = None
    with room_lock(session, viewer.room_id) as room:
        asker = room.takeback_seat
        if asker is None or asker != 1 - seat or room.finished:
            raise EndingRefused("no_takeback")
        room.takeback_seat = None
        if accept:
            now_at = position(session, room.id, room.version)
            count = own_moves_to_take_back(now_at.played, asker, room.start_moves)
            after = _take_back(session, room, asker, count, now_at)
        else:
            log_event(session, room, "takeback_declined", seat)
        room.updated_at = now()
        version = room.version
        queue_notify(session, room.id, None)
        session.commit()
    if after is not None:
        positions.put(viewer.room_id, after)
    if publisher is not None:
        publisher.room_changed(viewer.room_id, None)
        if after is not None:
            publisher.room_changed(viewer.room_id, version)


def _take_back(session: Session, room: Room, seat: int, count: int, now_at: Position) -> Position:
    """Append the takeback of `seat`'s last `count` moves to the locked room's log."""
    played = now_at.played[: len(now_at.played) - count]
    state = replay_played(played, now_at.state.catalog)
    seq = room.version
    session.add(
        Move(
            room_id=room.id,
            seq=seq,
            seat=seat,
            move=takeback_text(count),
            client_move_id=f"takeback-{seq}",
            created_at=now(),
        )
    )
    room.version = seq + 1
    room.snapshot = engine.summary_json(state)
    room.finished = engine.is_finished(state)
    queue_notify(session, room.id, room.version)
    return Position(room.version, state, (*now_at.log, takeback_entry(seq, seat, count)), played)


def may_ask_again(asked: int, *, against_computer: bool) -> bool:
    """Whether a player who asked `asked` times at this position may ask once more."""
    return asked < (1 if against_computer else ASKS_OF_A_PERSON)


def _asked_here(session: Session, room: Room, seat: int) -> int:
    """How many times `seat` asked for a takeback at the room's current position."""
    count = session.scalar(
        select(func.count())
        .select_from(RoomEvent)
        .where(
            RoomEvent.room_id == room.id,
            RoomEvent.kind == "takeback_asked",
            RoomEvent.seat == seat,
            RoomEvent.at_version == room.version,
        )
    )
    return int(count or 0)


def _player_seat(viewer: Viewer) -> int:
    if viewer.kind != "seat" or viewer.seat is None:
        raise NotYourTurn("not_a_player")
    return viewer.seat
