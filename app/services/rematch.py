"""Rematches: writes a player's offer and, once every player asked (at once against the
computer), the new room, its seats and spectator links. Inland Port's rematch swaps the seats and
is played with the numbers of the game it follows (its catalog); another game's keeps each
player in their seat, with the same number of seats, variant, and computer seats at their
strengths, from a new random setup. Each player's seat in the new room opens with the token
derived from their old one (`app.edge.tokens.rematch_token_for`)."""

from __future__ import annotations

import json

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.edge.tokens import rematch_token_for, spectator_token_for, token_hash
from app.live.notify import Publisher, queue_notify
from app.models import Link, RematchOffer, Room, Seat
from app.reads import catalogs
from app.reads.games import computer_seats
from app.reads.queries import rematch_offers, rematch_seen
from app.reads.roomview import RematchInfo, Viewer
from app.services.errors import NotYourTurn, RematchRefused
from app.services.lock import room_lock
from app.services.rooms import new_game_room, new_room


def offer_rematch(
    session: Session, *, viewer: Viewer, base_url: str, publisher: Publisher | None = None
) -> RematchInfo:
    """Ask for a rematch after a finished game; when every player asked, the new room opens.

    The rulebook settles a draw by a rematch with the boards swapped: the same two players, and
    the player who moved second now moves first (each takes the other seat). The computer
    agrees at once and keeps its strength.
    """
    if viewer.kind != "seat" or viewer.seat is None:
        raise NotYourTurn("not_a_player")
    with room_lock(session, viewer.room_id) as room:
        if not room.finished:
            raise RematchRefused()
        changed = False
        if room.rematch_room_id is None:
            if session.get(RematchOffer, (room.id, viewer.seat)) is None:
                new_seat_token = rematch_token_for(viewer.token)
                session.add(
                    RematchOffer(
                        room_id=room.id,
                        seat=viewer.seat,
                        seat_token_hash=token_hash(new_seat_token),
                        spectator_token_hash=token_hash(spectator_token_for(new_seat_token)),
                    )
                )
                session.flush()
                changed = True
            offers = session.scalars(
                select(RematchOffer).where(RematchOffer.room_id == room.id)
            ).all()
            if room.game != "inland_port":
                if {offer.seat for offer in offers} >= _people(session, room):
                    room.rematch_room_id = _open_game_rematch(session, room, list(offers))
                    changed = True
            elif len(offers) == 2 or room.computer_seat is not None:
                room.rematch_room_id = _open_rematch_room(session, room, list(offers))
                changed = True
        if changed:
            queue_notify(session, room.id, None)
            session.commit()
        info = rematch_seen(rematch_offers(session, room), room.rematch_room_id, viewer, base_url)
    if changed and publisher is not None:
        publisher.room_changed(viewer.room_id, None)
        if info.room_id is not None and (
            room.computer_seat is not None or room.computers not in (None, "{}")
        ):
            publisher.room_changed(info.room_id, None)
    return info


def _people(session: Session, room: Room) -> set[int]:
    """The seats people hold in the room (one who resigned among them)."""
    return set(session.scalars(select(Seat.seat).where(Seat.room_id == room.id)))


def _open_game_rematch(session: Session, old_room: Room, offers: list[RematchOffer]) -> str:
    """The new room of another game: the same game, seats, variant and computer seats (the
    seats the computer played from the start, not those of players who resigned), each player
    in their own seat with the tokens their offer derived from the old seat token."""
    people = {offer.seat for offer in offers}
    computers = {s: v for s, v in computer_seats(old_room).items() if s not in people}
    room = new_game_room(
        session,
        game_id=old_room.game,
        players=old_room.players,
        variant=json.loads(old_room.setup).get("variant"),
        computers=computers,
        rematch_of=old_room.id,
    )
    room.host_seat = old_room.host_seat
    for offer in offers:
        _sit(session, room, offer, offer.seat)
    return room.id


def _sit(session: Session, room: Room, offer: RematchOffer, seat: int) -> None:
    """The offer's player in `seat` of the new room, with its seat and spectator tokens."""
    session.add(
        Seat(
            room_id=room.id, seat=seat, token_hash=offer.seat_token_hash, joined_at=room.created_at
        )
    )
    session.add(
        Link(token_hash=offer.spectator_token_hash, room_id=room.id, kind="spectator", seat=seat)
    )


def _open_rematch_room(session: Session, old_room: Room, offers: list[RematchOffer]) -> str:
    """The new room: each player who offered sits in the other seat, with the tokens the offer
    derived from the old seat token."""
    computer_seat = None if old_room.computer_seat is None else 1 - old_room.computer_seat
    room = new_room(
        session,
        computer=old_room.computer,
        computer_seat=computer_seat,
        rematch_of=old_room.id,
        catalog=catalogs.of_room(old_room),
    )
    if old_room.host_seat is not None:
        room.host_seat = 1 - old_room.host_seat
    for offer in offers:
        _sit(session, room, offer, 1 - offer.seat)
    return room.id
