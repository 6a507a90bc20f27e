"""Rooms that start from a game record (`rooms.origin`); the record's moves are the first
`rooms.start_moves` rows of the room's log (`rooms.new_room`). Two kinds:

- **import** (`origin="import"`): a pasted or uploaded record opens a read-only review room. It has
  no seats and no invite, only a review link; nobody can move in it.
- **fork** (`origin="fork"`): "play from here" opens a new room whose log starts with the first N
  moves of another room's game, against the computer or a friend, like a room from the home page.

The record was replayed by the engine before it gets here (`engine.record.read_record`, with the
catalog it names: one this server has, `app.reads.catalogs.find`): a refused record stores nothing. The
room is pinned to the record's catalog. A room's own record is a read (`app.reads.gamelog.room_record`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.edge.tokens import new_token, token_hash
from app.live.notify import Publisher
from app.models import Link
from app.reads import catalogs
from app.services.rooms import CreatedRoom, check_opponent, new_room, seat_host
from engine.record import GameRecord


@dataclass(frozen=True)
class ImportedRoom:
    room_id: str
    #: The review link: anyone holding it may look at the game.
    token: str


def import_record(session: Session, *, record: GameRecord) -> ImportedRoom:
    """A read-only review room holding `record`'s game; its one link is a spectator's."""
    token = new_token()
    catalog = catalogs.of_record(record)
    room = new_room(
        session, computer=None, computer_seat=None, start=record, origin="import", catalog=catalog
    )
    if record.ending is not None:  # a game resigned, claimed or aborted: it ended there
        room.ending, room.ending_seat, room.finished = record.ending.kind, record.ending.seat, True
    session.add(Link(token_hash=token_hash(token), room_id=room.id, kind="spectator", seat=None))
    session.commit()
    return ImportedRoom(room_id=room.id, token=token)


def fork_room(
    session: Session,
    *,
    record: GameRecord,
    origin_room_id: str,
    host_seat: int,
    computer: str | None,
    base_url: str,
    publisher: Publisher | None = None,
) -> CreatedRoom:
    """A new room whose game starts with `record`'s moves, the host in `host_seat`.

    As `rooms.create_room`: with `computer` the computer holds the other seat, else the other
    seat is offered by an invite link. A game that is over at that position cannot go on
    (`ValueError`).
    """
    if host_seat not in (0, 1) or isinstance(host_seat, bool):
        raise ValueError("host_seat must be 0 or 1")
    check_opponent(computer)
    room = new_room(
        session,
        computer=computer,
        computer_seat=None if computer is None else 1 - host_seat,
        start=record,
        origin="fork",
        origin_room_id=origin_room_id,
        catalog=catalogs.of_record(record),
    )
    if room.finished:
        session.rollback()
        raise ValueError("the game is over at that position: there is nothing left to play")
    return seat_host(session, room, seat=host_seat, base_url=base_url, publisher=publisher)
