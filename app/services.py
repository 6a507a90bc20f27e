"""The only module that writes to the database: rooms, seats, links, moves, rematches, presence.

Every function is keyword-only and takes a SQLAlchemy `Session`; each one ends its transaction
(commit or rollback) before it returns. Tokens come in as the secrets themselves and are only
ever stored as hashes (`app.security`).

A move goes through `submit_move`, which is the whole rule of the move log:

1. lock the room (`SELECT ... FOR UPDATE` on PostgreSQL; a per-room lock plus SQLite's write lock);
2. a `client_move_id` this seat already used gets the original answer and applies nothing;
3. the version the client saw must be the room's version (else `StaleVersion`, HTTP 409);
4. the seat must be the one to move (else `NotYourTurn`, HTTP 403);
5. the engine applies the move (else `MoveRefused` with the engine's reason, HTTP 422);
6. append the canonical move, bump the version, refresh the snapshot, commit;
7. only then publish "room R is at version V" (on PostgreSQL the NOTIFY is part of the
   transaction, so PostgreSQL delivers it only once the commit succeeded).

Exceptions: `RoomNotFound`, `InvalidLink`, `SeatTaken`, `NotYourTurn`, `StaleVersion`,
`MoveRefused`, `RematchRefused` (all subclasses of `ServiceError`).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, Literal, Protocol, TypeVar

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import engine
from app.models import Connection, Link, Move, RematchOffer, Room, Seat, ServerProcess
from app.roomview import LogEntry, RematchInfo, RoomFacts, RoomView, Viewer
from app.security import (
    invite_token_for,
    looks_like_token,
    new_room_id,
    new_token,
    rematch_token_for,
    spectator_token_for,
    token_hash,
)
from engine.ai import LEVELS

V = TypeVar("V")

#: PostgreSQL channel for "room R changed" notifications (payload "R V", or "R *" when
#: something other than the move log changed: a seat claimed, presence, a rematch).
NOTIFY_CHANNEL = "inland_port_rooms"
MAX_CLIENT_MOVE_ID = 64
#: PostgreSQL limits a payload to 8000 bytes; a longer move is read from the log instead.
MAX_NOTIFIED_MOVE = 7000


class ServiceError(Exception):
    """A request the rules of the room refuse; the message is for the player."""


class RoomNotFound(ServiceError):
    def __init__(self, room_id: str) -> None:
        super().__init__("There is no such room.")
        self.room_id = room_id


class InvalidLink(ServiceError):
    def __init__(self) -> None:
        super().__init__("This link is not valid.")


class SeatTaken(ServiceError):
    def __init__(self, room_id: str) -> None:
        super().__init__("This invite was already used: the seat is taken.")
        self.room_id = room_id


class NotYourTurn(ServiceError):
    """A move by a spectator, a stranger, the player not to move, or after the game ended."""


class StaleVersion(ServiceError):
    def __init__(self, room_id: str, current_version: int) -> None:
        super().__init__(
            f"The board changed: it is now at version {current_version}. Look again and retry."
        )
        self.room_id = room_id
        self.current_version = current_version


class MoveRefused(ServiceError):
    """The engine refused the move (malformed or illegal); the message is the engine's reason."""


class RematchRefused(ServiceError):
    pass


class Publisher(Protocol):
    """Told after a commit that a room changed (`version` None: not the move log)."""

    def room_changed(self, room_id: str, version: int | None) -> None: ...


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


@dataclass(frozen=True)
class ClaimedSeat:
    room_id: str
    seat: int
    token: str
    seat_link: str


@dataclass(frozen=True)
class MoveResult:
    room_id: str
    version: int
    summary: dict[str, Any]
    #: True when the client move id was already used and this is the original answer again.
    duplicate: bool = False


@dataclass(frozen=True)
class ComputerTurn:
    """The computer is to move in `room_id`: its strength, its seat, the position and its version."""

    room_id: str
    level: str
    seat: int
    version: int
    state: engine.GameState


@dataclass(frozen=True)
class RoomSummary:
    room_id: str
    version: int
    summary: dict[str, Any]
    online: tuple[bool, bool]
    spectators: int
    finished: bool
    #: When finished: {"scores": [a, b], "winner": 0 | 1 | None, "breakdown": [{...}, {...}]}.
    result: dict[str, Any] | None


