"""Rematches: writes a player's offer and, once both players asked (at once against the
computer), the new room with the seats swapped, its seats and spectator links. A rematch is played
with the numbers of the game it follows (its catalog)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.edge.tokens import rematch_token_for, spectator_token_for, token_hash
from app.live.notify import Publisher, queue_notify
from app.models import Link, RematchOffer, Room, Seat
from app.reads import catalogs
from app.reads.queries import rematch_offers, rematch_seen
from app.reads.roomview import RematchInfo, Viewer
from app.services.errors import NotYourTurn, RematchRefused
from app.services.lock import room_lock
from app.services.rooms import new_room


def offer_rematch(
    session: Session, *, viewer: Viewer, base_url: str, publisher: Publisher | None = None
) -> RematchInfo:
    """Ask for a rematch after a finished game; when both players asked, the new room opens.

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
            if len(offers) == 2 or room.computer_seat is not None:
                room.rematch_room_id = _open_rematch_room(session, room, list(offers))
                changed = True
        if changed:
            queue_notify(session, room.id, None)
            session.commit()
        info = rematch_seen(rematch_offers(session, room), room.rematch_room_id, viewer, base_url)
    if changed and publisher is not None:
        publisher.room_changed(viewer.room_id, None)
        if info.room_id is not None and room.computer_seat is not None:
            publisher.room_changed(info.room_id, None)
    return info


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
        new_seat = 1 - offer.seat
        session.add(
            Seat(
                room_id=room.id,
                seat=new_seat,
                token_hash=offer.seat_token_hash,
                joined_at=room.created_at,
            )
        )
        session.add(
            Link(
                token_hash=offer.spectator_token_hash,
                room_id=room.id,
                kind="spectator",
                seat=new_seat,
            )
        )
    return room.id
