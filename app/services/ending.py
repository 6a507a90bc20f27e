"""Ending a game before its last move: a player resigns (the opponent wins), aborts (no
result, only before anyone took an action), or claims the game when the opponent to move is
gone (`app.services.standin.check_opponent_gone`; recorded as won because the opponent left). Each writes the room's ending and its log entry
(`app.services.events`); the room is then finished, so the rematch flow opens as after a
last move.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.live.notify import Publisher, queue_notify
from app.models import Room
from app.reads.games import computer_seats, computers_json, standin_seats
from app.reads.roomview import Viewer
from app.services.errors import EndingRefused, NotStarted, NotYourTurn
from app.services.events import log_event
from app.services.lock import now, room_lock
from app.services.moves import every_seat_taken
from app.services.standin import check_opponent_gone
from engine import games


def resign(session: Session, *, viewer: Viewer, publisher: Publisher | None = None) -> None:
    """The player gives up: the game ends and the opponent wins.

    Refused to a spectator ("not_a_player"), after the game ended ("game_over"), and before
    it started (`NotStarted`: abort instead)."""
    seat = _player_seat(viewer)
    with room_lock(session, viewer.room_id) as room:
        _check_playing(room)
        if room.version == room.start_moves and not every_seat_taken(session, room):
            raise NotStarted()
        if room.players > 2:
            _hand_to_computer(session, room, seat)
        else:
            _end(session, room, "resigned", seat)
    if publisher is not None:
        publisher.room_changed(viewer.room_id, None)


def abort(session: Session, *, viewer: Viewer, publisher: Publisher | None = None) -> None:
    """The player calls the game off: the room ends without a result. Only while nobody has
    taken an action in this room ("cannot_abort" after that)."""
    seat = _player_seat(viewer)
    with room_lock(session, viewer.room_id) as room:
        _check_playing(room)
        if room.version != room.start_moves:
            raise EndingRefused("cannot_abort")
        _end(session, room, "aborted", seat)
    if publisher is not None:
        publisher.room_changed(viewer.room_id, None)


def claim(
    session: Session,
    *,
    viewer: Viewer,
    absent_after: float,
    presence_timeout: float,
    publisher: Publisher | None = None,
) -> None:
    """The present player claims the game: the opponent to move has had no open page for
    `absent_after` seconds. The claimer wins. Only with two players ("claim_needs_two": with
    more, the computer stands in for the absent one)."""
    seat = _player_seat(viewer)
    with room_lock(session, viewer.room_id) as room:
        if room.players > 2:
            raise EndingRefused("claim_needs_two")
        check_opponent_gone(
            session, room, seat, absent_after=absent_after, presence_timeout=presence_timeout
        )
        _end(session, room, "claimed", seat)
    if publisher is not None:
        publisher.room_changed(viewer.room_id, None)


def may_abort(version: int, start_moves: int) -> bool:
    """Abort is possible while no action was taken in the room."""
    return version == start_moves


def _player_seat(viewer: Viewer) -> int:
    if viewer.kind != "seat" or viewer.seat is None:
        raise NotYourTurn("not_a_player")
    return viewer.seat


def _check_playing(room: Room) -> None:
    if room.finished or room.ending is not None:
        raise EndingRefused("game_over")


def _hand_to_computer(session: Session, room: Room, seat: int) -> None:
    """With more than two players a resignation ends no game: the computer plays the seat to
    the end (at the steadier strength); the room's log says who resigned."""
    computers = computer_seats(room)
    if seat in computers:
        raise NotYourTurn("game_over")  # resigned already
    computers[seat] = games.game(room.game).strengths[0]
    room.computers = computers_json(computers)
    standins = standin_seats(session, room)
    if seat in standins:  # the computer plays the seat for good now
        log_event(session, room, "standin_ended", seat)
        room.standin_seat = min(standins - {seat}, default=None)
    room.updated_at = now()
    log_event(session, room, "resigned", seat)
    queue_notify(session, room.id, None)
    session.commit()


def _end(session: Session, room: Room, kind: str, seat: int) -> None:
    """Write the ending `kind` by `seat` on the locked room, log it, commit and notify."""
    room.ending = kind
    room.ending_seat = seat
    room.finished = True
    room.standin_seat = None
    room.updated_at = now()
    log_event(session, room, kind, seat)
    queue_notify(session, room.id, None)
    session.commit()