# --- links -------------------------------------------------------------------------------


def seat_link(base_url: str, token: str) -> str:
    return f"{base_url}/s/{token}"


def invite_link(base_url: str, token: str) -> str:
    return f"{base_url}/i/{token}"


def spectator_link(base_url: str, token: str) -> str:
    return f"{base_url}/w/{token}"


# --- positions: replay of the log, cached per process --------------------------------------


@dataclass(frozen=True)
class _Position:
    version: int
    state: engine.GameState
    log: tuple[LogEntry, ...]


class _Memory(Generic[V]):
    """A bounded map from strings, forgetting the least recently used first; thread-safe."""

    def __init__(self, maxsize: int) -> None:
        self._items: OrderedDict[str, V] = OrderedDict()
        self._lock = threading.Lock()
        self._maxsize = maxsize

    def get(self, key: str) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: str, value: V) -> V:
        with self._lock:
            current = self._items.get(key)
            if current is None or self._replaces(value, current):
                self._items[key] = value
                self._items.move_to_end(key)
            while len(self._items) > self._maxsize:
                self._items.popitem(last=False)
        return value

    def _replaces(self, new: V, old: V) -> bool:
        return True


class _PositionCache(_Memory[_Position]):
    """The latest replayed position per room. The log is append-only, so a position cached at
    version V stays true for ever; a newer version only needs the moves after V."""

    def _replaces(self, new: _Position, old: _Position) -> bool:
        return new.version >= old.version


positions = _PositionCache(maxsize=4096)


def _log_entry(
    seq: int, seat: int, move: engine.Move, events: tuple[engine.Event, ...]
) -> LogEntry:
    return LogEntry(
        seq=seq, seat=seat, move=move.to_json(), events=[event.to_json() for event in events]
    )


def _position(session: Session, room_id: str, version: int) -> _Position:
    """The position after the first `version` moves of the room's log."""
    cached = positions.get(room_id)
    if cached is not None and cached.version == version:
        return cached
    if cached is not None and cached.version < version:
        state, log, start = cached.state, list(cached.log), cached.version
    else:
        state, log, start = engine.new_game(), [], 0
    rows = session.execute(
        select(Move.seq, Move.seat, Move.move)
        .where(Move.room_id == room_id, Move.seq >= start, Move.seq < version)
        .order_by(Move.seq)
    ).all()
    if len(rows) != version - start:
        raise RuntimeError(f"room {room_id}: the move log has a gap before version {version}")
    for seq, seat, text_move in rows:
        move = engine.parse_move(text_move)
        state, events = engine.apply_with_events(state, move)
        log.append(_log_entry(seq, seat, move, events))
    position = _Position(version=version, state=state, log=tuple(log))
    positions.put(room_id, position)
    return position


def remember_move(room_id: str, version: int, seat: int, move: str) -> bool:
    """Bring the cached position of a room to `version` with the move that led there.

    For a move made in another process (its notification carries the move). Only a position
    cached at `version - 1` is advanced; otherwise nothing happens and the next read replays
    the log. Returns whether the cache was advanced.
    """
    cached = positions.get(room_id)
    if cached is None or cached.version != version - 1:
        return False
    parsed = engine.parse_move(move)
    state, events = engine.apply_with_events(cached.state, parsed)
    entry = _log_entry(cached.version, seat, parsed, events)
    positions.put(room_id, _Position(version, state, (*cached.log, entry)))
    return True


def snapshot_json(state: engine.GameState) -> str:
    """The canonical JSON of a position's summary, as stored in `rooms.snapshot`."""
    return json.dumps(engine.summary(state), sort_keys=True, separators=(",", ":"))


# --- locking -------------------------------------------------------------------------------

_SQLITE_LOCKS = tuple(threading.Lock() for _ in range(64))


