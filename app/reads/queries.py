"""The reads the pages, the API, the sockets and the computer player need.

Each read is a keyword-only function taking a SQLAlchemy `Session` and ends its transaction
(a rollback) before it returns; `RoomNotFound` when the room does not exist. Positions come
from the replay cache (`app.reads.positions`). `room_view` is the pure part: one room as one viewer
sees it, from the facts every viewer shares and the position.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

import engine
from app.edge.links import invite_link, review_link, seat_link, spectator_link
from app.edge.tokens import invite_token_for, rematch_token_for, spectator_token_for, token_hash
from app.models import Connection, Link, RematchOffer, Room, RoomEvent, Seat, ServerProcess
from app.reads import games
from app.reads.games import ComputerTurn
from app.reads.positions import position, positions
from app.reads.roomview import (
    Ending,
    LogEntry,
    RematchInfo,
    RoomEventEntry,
    RoomFacts,
    RoomView,
    Viewer,
)
from app.services.errors import RoomNotFound
from app.services.presence import absent_seats
from engine.games import game

STANDIN_LEVEL = "normal"
"""The strength of the computer standing in for an absent player."""


@dataclass(frozen=True)
class RoomSummary:
    room_id: str
    version: int
    summary: dict[str, Any]
    online: tuple[bool, ...]
    spectators: int
    finished: bool
    #: When finished: {"scores": [a, b], "winner": 0 | 1 | None, "breakdown": [{...}, {...}]}.
    result: dict[str, Any] | None
    #: The catalog the room is played with: its id and SHA-256.
    catalog: str = ""
    catalog_sha256: str = ""


def room_row(session: Session, room_id: str) -> Room:
    """The room's row; `RoomNotFound` (after a rollback) when there is none."""
    room = session.get(Room, room_id)
    if room is None:
        session.rollback()
        raise RoomNotFound(room_id)
    return room


def game_result(state: engine.GameState, ending: Ending | None = None) -> dict[str, Any]:
    """Final scores, the winner (None for a draw or no result), each seat's breakdown (francs,
    buildings) and, for a game that ended before its last move, how (`ending`: its kind and
    the seat whose act ended it; the winner is then the ending's)."""
    return {
        "scores": list(engine.scores(state)),
        "winner": engine.winner(state) if ending is None else ending.winner,
        "breakdown": [engine.score_breakdown(state, 0), engine.score_breakdown(state, 1)],
        "ending": None if ending is None else {"kind": ending.kind, "seat": ending.seat},
    }


def room_summary(session: Session, *, room_id: str, presence_timeout: float = 30.0) -> RoomSummary:
    """The room's state summary (from the snapshot), presence, and the result once finished."""
    try:
        room = room_row(session, room_id)
        online, spectators = presence(session, room, presence_timeout)
        result = None
        if room.finished and room.game != "inland_port":
            result = games.final_result(session, room)
        elif room.finished:
            result = game_result(position(session, room_id, room.version).state, ending_of(room))
        return RoomSummary(
            room_id=room_id,
            version=room.version,
            summary=json.loads(room.snapshot),
            online=online,
            spectators=spectators,
            finished=room.finished,
            result=result,
            catalog=room.catalog_id,
            catalog_sha256=room.catalog_sha256,
        )
    finally:
        session.rollback()


def legal_moves_for(
    session: Session, *, room_id: str, seat: int
) -> tuple[int, list[dict[str, Any]]]:
    """The room's version and the legal moves of `seat` ([] when it is not that seat's turn)."""
    try:
        room = room_row(session, room_id)
        if room.game != "inland_port":
            return room.version, games.legal_moves_now(session, room, seat)
        state = position(session, room_id, room.version).state
        if state.to_move != seat:
            return room.version, []
        return room.version, [move.to_json() for move in engine.legal_moves(state)]
    finally:
        session.rollback()


def computer_turn(session: Session, *, room_id: str) -> tuple[bool, ComputerTurn | None]:
    """Whether the room has a computer player, and its turn when it is the one to move now."""
    try:
        room = room_row(session, room_id)
        if room.game != "inland_port":
            return games.computer_turn_in(session, room)
        level, seat = _computer_of(room)
        if seat is None:
            return False, None
        if room.finished:
            return True, None
        state = position(session, room_id, room.version).state
        if state.to_move != seat:
            return True, None
        turn = ComputerTurn(
            room_id=room_id,
            level=level,
            seat=seat,
            version=room.version,
            state=state,
        )
        return True, turn
    finally:
        session.rollback()


