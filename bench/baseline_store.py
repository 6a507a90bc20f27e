"""The bare server's database side (bench/baseline.py): its rooms and moves, one move in one
transaction, and each room's position in this process."""

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

import engine
from app.db import make_engine
from engine.catalogs import DEFAULT_ID, built_in_registry

CHANNEL = "inland_port_baseline"
#: The numbers a new room is played with: the app's default for new rooms (`app.reads.catalogs`).
CATALOG_ID = DEFAULT_ID
CATALOG = built_in_registry().get(CATALOG_ID)

metadata = MetaData()
rooms = Table(
    "baseline_rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("seat0", String(64), nullable=False),
    Column("seat1", String(64)),
    Column("spectator", String(64), nullable=False),
    Column("invite", String(64), nullable=False, unique=True),
    Column("invite_used", Boolean, nullable=False),
)
moves = Table(
    "baseline_moves",
    metadata,
    Column("room_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("move", Text, nullable=False),
    Column("client_move_id", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


class Refused(Exception):
    """A move not played: the HTTP status and the refusal's code."""

    def __init__(self, status: int, code: str, version: int) -> None:
        super().__init__(code)
        self.status, self.code, self.version = status, code, version


class Positions:
    """The newest position of each room this process knows, as (version, state).

    Moves made here advance it; moves made in another process arrive with their notification
    and advance it too; anything else is replayed from the room's log."""

    def __init__(self) -> None:
        self.known: dict[str, tuple[int, engine.GameState]] = {}

    def at(self, connection: Connection, room_id: str, version: int) -> engine.GameState:
        known = self.known.get(room_id)
        if known is not None and known[0] == version:
            return known[1]
        state = engine.new_game(CATALOG)
        logged = select(moves.c.move).where(moves.c.room_id == room_id).order_by(moves.c.seq)
        for move in connection.execute(logged).scalars():
            state = engine.apply(state, engine.parse_move(move, CATALOG))
        self.known[room_id] = (version, state)
        return state

    def put(self, room_id: str, version: int, state: engine.GameState) -> None:
        self.known[room_id] = (version, state)

    def advance(self, room_id: str, version: int, move: str) -> None:
        """A move made in another process: applied when this one knows the position before it."""
        known = self.known.get(room_id)
        if known is not None and known[0] == version - 1:
            self.known[room_id] = (
                version,
                engine.apply(known[1], engine.parse_move(move, CATALOG)),
            )


def new_token() -> str:
    return secrets.token_urlsafe(24)


def seat_of(room: Any, token: str | None) -> int | None:
    """0 or 1 for a player's token, 2 for the spectator's, None for anything else."""
    if not token:
        return None
    for seat, held in enumerate((room.seat0, room.seat1, room.spectator)):
        if held is not None and secrets.compare_digest(held, token):
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

    def play(self, room_id: str, token: str | None, version: Any, move: Any, move_id: str) -> int:
        """One move in one transaction; the room's new version. KeyError: no such room;
        PermissionError: not a player's token; `Refused`: stale, unreadable, not allowed."""
        with self.engine.begin() as connection:
            room = self.lock_room(connection, room_id)
            if room is None:
                raise KeyError(room_id)
            seat = seat_of(room, token)
            if seat not in (0, 1):
                raise PermissionError(room_id)
            if version != room.version:
                raise Refused(409, "stale_version", room.version)
            state = self.positions.at(connection, room_id, room.version)
            if state.to_move != seat:
                raise Refused(422, "not_your_turn", room.version)
            try:
                parsed = engine.parse_move(move, CATALOG)
                new_state = engine.apply(state, parsed)
            except engine.MalformedMove:
                raise Refused(400, "malformed_move", room.version) from None
            except engine.IllegalMove:
                raise Refused(422, "illegal_move", room.version) from None
            canonical = engine.canonical(parsed)
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
        return new_version

    def create_room(self) -> dict[str, Any]:
        room_id, seat0, spectator, invite = secrets.token_hex(11), *(new_token() for _ in "abc")
        with self.engine.begin() as connection:
            connection.execute(
                rooms.insert().values(
                    id=room_id,
                    version=0,
                    seat0=seat0,
                    spectator=spectator,
                    invite=invite,
                    invite_used=False,
                )
            )
        return {"room": room_id, "token": seat0, "invite": invite, "spectator": spectator}

    def claim_invite(self, invite: str) -> tuple[str | None, str]:
        token = new_token()
        with self.engine.begin() as connection:
            room_id = connection.execute(
                update(rooms)
                .where(rooms.c.invite == invite, rooms.c.invite_used.is_(False))
                .values(invite_used=True, seat1=token)
                .returning(rooms.c.id)
            ).scalar()
        return room_id, token

    def read_room(self, room_id: str, token: str | None) -> Any:
        """The room's row when `token` is one of its seats' or its spectator's, else None."""
        with self.engine.connect() as connection:
            room = connection.execute(select(rooms).where(rooms.c.id == room_id)).first()
        return room if room is not None and seat_of(room, token) is not None else None

    def logged(self, room_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(moves.c.seq, moves.c.seat, moves.c.move)
                .where(moves.c.room_id == room_id)
                .order_by(moves.c.seq)
            ).all()
        return [{"seq": r.seq, "seat": r.seat, "move": json.loads(r.move)} for r in rows]
