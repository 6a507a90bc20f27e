"""Takeback by agreement: a player asks to take back their own moves since another player last
acted (sells included); it happens once every other player a person holds accepted (the
computer's seats answer at once), and one decline ends the request. One request at a time; any
move lets it lapse. At one position a player asks at most once against the computer alone (its
answer does not change) and at most twice when a person answers (a decline may be thought over
once): one request per action of another, and a second chance only where the answer could differ.

The move log stays append-only: an accepted takeback is a row of the log
(`app.reads.positions.takeback_text`), its own version, and replaying the log gives the position
everyone sees. The request and a refusal are entries of the room's log of happenings. Against
the computer the answer comes at once: the easy and normal computer accept, the strong one
declines; in another game's room the computer's seats always accept. With more than one person
to answer, each acceptance but the last is an entry of the room's log too ("takeback_accepted").
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

import engine
from app.live.notify import Publisher, queue_notify
from app.models import Move, Room, RoomEvent
from app.reads.games import GamePosition, computer_seats, game_of, game_position, game_positions
from app.reads.games import replay_played as games_replay
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
from app.services.moves import INLAND_PORT, every_seat_taken
from engine import games

#: The computer's strengths that agree to a takeback.
COMPUTER_AGREES = ("easy", "normal")
#: How many times a player may ask at one position: a person may think a decline over once.
ASKS_OF_A_PERSON = 2


def ask_takeback(
    session: Session, *, viewer: Viewer, publisher: Publisher | None = None
) -> bool | None:
    """Ask to take back the viewer's moves since another player last acted. Returns None while
    the request waits for the other players; against the computer alone, whether it accepted.

    Refused: "game_over", `NotStarted`, "takeback_pending" (a request is open),
    "nothing_to_take_back" (another player acted last, or nothing was played here),
    "takeback_asked_already" (asked at this position once against the computer alone, or
    `ASKS_OF_A_PERSON` times when a person answers)."""
    seat = _player_seat(viewer)
    with room_lock(session, viewer.room_id) as room:
        if room.finished or room.ending is not None:
            raise EndingRefused("game_over")
        if room.version == room.start_moves and not every_seat_taken(session, room):
            raise NotStarted()
        if room.takeback_seat is not None:
            raise EndingRefused("takeback_pending")
        if room.game != INLAND_PORT and seat in computer_seats(room):
            raise NotYourTurn("not_a_player")  # resigned: the computer plays the seat
        now_at = _now_at(session, room)
        count = own_moves_to_take_back(now_at.played, seat, room.start_moves)
        if count == 0:
            raise EndingRefused("nothing_to_take_back")
        against_computer = not answering_seats(room, seat)
        if not may_ask_again(_asked_here(session, room, seat), against_computer=against_computer):
            raise EndingRefused("takeback_asked_already")
        log_event(session, room, "takeback_asked", seat)
        accepted: bool | None = None
        after = None
        if against_computer:
            accepted = _computer_agrees(room)
            if accepted:
                after = _take_back(session, room, seat, count, now_at)
            else:
                log_event(session, room, "takeback_declined", 1 - seat)
        else:
            room.takeback_seat = seat
        version = _commit(session, room)
    _publish(viewer.room_id, after, version, publisher)
    return accepted


def answer_takeback(
    session: Session, *, viewer: Viewer, accept: bool, publisher: Publisher | None = None
) -> tuple[int, ...]:
    """Another player accepts or declines the open request ("no_takeback" when there is none for
    this player to answer, "takeback_answered" when they accepted it already). The last
    acceptance appends the takeback row to the log; a decline ends the request. Returns the
    seats whose answer the request still waits for (none once it is done)."""
    seat = _player_seat(viewer)
    after = None
    waiting: tuple[int, ...] = ()
    with room_lock(session, viewer.room_id) as room:
        asker = room.takeback_seat
        if asker is None or room.finished or seat not in answering_seats(room, asker):
            raise EndingRefused("no_takeback")
        accepted = accepted_seats(session, room, asker)
        if seat in accepted:
            raise EndingRefused("takeback_answered")
        waiting = tuple(s for s in answering_seats(room, asker) if s != seat and s not in accepted)
        if not accept:
            room.takeback_seat = None
            waiting = ()
            log_event(session, room, "takeback_declined", seat)
        elif waiting:
            log_event(session, room, "takeback_accepted", seat)
        else:
            room.takeback_seat = None
            now_at = _now_at(session, room)
            count = own_moves_to_take_back(now_at.played, asker, room.start_moves)
            after = _take_back(session, room, asker, count, now_at)
        version = _commit(session, room)
    _publish(viewer.room_id, after, version, publisher)
    return waiting


def _commit(session: Session, room: Room) -> int:
    """Commit the locked room's request, answer or takeback; the room's version."""
    room.updated_at = now()
    version = int(room.version)
    queue_notify(session, room.id, None)
    session.commit()
    return version


def _publish(
    room_id: str,
    after: Position | GamePosition | None,
    version: int,
    publisher: Publisher | None,
) -> None:
    """Tell the room's viewers; after a takeback (`after`), cache its position and tell them of
    the new version too."""
    _remember(room_id, after)
    if publisher is not None:
        publisher.room_changed(room_id, None)
        if after is not None:
            publisher.room_changed(room_id, version)


def answering_seats(room: Room, asker: int) -> tuple[int, ...]:
    """The seats whose player must accept `asker`'s takeback: every other seat a person holds
    (the computer's seats agree at once, or decline for Inland Port's strong computer)."""
    if room.game == INLAND_PORT:
        return () if room.computer_seat == 1 - asker else (1 - asker,)
    computers = computer_seats(room)
    return tuple(s for s in range(room.players) if s != asker and s not in computers)


def accepted_seats(session: Session, room: Room, asker: int) -> set[int]:
    """The seats that accepted `asker`'s open request (after it was asked, at this position)."""
    asked = session.scalar(
        select(func.max(RoomEvent.seq)).where(
            RoomEvent.room_id == room.id,
            RoomEvent.kind == "takeback_asked",
            RoomEvent.seat == asker,
            RoomEvent.at_version == room.version,
        )
    )
    if asked is None:
        return set()
    rows = session.scalars(
        select(RoomEvent.seat).where(
            RoomEvent.room_id == room.id,
            RoomEvent.kind == "takeback_accepted",
            RoomEvent.at_version == room.version,
            RoomEvent.seq > asked,
        )
    )
    return {seat for seat in rows if seat is not None}