def _computer_of(room: Room) -> tuple[str, int | None]:
    """The computer's strength and seat in `room`: the opponent's, or the stand-in's for an
    absent player (normal strength); seat None when the computer plays no seat."""
    if room.computer is not None and room.computer_seat is not None:
        return room.computer, room.computer_seat
    return STANDIN_LEVEL, room.standin_seat


def computer_rooms_waiting(session: Session) -> list[str]:
    """The unfinished rooms where it is the computer's turn (by the stored snapshot)."""
    try:
        rows = session.execute(
            select(Room.id, Room.computer_seat, Room.standin_seat, Room.snapshot).where(
                or_(Room.computer.is_not(None), Room.standin_seat.is_not(None)),
                Room.finished.is_(False),
            )
        ).all()
        waiting = [
            room_id
            for room_id, seat, standin, snapshot in rows
            if json.loads(snapshot).get("to_move") in (seat, standin)
        ]
        return waiting + games.computer_rooms_waiting(session)
    finally:
        session.rollback()


def load_room_view(
    session: Session,
    *,
    viewer: Viewer,
    base_url: str,
    presence_timeout: float = 30.0,
    absent_after: float = 180.0,
) -> RoomView:
    """Everything needed to draw the room for `viewer` (see `app.reads.roomview`)."""
    try:
        room = room_row(session, viewer.room_id)
        facts = _facts(session, room, presence_timeout, absent_after)
        if room.game != "inland_port":
            found = games.game_position(session, room, room.version)
            return room_view(facts, found.state, found.log, viewer=viewer, base_url=base_url)
        now = position(session, room.id, room.version)
        return room_view(facts, now.state, now.log, viewer=viewer, base_url=base_url)
    finally:
        session.rollback()


def load_room_facts(
    session: Session, *, room_id: str, presence_timeout: float = 30.0, absent_after: float = 180.0
) -> RoomFacts:
    """The room's seats, presence and rematch offers: the part every viewer shares."""
    try:
        return _facts(session, room_row(session, room_id), presence_timeout, absent_after)
    finally:
        session.rollback()


def load_position(
    session: Session, *, room_id: str, version: int, game: str = "inland_port"
) -> tuple[Any, tuple[LogEntry, ...]]:
    """The position after the first `version` moves of a room of `game`, and the log that led
    there (cached)."""
    try:
        remembered = remembered_position(room_id, version, game)
        if remembered is not None:
            return remembered
        if game != "inland_port":
            other = games.game_position(session, room_row(session, room_id), version)
            return other.state, other.log
        found = position(session, room_id, version)
        return found.state, found.log
    finally:
        session.rollback()


def position_in_memory(room_id: str, version: int, game: str = "inland_port") -> bool:
    """Whether `load_position` answers without reading: the room's position after `version`
    moves is in this process's cache (the move's own, or the one its NOTIFY carried)."""
    return remembered_position(room_id, version, game) is not None


def remembered_position(
    room_id: str, version: int, game: str = "inland_port"
) -> tuple[Any, tuple[LogEntry, ...]] | None:
    """`load_position`'s answer when it is in this process's cache, else None (nothing read)."""
    found = (positions if game == "inland_port" else games.game_positions).get(room_id)
    if found is None or found.version != version:
        return None
    return found.state, found.log


def ending_of(room: Room) -> Ending | None:
    """How the room's game ended early (None: it did not)."""
    if room.ending is None or room.ending_seat is None:
        return None
    return Ending(kind=room.ending, seat=room.ending_seat)


def room_events(session: Session, room_id: str) -> tuple[RoomEventEntry, ...]:
    """The room's happenings besides the moves, oldest first (in the caller's transaction)."""
    rows = session.execute(
        select(RoomEvent.seq, RoomEvent.kind, RoomEvent.seat, RoomEvent.at_version)
        .where(RoomEvent.room_id == room_id)
        .order_by(RoomEvent.seq)
    ).all()
    return tuple(RoomEventEntry(*row) for row in rows)