@contextmanager
def _room_lock(session: Session, room_id: str) -> Iterator[Room]:
    """Hold the room's lock for the rest of the transaction and yield its row.

    PostgreSQL: `SELECT ... FOR UPDATE`. SQLite: a per-room lock inside this process, then a
    no-op UPDATE as the transaction's first statement, which takes SQLite's write lock (so
    other processes on the same file wait too).
    """
    if session.get_bind().dialect.name == "sqlite":
        lock = _SQLITE_LOCKS[zlib.crc32(room_id.encode()) % len(_SQLITE_LOCKS)]
        with lock:
            session.execute(update(Room).where(Room.id == room_id).values(version=Room.version))
            room = session.get(Room, room_id, populate_existing=True)
            with _held(session, room_id, room) as held:
                yield held
        return
    room = session.scalar(select(Room).where(Room.id == room_id).with_for_update())
    with _held(session, room_id, room) as held:
        yield held


@contextmanager
def _held(session: Session, room_id: str, room: Room | None) -> Iterator[Room]:
    """The locked room for the rest of the transaction, which is rolled back if left open."""
    if room is None:
        session.rollback()
        raise RoomNotFound(room_id)
    try:
        yield room
    finally:
        if session.in_transaction():
            session.rollback()


def _notify(
    session: Session, room_id: str, version: int | None, move: tuple[int, str] | None = None
) -> None:
    """Queue the cross-process notification; PostgreSQL sends it when the transaction commits.

    A move's notification carries the move itself ("R V seat move"), so the other processes
    can bring their cached position up to date without reading the log (`remember_move`).
    """
    if session.get_bind().dialect.name == "postgresql":
        payload = f"{room_id} {'*' if version is None else version}"
        if move is not None and len(move[1]) < MAX_NOTIFIED_MOVE:
            payload += f" {move[0]} {move[1]}"
        session.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": NOTIFY_CHANNEL, "payload": payload},
        )


def _now() -> datetime:
    return datetime.now(UTC)


# --- rooms, seats, links -------------------------------------------------------------------


def create_room(
    session: Session,
    *,
    host_seat: int | Literal["random"],
    base_url: str,
    computer: str | None = None,
    publisher: Publisher | None = None,
) -> CreatedRoom:
    """A new room with the host in `host_seat` (0 moves first; "random" lets chance decide).

    With `computer` ("easy", "normal" or "strong") the computer holds the other seat: there is
    no invite link, and the publisher hears of the new room so the computer can open the game.
    """
    if host_seat == "random":
        seat = secrets.randbelow(2)
    elif host_seat in (0, 1) and not isinstance(host_seat, bool):
        seat = host_seat
    else:
        raise ValueError('host_seat must be 0, 1 or "random"')
    if computer is not None and computer not in LEVELS:
        raise ValueError(f"computer must be one of {', '.join(LEVELS)}")
    room_id, token, now = new_room_id(), new_token(), _now()
    session.add(
        Room(
            id=room_id,
            version=0,
            snapshot=snapshot_json(engine.new_game()),
            finished=False,
            created_at=now,
            updated_at=now,
            computer=computer,
            computer_seat=None if computer is None else 1 - seat,
        )
    )
    session.flush()
    session.add(Seat(room_id=room_id, seat=seat, token_hash=token_hash(token), joined_at=now))
    invite, spectator = invite_token_for(token), spectator_token_for(token)
    if computer is None:
        session.add(
            Link(token_hash=token_hash(invite), room_id=room_id, kind="invite", seat=1 - seat)
        )
    session.add(
        Link(token_hash=token_hash(spectator), room_id=room_id, kind="spectator", seat=seat)
    )
    session.commit()
    if computer is not None and publisher is not None:
        publisher.room_changed(room_id, None)
    return CreatedRoom(
        room_id=room_id,
        seat=seat,
        token=token,
        seat_link=seat_link(base_url, token),
        invite_link=None if computer is not None else invite_link(base_url, invite),
        spectator_link=spectator_link(base_url, spectator),
        version=0,
    )


#: Seat and spectator tokens never change what they open, so they are remembered (by hash).
#: Invite tokens are not: they turn into "seat taken" when claimed.
known_tokens: _Memory[Viewer] = _Memory(maxsize=65536)


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
    try:
        seat = session.scalar(select(Seat).where(Seat.token_hash == digest))
        if seat is not None:
            viewer = Viewer(room_id=seat.room_id, seat=seat.seat, kind="seat", token=token)
            return known_tokens.put(digest, viewer)
        link = session.get(Link, digest)
        if link is None:
            return None
        if link.kind == "spectator":
            viewer = Viewer(room_id=link.room_id, seat=None, kind="spectator", token=token)
            return known_tokens.put(digest, viewer)
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
    """The seat an invite link offers (None when it is no invite of ours)."""
    if not looks_like_token(invite_token):
        return None
    try:
        link = session.get(Link, token_hash(invite_token))
        return link.seat if link is not None and link.kind == "invite" else None
    finally:
        session.rollback()


