"""The bare Le Havre server's database side (bench/baseline_lehavre.py): its rooms (a random setup,
four seats, a spectator), their invites and moves, one move in one transaction, and each room's
position in this process, all through the game's interface (`engine.games`)."""

from __future__ import annotations

import json
import secrets
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    select,
    text,
    update,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline_store import Refused, new_token

from app.db import make_engine
from engine.canonical import canonical_json
from engine.games import game
from engine.lehavre import IllegalMove, MalformedMove

CHANNEL = "lehavre_baseline"
SEATS = 4
RULES = game("lehavre")

metadata = MetaData()
rooms = Table(
    "baseline_lehavre_rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("setup", Text, nullable=False),
    *(Column(f"seat{seat}", String(64)) for seat in range(SEATS)),
    Column("spectator", String(64), nullable=False),
)
invites = Table(
    "baseline_lehavre_invites",
    metadata,
    Column("invite", String(64), primary_key=True),
    Column("room_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("used", Boolean, nullable=False),
)
moves = Table(
    "baseline_lehavre_moves",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("move", Text, nullable=False),
    Column("client_move_id", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


class Positions:
    """The newest position of each room this process knows, as (version, state): advanced by
    the moves made here and those other processes notify; anything else replayed from the
    room's setup and log."""

    def __init__(self) -> None:
        self.known: dict[str, tuple[int, Any]] = {}

    def at(self, connection: Connection, room: Any) -> Any:
        known = self.known.get(room.id)
        if known is not None and known[0] == room.version:
            return known[1]
        state = RULES.start(json.loads(room.setup))
        logged = select(moves.c.move).where(moves.c.room_id == room.id).order_by(moves.c.seq)
        for move in connection.execute(logged).scalars():
            state = RULES.apply(state, RULES.parse(move))
        self.known[room.id] = (room.version, state)
        return state

    def put(self, room_id: str, version: int, state: Any) -> None:
        self.known[room_id] = (version, state)

    def advance(self, room_id: str, version: int, move: str) -> None:
        """A move made in another process: applied when this one knows the position before it."""
        known = self.known.get(room_id)
        if known is not None and known[0] == version - 1:
            self.known[room_id] = (version, RULES.apply(known[1], RULES.parse(move)))


def seat_of(room: Any, token: str | None) -> int | None:
    """A seat's number for its token, `SEATS` for the spectator's, None for anything else."""
    if not token:
        return None
    held = [getattr(room, f"seat{seat}") for seat in range(SEATS)] + [room.spectator]
    for seat, mine in enumerate(held):
        if mine is not None and secrets.compare_digest(mine, token):
            return seat
    return None


class Store:
    """The rooms and their moves in the database, and each room's position in this process."""

    def __init__(self, database_url: str) -> None:
        self.engine = make_engine(database_url)
        self.postgres = self.engine.dialect.name == "postgresql"
        self.positions = Positions()
        metadata.create_all(self.engine)

    def lock_room(self, connection: Connection, room_id: str) -> Any:
        """The room's row, locked for the rest of the transaction."""
        if not self.postgres:  # SQLite: the write lock, as the app's room lock takes it
            connection.execute(
                update(rooms).where(rooms.c.id == room_id).values(version=rooms.c.version)
            )
            return connection.execute(select(rooms).where(rooms.c.id == room_id)).first()
        return connection.execute(
            select(rooms).where(rooms.c.id == room_id).with_for_update()
        ).first()

    def play(
        self, room_id: str, token: str | None, version: Any, move: Any, move_id: str
    ) -> tuple[int, Any]:
        """One move in one transaction: the room's new version and position. KeyError: no such
        room; PermissionError: not a seat's token; `Refused`: stale, unreadable, not allowed."""
        with self.engine.begin() as connection:
            room = self.lock_room(connection, room_id)
            if room is None:
                raise KeyError(room_id)
            seat = seat_of(room, token)
            if seat is None or seat == SEATS:
                raise PermissionError(room_id)
            if version != room.version:
                raise Refused(409, "stale_version", room.version)
            state = self.positions.at(connection, room)
            if RULES.to_move(state) != seat:
                raise Refused(422, "not_your_turn", room.version)
            try:
                parsed = RULES.parse(move)
                new_state = RULES.apply(state, parsed)
            except MalformedMove as refused:
                raise Refused(400, refused.code, room.version) from None
            except IllegalMove as refused:
                raise Refused(422, refused.code, room.version) from None
            canonical = RULES.canonical(parsed)
            new_version = int(room.version) + 1
            connection.execute(
                moves.insert().values(
                    room_id=room_id,
                    seq=room.version,
                    seat=seat,
                    move=canonical,
                    client_move_id=move_id,
                    created_at=datetime.now(UTC),
                )
            )
            connection.execute(
                update(rooms).where(rooms.c.id == room_id).values(version=new_version)
            )
            if self.postgres:
                connection.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": CHANNEL, "payload": f"{room_id} {new_version} {canonical}"},
                )
        self.positions.put(room_id, new_version, new_state)
        return new_version, new_state

    def legal(self, room_id: str, token: str | None) -> tuple[int, list[Any]] | None:
        """The room's version and the legal moves of the token's seat ([] when it is not its
        turn); None when the token is not a seat's."""
        with self.engine.connect() as connection:
            room = connection.execute(select(rooms).where(rooms.c.id == room_id)).first()
            seat = seat_of(room, token) if room is not None else None
            if room is None or seat is None or seat == SEATS:
                return None
            state = self.positions.at(connection, room)
        if RULES.to_move(state) != seat:
            return room.version, []
        return room.version, [move.to_json() for move in RULES.legal_moves(state)]

    def read_room(self, room_id: str, token: str | None) -> Any:
        """The room's row when `token` is one of its seats' or its spectator's, else None."""
        with self.engine.connect() as connection:
            room = connection.execute(select(rooms).where(rooms.c.id == room_id)).first()
        return room if room is not None and seat_of(room, token) is not None else None

    def summary(self, room_id: str, token: str | None) -> tuple[int, Any] | None:
        """The room's version and its position's summary, for a seat's or the spectator's token."""
        with self.engine.connect() as connection:
            room = connection.execute(select(rooms).where(rooms.c.id == room_id)).first()
            if room is None or seat_of(room, token) is None:
                return None
            return room.version, RULES.summary(self.positions.at(connection, room))

    def create_room(self) -> dict[str, Any]:
        """A room of four seats with a random setup: the host's token, the others' invites."""
        room_id, host, spectator = secrets.token_hex(11), new_token(), new_token()
        others = [new_token() for _ in range(1, SEATS)]
        setup = canonical_json(RULES.random_setup(SEATS, "full", None))
        with self.engine.begin() as connection:
            connection.execute(
                rooms.insert().values(
                    id=room_id, version=0, setup=setup, seat0=host, spectator=spectator
                )
            )
            connection.execute(
                invites.insert(),
                [
                    {"invite": invite, "room_id": room_id, "seat": seat, "used": False}
                    for seat, invite in enumerate(others, start=1)
                ],
            )
        return {"room": room_id, "token": host, "invites": others, "spectator": spectator}

    def claim_invite(self, invite: str) -> tuple[str, int, str] | None:
        """The room, seat and new token of an unused invite (None when there is none)."""
        token = new_token()
        with self.engine.begin() as connection:
            claimed = connection.execute(
                update(invites)
                .where(invites.c.invite == invite, invites.c.used.is_(False))
                .values(used=True)
                .returning(invites.c.room_id, invites.c.seat)
            ).first()
            if claimed is None:
                return None
            connection.execute(
                update(rooms)
                .where(rooms.c.id == claimed.room_id)
                .values({f"seat{claimed.seat}": token})
            )
        return claimed.room_id, claimed.seat, token

    def logged(self, room_id: str, token: str | None) -> list[dict[str, Any]] | None:
        with self.engine.connect() as connection:
            room = connection.execute(select(rooms).where(rooms.c.id == room_id)).first()
            if room is None or seat_of(room, token) is None:
                return None
            rows = connection.execute(
                select(moves.c.seq, moves.c.seat, moves.c.move)
                .where(moves.c.room_id == room_id)
                .order_by(moves.c.seq)
            ).all()
        return [{"seq": r.seq, "seat": r.seat, "move": json.loads(r.move)} for r in rows]
