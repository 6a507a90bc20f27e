"""Seats and the links that open them: claiming an invite writes the guest's seat, its
spectator link and the invite's use; the host reissuing the other seat's link writes that
seat's new token and ends the old one's spectator link and rematch offer. Also who holds a
token (`resolve_token`), remembered per process; a seat token reissued is forgotten at once in
this process and, on PostgreSQL, in every other one when its notification arrives
(`forget_seat_tokens`), and the open pages of a token that no longer opens its room are found by
reading the room's seats again (`lost_viewers`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.edge.links import seat_link
from app.edge.tokens import looks_like_token, new_token, spectator_token_for, token_hash
from app.live.notify import Publisher, SeatPublisher, queue_notify
from app.models import Link, RematchOffer, Room, RoomEvent, Seat
from app.reads.positions import Memory
from app.reads.roomview import Viewer
from app.services.errors import InvalidLink, InviteClosed, ReissueRefused, SeatTaken
from app.services.events import log_event
from app.services.lock import now, room_lock

MAX_REISSUES = 5
"""How many times a room's seat link may be given anew: enough for a guest who keeps losing it,
not a way to keep the opponent's link, or the server, busy."""


@dataclass(frozen=True)
class ClaimedSeat:
    room_id: str
    seat: int
    token: str
    seat_link: str


class KnownTokens:
    """Seat and spectator tokens by hash: they never change what they open until a seat link
    is reissued. Invite tokens are not kept: they turn into "seat taken" when claimed.

    A read of the database is stamped with the generation before it (`stamp`) and put only if
    nothing was forgotten since (`put`): a read that saw a seat row before a reissue committed
    cannot put the old token back after the reissue forgot it. Forgetting is rare (a reissue,
    a listener that reconnects), so a put skipped now and then costs one more read, no more.
    """

    def __init__(self, maxsize: int) -> None:
        self._memory: Memory[Viewer] = Memory(maxsize=maxsize)
        self._lock = threading.Lock()
        self._generation = 0

    def stamp(self) -> int:
        return self._generation

    def get(self, digest: str) -> Viewer | None:
        return self._memory.get(digest)

    def put(self, digest: str, viewer: Viewer, stamp: int) -> Viewer:
        with self._lock:
            if stamp == self._generation:
                self._memory.put(digest, viewer)
        return viewer

    def forget(self, room_id: str | None) -> None:
        """Forget the seat and spectator tokens of `room_id` (None: of every room)."""
        with self._lock:
            self._generation += 1
            if room_id is None:
                self._memory.clear()
            else:
                self._memory.forget(lambda viewer: viewer.room_id != room_id)


known_tokens = KnownTokens(maxsize=65536)


def forget_seat_tokens(room_id: str | None) -> None:
    """Forget the tokens remembered for `room_id` (one of them no longer opens its seat; None:
    for every room, when notifications may have been lost)."""
    known_tokens.forget(room_id)


def known_viewer(token: str) -> Viewer | None:
    """The seat or spectator behind `token` when this process has seen it before (no I/O)."""
    if not looks_like_token(token):
        return None
    return known_tokens.get(token_hash(token))


def resolve_token(session: Session, *, token: str) -> Viewer | None:
    """Who holds `token`: a seat, a spectator, or an invite (None when it is no link of ours)."""
    if not looks_like_token(token):
        return None
    digest = token_hash(token)
    known = known_tokens.get(digest)
    if known is not None:
        return known
    stamp = known_tokens.stamp()
    try:
        seat = session.scalar(select(Seat).where(Seat.token_hash == digest))
        if seat is not None:
            viewer = Viewer(room_id=seat.room_id, seat=seat.seat, kind="seat", token=token)
            return known_tokens.put(digest, viewer, stamp)
        link = session.get(Link, digest)
        if link is None:
            return None
        if link.kind == "spectator":
            viewer = Viewer(room_id=link.room_id, seat=None, kind="spectator", token=token)
            return known_tokens.put(digest, viewer, stamp)
        return Viewer(
            room_id=link.room_id,
            seat=None,
            kind="invite",
            token=token,
            seat_taken=link.used_at is not None,
        )
    finally:
        session.rollback()


def invite_seat(session: Session, *, invite_token: str) -> int | None:
    """The seat an invite link still offers: None when it is no invite of ours or its room has
    ended before the guest took the seat."""
    if not looks_like_token(invite_token):
        return None
    try:
        link = session.get(Link, token_hash(invite_token))
        if link is None or link.kind != "invite":
            return None
        room = session.get(Room, link.room_id)
        return link.seat if room is not None and not room.finished else None
    finally:
        session.rollback()


