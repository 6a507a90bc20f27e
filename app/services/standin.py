"""A player gone: when the player to move has had no open page for `absent_after` seconds, any
other player may let the computer (Inland Port: normal strength; another game: its steadier
one) play for the absent seat until its owner comes back and takes over (`start_standin`,
`take_over`), or, with two players, claim the game (`app.services.ending.claim`). Each is
written in the room's log. Only the absent player's own requests and pages tell whether they are
here (`app.services.presence`): nobody can make another player look gone. In Inland Port's room
the computer stands in for one seat; in another game's for each absent player who was left to
move (the room's log of stand-ins tells which: `app.reads.games.standin_seats`).

The stand-in moves through `app.services.moves.submit_move` like the computer opponent
(`app.computer.player`); `rooms.standin_seat` says which seat it plays.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.live.notify import Publisher, queue_notify
from app.models import Room
from app.reads.games import computer_seats, game_of, game_position, standin_seats
from app.reads.positions import position
from app.reads.queries import STANDIN_LEVEL, presence
from app.reads.roomview import Viewer
from app.services.errors import EndingRefused, NotYourTurn
from app.services.events import log_event
from app.services.lock import now, room_lock
from app.services.moves import every_seat_taken
from app.services.presence import absent_seats

__all__ = ["STANDIN_LEVEL", "check_opponent_gone", "start_standin", "take_over"]


def check_opponent_gone(
    session: Session, room: Room, seat: int, *, absent_after: float, presence_timeout: float
) -> int:
    """The absent seat `seat`'s player may act against, on the locked `room`; else a refusal:
    "game_over", "not_started", "not_a_player" (the computer plays `seat` now), "not_absent"
    (the player to move is `seat` itself or a computer, or has had an open page in the last
    `absent_after` seconds)."""
    if room.finished or room.ending is not None:
        raise EndingRefused("game_over")
    if room.version == room.start_moves and not every_seat_taken(session, room):
        raise EndingRefused("not_started")
    other = _to_move_elsewhere(session, room, seat)
    online, _ = presence(session, room, presence_timeout)
    if not absent_seats(session, room.id, online, absent_after=absent_after)[other]:
        raise EndingRefused("not_absent")
    return other


def _to_move_elsewhere(session: Session, room: Room, seat: int) -> int:
    """The seat to move, when a person holds it and it is not `seat` (else "not_absent")."""
    if room.game == "inland_port":
        state = position(session, room.id, room.version).state
        if room.computer_seat is not None or state.to_move != 1 - seat:
            raise EndingRefused("not_absent")
        return 1 - seat
    computers = computer_seats(room)
    if seat in computers:
        raise NotYourTurn("not_a_player")
    to_move = game_of(room).to_move(game_position(session, room, room.version).state)
    if to_move is None or to_move == seat or to_move in computers:
        raise EndingRefused("not_absent")
    return int(to_move)


def start_standin(
    session: Session,
    *,
    viewer: Viewer,
    absent_after: float,
    presence_timeout: float,
    publisher: Publisher | None = None,
) -> int:
    """Let the computer play for the absent player to move; returns the seat it plays
    ("standin_playing" while it stands in for a seat already)."""
    seat = _player_seat(viewer)
    with room_lock(session, viewer.room_id) as room:
        other = check_opponent_gone(
            session, room, seat, absent_after=absent_after, presence_timeout=presence_timeout
        )
        if room.standin_seat is not None and (
            room.game == "inland_port" or other in standin_seats(session, room)
        ):
            raise EndingRefused("standin_playing")
        room.standin_seat = other
        room.updated_at = now()
        log_event(session, room, "standin_started", other)
        queue_notify(session, room.id, None)
        session.commit()
    if publisher is not None:
        publisher.room_changed(viewer.room_id, None)
    return other


def take_over(session: Session, *, viewer: Viewer, publisher: Publisher | None = None) -> None:
    """The absent player is back: the computer stops playing for them ("no_standin" when it
    does not)."""
    seat = _player_seat(viewer)
    with room_lock(session, viewer.room_id) as room:
        if room.game == "inland_port":
            standins = set() if room.standin_seat is None else {room.standin_seat}
        else:
            standins = standin_seats(session, room)
        if seat not in standins:
            raise EndingRefused("no_standin")
        room.standin_seat = min(standins - {seat}, default=None)
        room.updated_at = now()
        log_event(session, room, "standin_ended", seat)
        queue_notify(session, room.id, None)
        session.commit()
    if publisher is not None:
        publisher.room_changed(viewer.room_id, None)


def _player_seat(viewer: Viewer) -> int:
    if viewer.kind != "seat" or viewer.seat is None:
        raise NotYourTurn("not_a_player")
    return viewer.seat