def _computer_agrees(room: Room) -> bool:
    return room.game != INLAND_PORT or room.computer in COMPUTER_AGREES


def _now_at(session: Session, room: Room) -> Position | GamePosition:
    """The room's position now, with its moves in force."""
    if room.game == INLAND_PORT:
        return position(session, room.id, room.version)
    return game_position(session, room, room.version)


def _remember(room_id: str, after: Position | GamePosition | None) -> None:
    """Cache the position a takeback just committed led to."""
    if isinstance(after, Position):
        positions.put(room_id, after)
    elif after is not None:
        game_positions.put(room_id, after)


def _take_back(
    session: Session, room: Room, seat: int, count: int, now_at: Position | GamePosition
) -> Position | GamePosition:
    """Append the takeback of `seat`'s last `count` moves to the locked room's log."""
    played = now_at.played[: len(now_at.played) - count]
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
    log = (*now_at.log, takeback_entry(seq, seat, count))
    queue_notify(session, room.id, room.version)
    if isinstance(now_at, Position):
        state = replay_played(played, now_at.state.catalog)
        room.snapshot = engine.summary_json(state)
        room.finished = engine.is_finished(state)
        return Position(room.version, state, log, played)
    rules = game_of(room)
    other = games_replay(room, played)
    room.snapshot = games.summary_json(rules, other)
    room.finished = rules.finished(other)
    return GamePosition(room.version, other, log, played, game=room.game)


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