def claim_invite(
    session: Session, *, invite_token: str, base_url: str, publisher: Publisher | None = None
) -> ClaimedSeat:
    """Claim the seat an invite link offers. It works once; then `SeatTaken`. A room that has
    ended (aborted, resigned, won) before the guest came seats nobody: `InviteClosed`."""
    if not looks_like_token(invite_token):
        raise InvalidLink()
    digest = token_hash(invite_token)
    link = session.get(Link, digest)
    if link is None or link.kind != "invite" or link.seat is None:
        session.rollback()
        raise InvalidLink()
    room_id, seat = link.room_id, link.seat
    session.rollback()  # the room lock comes first in the writing transaction
    token = new_token()
    with room_lock(session, room_id) as room:
        if room.finished:
            raise InviteClosed(room_id)
        stamp = now()
        claimed = session.execute(
            update(Link)
            .where(Link.token_hash == digest, Link.used_at.is_(None))
            .values(used_at=stamp)
            .execution_options(synchronize_session=False)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            raise SeatTaken(room_id)
        session.add(Seat(room_id=room_id, seat=seat, token_hash=token_hash(token), joined_at=stamp))
        session.add(
            Link(
                token_hash=token_hash(spectator_token_for(token)),
                room_id=room_id,
                kind="spectator",
                seat=seat,
            )
        )
        queue_notify(session, room_id, None)
        try:
            session.commit()
        except IntegrityError:
            session.rollback()
            raise SeatTaken(room_id) from None
    if publisher is not None:
        publisher.room_changed(room_id, None)
    return ClaimedSeat(
        room_id=room_id, seat=seat, token=token, seat_link=seat_link(base_url, token)
    )


def reissue_seat_link(
    session: Session, *, viewer: Viewer, base_url: str, publisher: SeatPublisher | None = None
) -> str:
    """The host gives the other seat a new token and gets its new seat link, for a guest who
    lost theirs (Inland Port; another game's room: `reissue_link`)."""
    return reissue_link(session, viewer=viewer, base_url=base_url, publisher=publisher).seat_link


def reissue_link(
    session: Session, *, viewer: Viewer, base_url: str, publisher: SeatPublisher | None = None
) -> ClaimedSeat:
    """A seat gets a new token and its new seat link: in Inland Port's room the host's other
    seat, for a guest who lost theirs; in another game's room the viewer's own seat, whatever
    its number (a link that went astray). The old link stops opening the seat at once, and so
    do the spectator link derived from it and its rematch offer (the new holder offers again);
    the room's log records it; the seat's absence clock starts again (and again when the new
    link is first used).

    Refused: in Inland Port's room to anyone but the host (`ReissueRefused` "not_the_host"), for
    a seat no person holds ("no_seat_to_reissue": still offered by the invite, or the
    computer's); in another game's room to a spectator ("not_a_player") and for a seat the
    computer took over ("seat_played_by_computer"); each seat `MAX_REISSUES` times at most
    (Inland Port: the room)."""
    with room_lock(session, viewer.room_id) as room:
        target = _reissued_seat(room, viewer)
        seat = session.get(Seat, (room.id, target))
        if seat is None:
            raise ReissueRefused("no_seat_to_reissue")
        if _reissues(session, room.id, None if room.game == "inland_port" else target) >= (
            MAX_REISSUES
        ):
            raise ReissueRefused("too_many_reissues", {"limit": MAX_REISSUES})
        token = new_token()
        seat.token_hash = token_hash(token)
        # The absence clock starts again: a new link cannot make its holder look gone at once.
        seat.last_seen_at = now()
        _end_derived(session, room.id, target)
        session.add(
            Link(
                token_hash=token_hash(spectator_token_for(token)),
                room_id=room.id,
                kind="spectator",
                seat=target,
            )
        )
        log_event(session, room, "seat_link_reissued", target)
        room.updated_at = now()
        queue_notify(session, room.id, None, seats_changed=True)
        session.commit()
    forget_seat_tokens(viewer.room_id)
    if publisher is not None:
        publisher.room_changed(viewer.room_id, None)
        publisher.seat_tokens_changed(viewer.room_id)
    return ClaimedSeat(viewer.room_id, target, token, seat_link(base_url, token))


def _reissued_seat(room: Room, viewer: Viewer) -> int:
    """The seat whose link `viewer` may give anew in the locked `room`."""
    seat = viewer.seat
    if viewer.kind != "seat" or seat is None:
        raise ReissueRefused("not_the_host" if room.game == "inland_port" else "not_a_player")
    if room.game == "inland_port":
        if room.host_seat != seat:
            raise ReissueRefused("not_the_host")
        if room.computer_seat == 1 - seat:
            raise ReissueRefused("no_seat_to_reissue")
        return 1 - seat
    if str(seat) in json.loads(room.computers):
        raise ReissueRefused("seat_played_by_computer")
    return seat


def _end_derived(session: Session, room_id: str, seat: int) -> None:
    """Delete what the seat's old token opened besides the seat: its spectator link and its
    pending rematch offer."""
    session.execute(
        delete(Link).where(Link.room_id == room_id, Link.kind == "spectator", Link.seat == seat)
    )
    session.execute(
        delete(RematchOffer).where(RematchOffer.room_id == room_id, RematchOffer.seat == seat)
    )


def lost_viewers(session: Session, *, room_id: str, viewers: Iterable[Viewer]) -> set[Viewer]:
    """The seats and spectators among `viewers` whose token no longer opens `room_id`, read
    from the database (not from what this process remembers)."""
    try:
        held = {
            (seat, digest)
            for seat, digest in session.execute(
                select(Seat.seat, Seat.token_hash).where(Seat.room_id == room_id)
            )
        }
        watching = set(
            session.scalars(
                select(Link.token_hash).where(Link.room_id == room_id, Link.kind == "spectator")
            )
        )
    finally:
        session.rollback()
    lost = set()
    for viewer in viewers:
        digest = token_hash(viewer.token)
        if (viewer.kind == "seat" and (viewer.seat, digest) not in held) or (
            viewer.kind == "spectator" and digest not in watching
        ):
            lost.add(viewer)
    return lost


def _reissues(session: Session, room_id: str, seat: int | None) -> int:
    """How many times the room's seat link was given anew (of `seat`; None: of any seat)."""
    query = (
        select(func.count())
        .select_from(RoomEvent)
        .where(RoomEvent.room_id == room_id, RoomEvent.kind == "seat_link_reissued")
    )
    if seat is not None:
        query = query.where(RoomEvent.seat == seat)
    return int(session.scalar(query) or 0)