def claim_invite(
    session: Session, *, invite_token: str, base_url: str, publisher: Publisher | None = None
) -> ClaimedSeat:
    """Claim the seat an invite link offers. It works once; then `SeatTaken`."""
    if not looks_like_token(invite_token):
        raise InvalidLink()
    digest = token_hash(invite_token)
    link = session.get(Link, digest)
    if link is None or link.kind != "invite" or link.seat is None:
        session.rollback()
        raise InvalidLink()
    room_id, seat = link.room_id, link.seat
    now = _now()
    claimed = session.execute(
        update(Link)
        .where(Link.token_hash == digest, Link.used_at.is_(None))
        .values(used_at=now)
        .execution_options(synchronize_session=False)
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        raise SeatTaken(room_id)
    token = new_token()
    session.add(Seat(room_id=room_id, seat=seat, token_hash=token_hash(token), joined_at=now))
    session.add(
        Link(
            token_hash=token_hash(spectator_token_for(token)),
            room_id=room_id,
            kind="spectator",
            seat=seat,
        )
    )
    _notify(session, room_id, None)
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


# --- moves ---------------------------------------------------------------------------------


def submit_move(
    session: Session,
    *,
    room_id: str,
    seat: int | None,
    move: Any,
    version: int,
    client_move_id: str,
    publisher: Publisher | None = None,
) -> MoveResult:
    """Apply one move for `seat` (see the module docstring for the order of the checks)."""
    if seat not in (0, 1):
        raise NotYourTurn("Only a player of this room can move.")
    if not client_move_id or len(client_move_id) > MAX_CLIENT_MOVE_ID:
        raise MoveRefused(f"client_move_id must be 1 to {MAX_CLIENT_MOVE_ID} characters long.")
    if not client_move_id.isprintable():
        # Control characters have no place in an id, and PostgreSQL refuses NUL in text.
        raise MoveRefused("client_move_id must not contain control characters.")
    with _room_lock(session, room_id) as room:
        earlier = session.scalar(
            select(Move.seq).where(
                Move.room_id == room_id, Move.seat == seat, Move.client_move_id == client_move_id
            )
        )
        if earlier is not None:
            position = _position(session, room_id, earlier + 1)
            session.rollback()
            return MoveResult(
                room_id=room_id,
                version=earlier + 1,
                summary=engine.summary(position.state),
                duplicate=True,
            )
        if version != room.version:
            raise StaleVersion(room_id, room.version)
        position = _position(session, room_id, room.version)
        state = position.state
        if state.to_move is None:
            raise NotYourTurn("The game is over.")
        if state.to_move != seat:
            raise NotYourTurn("It is not your turn.")
        try:
            parsed = engine.parse_move(move)
            new_state, events = engine.apply_with_events(state, parsed)
        except ValueError as exc:  # MalformedMove and IllegalMove
            raise MoveRefused(str(exc)) from None
        now = _now()
        session.add(
            Move(
                room_id=room_id,
                seq=room.version,
                seat=seat,
                move=engine.canonical(parsed),
                client_move_id=client_move_id,
                created_at=now,
            )
        )
        new_version = room.version + 1
        room.version = new_version
        room.snapshot = snapshot_json(new_state)
        room.finished = engine.is_finished(new_state)
        room.updated_at = now
        _notify(session, room_id, new_version, (seat, engine.canonical(parsed)))
        try:
            session.commit()
        except IntegrityError:
            session.rollback()
            raise StaleVersion(room_id, version + 1) from None
    entry = _log_entry(version, seat, parsed, events)
    positions.put(room_id, _Position(new_version, new_state, (*position.log, entry)))
    if publisher is not None:
        publisher.room_changed(room_id, new_version)
    return MoveResult(room_id=room_id, version=new_version, summary=engine.summary(new_state))


def _room(session: Session, room_id: str) -> Room:
    room = session.get(Room, room_id)
    if room is None:
        session.rollback()
        raise RoomNotFound(room_id)
    return room


def game_result(state: engine.GameState) -> dict[str, Any]:
    """Final scores, the winner (None for a draw) and each seat's breakdown (francs, buildings)."""
    a, b = engine.scores(state)
    return {
        "scores": [a, b],
        "winner": None if a == b else (0 if a > b else 1),
        "breakdown": [engine.score_breakdown(state, 0), engine.score_breakdown(state, 1)],
    }


def room_summary(session: Session, *, room_id: str, presence_timeout: float = 30.0) -> RoomSummary:
    """The room's state summary (from the snapshot), presence, and the result once finished."""
    try:
        room = _room(session, room_id)
        online, spectators = _presence(session, room, presence_timeout)
        result = None
        if room.finished:
            result = game_result(_position(session, room_id, room.version).state)
        return RoomSummary(
            room_id=room_id,
            version=room.version,
            summary=json.loads(room.snapshot),
            online=online,
            spectators=spectators,
            finished=room.finished,
            result=result,
        )
    finally:
        session.rollback()


def legal_moves_for(
    session: Session, *, room_id: str, seat: int
) -> tuple[int, list[dict[str, Any]]]:
    """The room's version and the legal moves of `seat` ([] when it is not that seat's turn)."""
    try:
        room = _room(session, room_id)
        state = _position(session, room_id, room.version).state
        if state.to_move != seat:
            return room.version, []
        return room.version, [move.to_json() for move in engine.legal_moves(state)]
    finally:
        session.rollback()


def computer_turn(session: Session, *, room_id: str) -> tuple[bool, ComputerTurn | None]:
    """Whether the room has a computer player, and its turn when it is the one to move now."""
    try:
        room = _room(session, room_id)
        if room.computer is None or room.computer_seat is None:
            return False, None
        if room.finished:
            return True, None
        state = _position(session, room_id, room.version).state
        if state.to_move != room.computer_seat:
            return True, None
        turn = ComputerTurn(
            room_id=room_id,
            level=room.computer,
            seat=room.computer_seat,
            version=room.version,
            state=state,
        )
        return True, turn
    finally:
        session.rollback()


def computer_rooms_waiting(session: Session) -> list[str]:
    """The unfinished rooms where it is the computer's turn (by the stored snapshot)."""
    try:
        rows = session.execute(
            select(Room.id, Room.computer_seat, Room.snapshot).where(
                Room.computer.is_not(None), Room.finished.is_(False)
            )
        ).all()
        return [
            room_id
            for room_id, seat, snapshot in rows
            if json.loads(snapshot).get("to_move") == seat
        ]
    finally:
        session.rollback()


def move_log(session: Session, *, room_id: str) -> list[dict[str, Any]]:
    """The whole log, oldest first: `{"seq", "seat", "move"}` with canonical move dicts."""
    try:
        _room(session, room_id)
        rows = session.execute(
            select(Move.seq, Move.seat, Move.move).where(Move.room_id == room_id).order_by(Move.seq)
        ).all()
        return [{"seq": seq, "seat": seat, "move": json.loads(m)} for seq, seat, m in rows]
    finally:
        session.rollback()


def load_room_view(
    session: Session, *, viewer: Viewer, base_url: str, presence_timeout: float = 30.0
) -> RoomView:
    """Everything needed to draw the room for `viewer` (see `app.roomview`)."""
    try:
        room = _room(session, viewer.room_id)
        facts = _facts(session, room, presence_timeout)
        position = _position(session, room.id, room.version)
        return room_view(facts, position.state, position.log, viewer=viewer, base_url=base_url)
    finally:
        session.rollback()


def load_room_facts(session: Session, *, room_id: str, presence_timeout: float = 30.0) -> RoomFacts:
    """The room's seats, presence and rematch offers: the part every viewer shares."""
    try:
        return _facts(session, _room(session, room_id), presence_timeout)
    finally:
        session.rollback()


def load_position(
    session: Session, *, room_id: str, version: int
) -> tuple[engine.GameState, tuple[LogEntry, ...]]:
    """The position after the first `version` moves, and the log that led there (cached)."""
    try:
        position = _position(session, room_id, version)
        return position.state, position.log
    finally:
        session.rollback()


def _facts(session: Session, room: Room, presence_timeout: float) -> RoomFacts:
    claimed = set(session.scalars(select(Seat.seat).where(Seat.room_id == room.id)))
    if room.computer_seat is not None:
        claimed.add(room.computer_seat)
    online, spectators = _presence(session, room, presence_timeout)
    open_invites: frozenset[str] = frozenset()
    if len(claimed) < 2:
        open_invites = frozenset(
            session.scalars(
                select(Link.token_hash).where(
                    Link.room_id == room.id, Link.kind == "invite", Link.used_at.is_(None)
                )
            )
        )
    offered = _rematch_offers(session, room) if room.finished else (False, False)
    return RoomFacts(
        room_id=room.id,
        version=room.version,
        seats_claimed=(0 in claimed, 1 in claimed),
        online=online,
        spectators=spectators,
        open_invites=open_invites,
        rematch_offered_by=offered,
        rematch_room_id=room.rematch_room_id,
        computer=room.computer,
        computer_seat=room.computer_seat,
    )


def room_view(
    facts: RoomFacts,
    state: engine.GameState,
    log: tuple[LogEntry, ...],
    *,
    viewer: Viewer,
    base_url: str,
) -> RoomView:
    """The room as `viewer` sees it at the position `state` (no database: a pure function)."""
    is_player = viewer.kind == "seat" and viewer.seat is not None
    invite = None
    if is_player:
        invite_token = invite_token_for(viewer.token)
        if token_hash(invite_token) in facts.open_invites:
            invite = invite_link(base_url, invite_token)
    rematch = None
    if engine.is_finished(state):
        rematch = _rematch(facts.rematch_offered_by, facts.rematch_room_id, viewer, base_url)
    return RoomView(
        room_id=facts.room_id,
        version=len(log),
        state=state,
        viewer_seat=viewer.seat if is_player else None,
        seats_claimed=facts.seats_claimed,
        online=facts.online,
        spectators=facts.spectators,
        log=log,
        invite_link=invite,
        spectator_link=(
            spectator_link(base_url, spectator_token_for(viewer.token)) if is_player else None
        ),
        seat_link=seat_link(base_url, viewer.token) if is_player else None,
        rematch=rematch,
        computer=facts.computer,
        computer_seat=facts.computer_seat,
        seat_taken=viewer.seat_taken,
    )


# --- rematch -------------------------------------------------------------------------------


def _rematch_info(session: Session, room: Room, viewer: Viewer, base_url: str) -> RematchInfo:
    return _rematch(_rematch_offers(session, room), room.rematch_room_id, viewer, base_url)


def _rematch_offers(session: Session, room: Room) -> tuple[bool, bool]:
    offered = set(session.scalars(select(RematchOffer.seat).where(RematchOffer.room_id == room.id)))
    return 0 in offered, 1 in offered


def _rematch(
    offered_by: tuple[bool, bool], room_id: str | None, viewer: Viewer, base_url: str
) -> RematchInfo:
    """The rematch as `viewer` sees it: a player gets a link into the new room once it is open."""
    link = None
    if room_id is not None and viewer.kind == "seat":
        link = seat_link(base_url, rematch_token_for(viewer.token))
    return RematchInfo(offered_by=offered_by, room_id=room_id, seat_link=link)


def offer_rematch(
    session: Session, *, viewer: Viewer, base_url: str, publisher: Publisher | None = None
) -> RematchInfo:
    """Ask for a rematch after a finished game; when both players asked, the new room opens.

    The rulebook settles a draw by a rematch with the boards swapped: the same two players, and
    the player who moved second now moves first (each takes the other seat). The computer
    agrees at once and keeps its strength.
    """
    if viewer.kind != "seat" or viewer.seat is None:
        raise NotYourTurn("Only a player of this room can ask for a rematch.")
    with _room_lock(session, viewer.room_id) as room:
        if not room.finished:
            raise RematchRefused("A rematch can only be asked for once the game is over.")
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
            _notify(session, room.id, None)
            session.commit()
        info = _rematch_info(session, room, viewer, base_url)
    if changed and publisher is not None:
        publisher.room_changed(viewer.room_id, None)
        if info.room_id is not None and room.computer_seat is not None:
            publisher.room_changed(info.room_id, None)
    return info


def _open_rematch_room(session: Session, old_room: Room, offers: list[RematchOffer]) -> str:
    room_id, now = new_room_id(), _now()
    computer_seat = None if old_room.computer_seat is None else 1 - old_room.computer_seat
    session.add(
        Room(
            id=room_id,
            version=0,
            snapshot=snapshot_json(engine.new_game()),
            finished=False,
            created_at=now,
            updated_at=now,
            rematch_of=old_room.id,
            computer=old_room.computer,
            computer_seat=computer_seat,
        )
    )
    session.flush()
    for offer in offers:
        new_seat = 1 - offer.seat
        session.add(
            Seat(room_id=room_id, seat=new_seat, token_hash=offer.seat_token_hash, joined_at=now)
        )
        session.add(
            Link(
                token_hash=offer.spectator_token_hash,
                room_id=room_id,
                kind="spectator",
                seat=new_seat,
            )
        )
    return room_id


# --- presence ------------------------------------------------------------------------------


def _presence(session: Session, room: Room, timeout: float) -> tuple[tuple[bool, bool], int]:
    """Which seats have a live socket (the computer is always there) and how many spectators."""
    rows = session.execute(
        select(Connection.seat, func.count())
        .join(ServerProcess, ServerProcess.id == Connection.process_id)
        .where(Connection.room_id == room.id, ServerProcess.heartbeat_at > time.time() - timeout)
        .group_by(Connection.seat)
    ).all()
    counts = {seat: n for seat, n in rows}
    online = [counts.get(0, 0) > 0, counts.get(1, 0) > 0]
    if room.computer_seat is not None:
        online[room.computer_seat] = True
    return (online[0], online[1]), counts.get(None, 0)


def register_process(session: Session, *, process_id: str, forget_after: float = 300.0) -> None:
    """Announce a server process and forget processes silent for `forget_after` seconds."""
    now = time.time()
    session.execute(delete(ServerProcess).where(ServerProcess.heartbeat_at < now - forget_after))
    session.add(ServerProcess(id=process_id, heartbeat_at=now))
    session.commit()


def heartbeat(session: Session, *, process_id: str) -> None:
    """Keep this process's connections counted as online."""
    result = session.execute(
        update(ServerProcess).where(ServerProcess.id == process_id).values(heartbeat_at=time.time())
    )
    if result.rowcount == 0:  # type: ignore[attr-defined]
        session.add(ServerProcess(id=process_id, heartbeat_at=time.time()))
    session.commit()


def rooms_gone_silent(session: Session, *, timeout: float, window: float) -> list[str]:
    """The rooms with sockets of processes whose heartbeat stopped counting in the last `window`
    seconds (older than `timeout`, but not by more than `window`): their presence just changed."""
    now = time.time()
    try:
        return list(
            session.scalars(
                select(Connection.room_id)
                .join(ServerProcess, ServerProcess.id == Connection.process_id)
                .where(
                    ServerProcess.heartbeat_at <= now - timeout,
                    ServerProcess.heartbeat_at > now - timeout - window,
                )
                .distinct()
            )
        )
    finally:
        session.rollback()


def unregister_process(session: Session, *, process_id: str) -> list[str]:
    """A clean shutdown: drop this process and its connections; returns the rooms affected."""
    rooms = list(
        session.scalars(
            select(Connection.room_id).where(Connection.process_id == process_id).distinct()
        )
    )
    session.execute(delete(Connection).where(Connection.process_id == process_id))
    session.execute(delete(ServerProcess).where(ServerProcess.id == process_id))
    for room_id in rooms:
        _notify(session, room_id, None)
    session.commit()
    return rooms


def connection_opened(
    session: Session, *, connection_id: str, process_id: str, viewer: Viewer
) -> None:
    """Record a live socket (a player's seat, or a spectator) and tell the room."""
    seat = viewer.seat if viewer.kind == "seat" else None
    session.add(
        Connection(id=connection_id, process_id=process_id, room_id=viewer.room_id, seat=seat)
    )
    _notify(session, viewer.room_id, None)
    session.commit()


def connection_closed(session: Session, *, connection_id: str, room_id: str) -> None:
    session.execute(delete(Connection).where(Connection.id == connection_id))
    _notify(session, room_id, None)
    session.commit()
