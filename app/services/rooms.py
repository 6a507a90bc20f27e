"""Opening rooms: writes a new room's row, the host's seat and the room's invite and spectator
links (a rematch room gets its row here too, `new_room`; so does a room that starts from a game
record, `app.services.records`)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeGuard

from sqlalchemy.orm import Session

import engine
from app.edge.links import invite_link, seat_link, spectator_link
from app.edge.tokens import (
    invite_token_for,
    new_room_id,
    new_token,
    spectator_token_for,
    token_hash,
)
from app.live.notify import Publisher
from app.models import Link, Move, Room, Seat
from app.reads import catalogs
from app.reads.games import computer_seats, computers_json
from app.services.lock import now
from engine import games
from engine.ai import LEVELS
from engine.canonical import canonical_json
from engine.record import GameRecord


@dataclass(frozen=True)
class CreatedRoom:
    room_id: str
    seat: int
    token: str
    seat_link: str
    #: None when the computer holds the other seat.
    invite_link: str | None
    spectator_link: str
    version: int
    #: The catalog the room is played with: its id and SHA-256.
    catalog_id: str
    catalog_sha256: str
    #: The game, its number of seats, and the invite link of every other seat, by seat.
    game: str = "inland_port"
    players: int = 2
    invite_links: tuple[str, ...] = ()


def new_room(
    session: Session,
    *,
    computer: str | None,
    computer_seat: int | None,
    rematch_of: str | None = None,
    start: GameRecord | None = None,
    origin: Literal["import", "fork"] | None = None,
    origin_room_id: str | None = None,
    catalog: engine.Catalog,
) -> Room:
    """Add the row of a room played with `catalog` (flushed, so seats and links may follow).

    The game begins at the start, or after the moves of the record `start`: they become the
    first rows of the room's log, so the log is still the whole game and its replay the board.
    """
    stamp = now()
    moves = start.moves if start is not None else ()
    positions = start.positions(catalog) if start is not None else [engine.new_game(catalog)]
    room = Room(
        id=new_room_id(),
        version=len(moves),
        snapshot=engine.summary_json(positions[-1]),
        finished=engine.is_finished(positions[-1]),
        created_at=stamp,
        updated_at=stamp,
        rematch_of=rematch_of,
        computer=computer,
        computer_seat=computer_seat,
        origin=origin,
        start_moves=len(moves),
        origin_room_id=origin_room_id,
    )
    catalogs.pin(room, catalog)
    session.add(room)
    session.flush()
    for seq, (move, before) in enumerate(zip(moves, positions, strict=False)):
        session.add(
            Move(
                room_id=room.id,
                seq=seq,
                seat=before.turn % 2,
                move=move.canonical,
                client_move_id=f"start-{seq}",
                created_at=stamp,
            )
        )
    return room


def check_opponent(computer: str | None) -> None:
    """A room's opponent is a friend (None) or the computer at one of its strengths."""
    if computer is not None and computer not in LEVELS:
        raise ValueError(f"computer must be one of {', '.join(LEVELS)}")


def create_room(
    session: Session,
    *,
    host_seat: int | Literal["random"],
    base_url: str,
    computer: str | None = None,
    catalog_id: str | None = None,
    publisher: Publisher | None = None,
) -> CreatedRoom:
    """A new room with the host in `host_seat` (0 moves first; "random" lets chance decide).

    With `computer` ("easy", "normal" or "strong") the computer holds the other seat: there is
    no invite link, and the publisher hears of the new room so the computer can open the game.
    The room is played with the catalog `catalog_id` (None: the default for new rooms;
    `UnknownCatalog` for one this server does not have).
    """
    if host_seat == "random":
        seat = secrets.randbelow(2)
    elif host_seat in (0, 1) and not isinstance(host_seat, bool):
        seat = host_seat
    else:
        raise ValueError('host_seat must be 0, 1 or "random"')
    check_opponent(computer)
    catalog = catalogs.chosen(catalog_id)
    room = new_room(
        session,
        computer=computer,
        computer_seat=None if computer is None else 1 - seat,
        catalog=catalog,
    )
    return seat_host(session, room, seat=seat, base_url=base_url, publisher=publisher)