def _facts(
    session: Session, room: Room, presence_timeout: float, absent_after: float = 180.0
) -> RoomFacts:
    held = set(session.scalars(select(Seat.seat).where(Seat.room_id == room.id)))
    computers = games.computer_seats(room)
    claimed = held | set(computers)
    if room.computer_seat is not None:
        claimed.add(room.computer_seat)
    online, spectators = presence(session, room, presence_timeout)
    open_invites: frozenset[str] = frozenset()
    if len(claimed) < room.players:
        open_invites = frozenset(
            session.scalars(
                select(Link.token_hash).where(
                    Link.room_id == room.id, Link.kind == "invite", Link.used_at.is_(None)
                )
            )
        )
    offered = rematch_offers(session, room) if room.finished else (False,) * room.players
    return RoomFacts(
        room_id=room.id,
        version=room.version,
        game=room.game,
        players=room.players,
        computers=tuple(sorted(computers.items())),
        seats_claimed=tuple(seat in claimed for seat in range(room.players)),
        online=online,
        spectators=spectators,
        open_invites=open_invites,
        rematch_offered_by=offered,
        rematch_room_id=room.rematch_room_id,
        computer=room.computer,
        computer_seat=room.computer_seat,
        host_seat=room.host_seat,
        ending=ending_of(room),
        standin_seat=room.standin_seat,
        events=room_events(session, room.id),
        seats_held=tuple(seat in held for seat in range(room.players)),
        start_moves=room.start_moves,
        absent=absent_seats(session, room.id, online, absent_after=absent_after),
        takeback_seat=room.takeback_seat,
        origin=room.origin,
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
    invites = open_invites(facts, viewer, base_url) if is_player else ()
    invite = invites[0][1] if invites else None
    rematch = None
    if facts.game != "inland_port":
        if game(facts.game).finished(state) or facts.ending is not None:
            rematch = rematch_seen(
                facts.rematch_offered_by, facts.rematch_room_id, viewer, base_url
            )
    elif engine.is_finished(state) or facts.ending is not None:
        rematch = rematch_seen(facts.rematch_offered_by, facts.rematch_room_id, viewer, base_url)
    return RoomView(
        facts=facts,
        version=len(log),
        state=state,
        viewer_seat=viewer.seat if is_player else None,
        log=log,
        invite_link=invite,
        invite_links=invites,
        spectator_link=(
            spectator_link(base_url, spectator_token_for(viewer.token)) if is_player else None
        ),
        seat_link=seat_link(base_url, viewer.token) if is_player else None,
        rematch=rematch,
        seat_taken=viewer.seat_taken,
        review_link=(
            review_link(base_url, viewer.token)
            if facts.origin == "import" and viewer.kind == "spectator"
            else None
        ),
    )


def open_invites(facts: RoomFacts, viewer: Viewer, base_url: str) -> tuple[tuple[int, str], ...]:
    """The invite links a player of the room may still hand out, by seat (derived from its own
    token: Inland Port's one for the other seat, another game's one per seat)."""
    if not facts.open_invites:  # no unused invite link: no token to derive
        return ()
    if facts.game == "inland_port":
        assert viewer.seat is not None
        tokens = {1 - viewer.seat: invite_token_for(viewer.token)}
    else:
        tokens = {seat: invite_token_for(viewer.token, seat) for seat in range(facts.players)}
    return tuple(
        (seat, invite_link(base_url, token))
        for seat, token in tokens.items()
        if token_hash(token) in facts.open_invites
    )


def rematch_offers(session: Session, room: Room) -> tuple[bool, ...]:
    """Which seats of a finished room asked for a rematch, by seat."""
    offered = set(session.scalars(select(RematchOffer.seat).where(RematchOffer.room_id == room.id)))
    return tuple(seat in offered for seat in range(room.players))


def rematch_seen(
    offered_by: tuple[bool, ...], room_id: str | None, viewer: Viewer, base_url: str
) -> RematchInfo:
    """The rematch as `viewer` sees it: a player gets a link into the new room once it is open."""
    link = None
    if room_id is not None and viewer.kind == "seat":
        link = seat_link(base_url, rematch_token_for(viewer.token))
    return RematchInfo(offered_by=offered_by, room_id=room_id, seat_link=link)


def presence(session: Session, room: Room, timeout: float) -> tuple[tuple[bool, ...], int]:
    """Which seats have a live socket (the computer is always there) and how many spectators."""
    rows = session.execute(
        select(Connection.seat, func.count())
        .join(ServerProcess, ServerProcess.id == Connection.process_id)
        .where(Connection.room_id == room.id, ServerProcess.heartbeat_at > time.time() - timeout)
        .group_by(Connection.seat)
    ).all()
    counts = {seat: n for seat, n in rows}
    online = [counts.get(seat, 0) > 0 for seat in range(room.players)]
    for seat in [room.computer_seat, *games.computer_seats(room)]:
        if seat is not None:
            online[seat] = True
    return tuple(online), counts.get(None, 0)
