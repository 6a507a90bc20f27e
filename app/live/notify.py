"""How a write tells the world that a room changed: "room R is at version V".

In this process the writer calls a `Publisher` (the hub) after its commit. Across processes,
on PostgreSQL, the writer queues a `NOTIFY` on `CHANNEL` inside its transaction (PostgreSQL
delivers it only once the commit succeeded) and every process LISTENs (`app.live.hub`).

The payload is "R V seat move" after a move (the canonical move rides along, so the other
processes can advance their cached position without reading the log), "R V" when the move is
too long for a payload, "R *" when something other than the move log changed: a seat
claimed, presence, a rematch; "R chat" when the room's chat changed (a message, a setting), and
"R seats" when a seat's token changed (a seat link was reissued): every process then forgets
the seat tokens it remembers for the room.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import text
from sqlalchemy.orm import Session

#: The PostgreSQL channel of the rooms' notifications.
CHANNEL = "inland_port_rooms"
#: Queues one notification on the transaction's connection (built once: a move runs it each time).
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")
#: PostgreSQL limits a payload to 8000 bytes; a longer move is read from the log instead.
MAX_NOTIFIED_MOVE = 7000
#: The payload's second word when a seat's token changed.
SEATS_CHANGED = "seats"


class Publisher(Protocol):
    """Told after a commit that a room changed (`version` None: not the move log)."""

    def room_changed(self, room_id: str, version: int | None) -> None: ...


class SeatPublisher(Publisher, Protocol):
    """Also told after a commit that a seat token of a room changed (a seat link reissued)."""

    def seat_tokens_changed(self, room_id: str | None) -> None: ...


class ChatPublisher(Protocol):
    """Told after a commit that a room's chat changed."""

    def chat_changed(self, room_id: str) -> None: ...


@dataclass(frozen=True)
class Notification:
    """One decoded payload: the room, its version (None: not the move log) and, when it tells of
    a move, (seat, canonical move)."""

    room_id: str
    version: int | None
    move: tuple[int, str] | None = None
    #: A seat's token changed: the tokens remembered for the room are no longer to be trusted.
    seats_changed: bool = False
    #: The room's chat changed (not its board).
    chat: bool = False


#: The payload's second word when a room's chat changed.
CHAT = "chat"


def encode(room_id: str, version: int | None, move: tuple[int, str] | None = None) -> str:
    """The payload for a change of `room_id` ("R V seat move", "R V" or "R *")."""
    payload = f"{room_id} {'*' if version is None else version}"
    if move is not None and len(move[1]) < MAX_NOTIFIED_MOVE:
        payload += f" {move[0]} {move[1]}"
    return payload


def decode(payload: str) -> Notification:
    """The change a payload tells of; anything but a version number reads as "R *"."""
    room_id, _, rest = payload.partition(" ")
    version, _, made = rest.partition(" ")
    if version == SEATS_CHANGED:
        return Notification(room_id, None, seats_changed=True)
    if version == CHAT:
        return Notification(room_id, None, chat=True)
    if not version.isdigit():
        return Notification(room_id, None)
    seat, _, move = made.partition(" ")
    if seat.isdigit() and move:
        return Notification(room_id, int(version), (int(seat), move))
    return Notification(room_id, int(version))


def queue_notify(
    session: Session,
    room_id: str,
    version: int | None,
    move: tuple[int, str] | None = None,
    *,
    seats_changed: bool = False,
) -> None:
    """Queue the cross-process notification; PostgreSQL sends it when the transaction commits.

    `move` is (seat, canonical move) when the change is a move; `seats_changed` when a seat's
    token changed. On SQLite one process serves everything and the `Publisher` is the whole
    story: nothing is queued.
    """
    if session.get_bind().dialect.name == "postgresql":
        payload = f"{room_id} {SEATS_CHANGED}" if seats_changed else encode(room_id, version, move)
        session.connection().execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})


def queue_chat_notify(session: Session, room_id: str) -> None:
    """Queue the cross-process notification that the room's chat changed ("R chat")."""
    if session.get_bind().dialect.name == "postgresql":
        session.connection().execute(_NOTIFY, {"channel": CHANNEL, "payload": f"{room_id} {CHAT}"})