def create_game_room(
    session: Session,
    *,
    game_id: str,
    players: int,
    variant: str | None,
    host_seat: int | Literal["random"],
    base_url: str,
    computers: Mapping[int, str] | None = None,
    publisher: Publisher | None = None,
) -> CreatedRoom:
    """A new room of a game other than Inland Port (`engine.games`) for `players` seats, the
    host in `host_seat` ("random": chance decides among the seats the computer does not play),
    the computer in the seats of `computers` at their strengths, every other seat offered by
    its own invite link; a random setup (`variant` None: the game's first). The game starts
    once every seat is taken: at once when the host plays alone or with the computer only."""
    rules = games.game(game_id)
    computers = dict(computers or {})
    free = [seat for seat in range(players) if seat not in computers]
    seat = free[secrets.randbelow(len(free))] if host_seat == "random" and free else host_seat
    if not _seats_fit(seat, rules, players, computers):
        raise ValueError("the host and the computer each need a seat of the room of their own")
    room = new_game_room(
        session, game_id=game_id, players=players, variant=variant, computers=computers
    )
    publish = publisher if computers else None
    return seat_host(session, room, seat=seat, base_url=base_url, publisher=publish)


def new_game_room(
    session: Session,
    *,
    game_id: str,
    players: int,
    variant: str | None,
    computers: Mapping[int, str],
    rematch_of: str | None = None,
) -> Room:
    """Add the row of a room of a game other than Inland Port with a random setup of `variant`
    (None: the game's first), the computer in the seats of `computers` (flushed, so seats and
    links may follow)."""
    rules = games.game(game_id)
    setup = rules.random_setup(players, variant or rules.variants[0], secrets.randbits(64))
    stamp = now()
    start = rules.start(setup)
    room = Room(
        id=new_room_id(),
        game=game_id,
        players=players,
        setup=canonical_json(setup),
        version=0,
        snapshot=games.summary_json(rules, start),
        finished=rules.finished(start),
        created_at=stamp,
        updated_at=stamp,
        computer=None,
        computer_seat=None,
        computers=computers_json(computers),
        rematch_of=rematch_of,
    )
    room.catalog_id, room.catalog_sha256 = rules.numbers()
    session.add(room)
    session.flush()
    return room


def _seats_fit(
    host: object, rules: games.Game, players: int, computers: Mapping[int, str]
) -> TypeGuard[int]:
    """Whether the host's seat is one of the room's that the computer does not play, and the
    computer's seats are the room's at the game's strengths."""
    if isinstance(host, bool) or host not in range(players) or host in computers:
        return False
    return all(s in range(players) and v in rules.strengths for s, v in computers.items())


def seat_host(
    session: Session, room: Room, *, seat: int, base_url: str, publisher: Publisher | None
) -> CreatedRoom:
    """Sit the host of the new `room` in `seat`, add the room's links, and commit.

    The other seat is the computer's (`room.computer`) or offered by an invite link; the
    spectator link comes with the host's seat.
    """
    room_id, token, computer = room.id, new_token(), room.computer
    room.host_seat = seat
    session.add(
        Seat(room_id=room_id, seat=seat, token_hash=token_hash(token), joined_at=room.created_at)
    )
    invites = _invites(room, seat, token)
    for other, invite in invites.items():
        session.add(Link(token_hash=token_hash(invite), room_id=room_id, kind="invite", seat=other))
    spectator = spectator_token_for(token)
    session.add(
        Link(token_hash=token_hash(spectator), room_id=room_id, kind="spectator", seat=seat)
    )
    version, catalog_id, catalog_sha256 = room.version, room.catalog_id, room.catalog_sha256
    game, players = room.game, room.players
    session.commit()
    if publisher is not None and (computer is not None or room.computers not in (None, "{}")):
        publisher.room_changed(room_id, None)
    return CreatedRoom(
        room_id=room_id,
        seat=seat,
        token=token,
        seat_link=seat_link(base_url, token),
        invite_link=next((invite_link(base_url, i) for i in invites.values()), None),
        spectator_link=spectator_link(base_url, spectator),
        version=version,
        catalog_id=catalog_id,
        catalog_sha256=catalog_sha256,
        game=game or "inland_port",
        players=players or 2,
        invite_links=tuple(invite_link(base_url, i) for i in invites.values()),
    )


def _invites(room: Room, host_seat: int, host_token: str) -> dict[int, str]:
    """The invite token of every seat the host's room offers, by seat: Inland Port's other seat
    unless the computer holds it; in another game, every seat but the host's and the
    computer's."""
    if room.game in (None, "inland_port"):
        if room.computer is not None:
            return {}
        return {1 - host_seat: invite_token_for(host_token)}
    computers = computer_seats(room)
    return {
        seat: invite_token_for(host_token, seat)
        for seat in range(room.players)
        if seat != host_seat and seat not in computers
    }
