"""Rooms that start from a game record (`rooms.origin`); the record's moves are the first
`rooms.start_moves` rows of the room's log (`rooms.new_room`). Two kinds:

- **import** (`origin="import"`): a pasted or uploaded record opens a read-only review room. It has
  no seats and no invite, only a review link; nobody can move in it.
- **fork** (`origin="fork"`): "play from here" opens a new room whose log starts with the first N
  moves of another room's game, against the computer or a friend, like a room from the home page.

The record was replayed by the engine before it gets here (its game's `read_record`,
`engine.games`; Inland Port's with the catalog it names: one this server has,
`app.reads.catalogs.find`): a refused record stores nothing. An Inland Port room is pinned to the
record's catalog; another game's room gets the record's setup (`rooms.setup`), its seats and its
engine's numbers. A room's own record is a read (`app.reads.gamelog.room_record`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy.orm import Session

from app.edge.tokens import new_room_id, new_token, token_hash
from app.live.notify import Publisher
from app.models import Link, Move, Room
from app.reads import catalogs
from app.reads.games import computers_json
from app.services.lock import now
from app.services.rooms import CreatedRoom, check_opponent, new_room, seat_host
from engine import games
from engine.canonical import canonical_json


@dataclass(frozen=True)
class ImportedRoom:
    room_id: str
    #: The review link: anyone holding it may look at the game.
    token: str


def import_record(session: Session, *, record: Any, game: str = "inland_port") -> ImportedRoom:
    """A read-only review room holding `record`'s game of `game`; its one link is a spectator's."""
    token = new_token()
    room = _room_of(session, games.game(game), record, origin="import")
    if record.ending is not None:  # a game resigned, claimed or aborted: it ended there
        room.ending, room.ending_seat, room.finished = record.ending.kind, record.ending.seat, True
    session.add(Link(token_hash=token_hash(token), room_id=room.id, kind="spectator", seat=None))
    session.commit()
    return ImportedRoom(room_id=room.id, token=token)


def fork_room(
    session: Session,
    *,
    record: Any,
    origin_room_id: str,
    host_seat: int,
    computer: str | None,
    base_url: str,
    publisher: Publisher | None = None,
    game: str = "inland_port",
) -> CreatedRoom:
    """A new room of `game` whose game starts with `record`'s moves, the host in `host_seat`.

    As `rooms.create_room`: with `computer` (one of the game's strengths) the computer holds
    every other seat, else each other seat is offered by its own invite link. A game that is over
    at that position cannot go on (`ValueError`).
    """
    rules = games.game(game)
    seats = range(len(record.seats))
    if host_seat not in seats or isinstance(host_seat, bool):
        raise ValueError(f"host_seat must be a seat from 0 to {len(seats) - 1}")
    if computer is not None and computer not in rules.strengths:
        raise ValueError(f"computer must be one of {', '.join(rules.strengths)}")
    others = {} if computer is None else {s: computer for s in seats if s != host_seat}
    room = _room_of(
        session, rules, record, origin="fork", origin_room_id=origin_room_id, computers=others
    )
    if room.finished:
        session.rollback()
        raise ValueError("the game is over at that position: there is nothing left to play")
    return seat_host(session, room, seat=host_seat, base_url=base_url, publisher=publisher)


def _room_of(
    session: Session,
    rules: games.Game,
    record: Any,
    *,
    origin: Literal["import", "fork"],
    origin_room_id: str | None = None,
    computers: Mapping[int, str] | None = None,
) -> Room:
    """The row of a room of `rules`' game starting with `record`'s moves (flushed)."""
    catalog = catalogs.of_game_record(record)
    if catalog is not None:  # Inland Port's: pinned to the record's catalog
        seat, computer = next(iter((computers or {}).items()), (None, None))
        check_opponent(computer)
        return new_room(
            session,
            computer=computer,
            computer_seat=seat,
            start=record,
            origin=origin,
            origin_room_id=origin_room_id,
            catalog=catalog,
        )
    setup, positions = rules.record_start(record)
    stamp = now()
    room = Room(
        id=new_room_id(),
        game=rules.id,
        players=len(record.seats),
        setup=canonical_json(setup),
        version=len(record.moves),
        snapshot=games.summary_json(rules, positions[-1]),
        finished=rules.finished(positions[-1]),
        created_at=stamp,
        updated_at=stamp,
        computer=None,
        computer_seat=None,
        computers=computers_json(computers or {}),
        origin=origin,
        start_moves=len(record.moves),
        origin_room_id=origin_room_id,
    )
    room.catalog_id, room.catalog_sha256 = rules.numbers()
    session.add(room)
    session.flush()
    for seq, (move, before) in enumerate(zip(record.moves, positions, strict=False)):
        session.add(
            Move(
                room_id=room.id,
                seq=seq,
                seat=rules.to_move(before),
                move=rules.canonical(move),
                client_move_id=f"start-{seq}",
                created_at=stamp,
            )
        )
    return room
