"""A bare server on the app's stack, to measure the app against in the same run (bench/load.py).

It speaks the protocol bench/load.py drives (the JSON API's rooms, invites and moves, the page's
move form, the room sockets) on the same stack as the app: FastAPI, SQLAlchemy with psycopg (or
SQLite), uvicorn's WebSockets with the app's permessage-deflate settings (`app.edge.wsdeflate`, the
same WS_DEFLATE* variables) and the same limits and HTTP keep-alive (KEEP_ALIVE_TIMEOUT), GZip on HTTP answers. What it leaves out is the game: no rules engine, no templates, no per-viewer boards.

A move is one durable transaction (the room's row locked, the move inserted, the version bumped,
a NOTIFY queued on PostgreSQL, commit), then one fixed update of the app's median update size
(`BOARD`, a real update of the app, the changed parts of a board, with its version put in)
pushed to the room's sockets. On
PostgreSQL several processes share the rooms through LISTEN/NOTIFY, as the app's do.

    DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/db PORT=8001 .venv/bin/python bench/baseline.py
    .venv/bin/python bench/baseline.py --write-board    # redraw BOARD with the app (once)

Settings come from the environment as the app's do: DATABASE_URL (default: SQLite under
DATA_DIR), HOST, PORT. Any move is accepted (there are no rules); a stale version gets 409.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import psycopg
import uvicorn
from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    make_url,
    select,
    text,
    update,
)
from starlette.concurrency import run_in_threadpool
from starlette.middleware.gzip import GZipMiddleware
from starlette.websockets import WebSocketDisconnect

#: An update of the app as a socket sends it, of the median size over three random games
#: (25.8 KB: the parts of the board a move changed, for every position and viewer, in English).
BOARD_FILE = Path(__file__).with_name("baseline_board.html")
VERSION_MARK = 'data-version="'
PATCH_VERSION_MARK = '"version":"'
CHANNEL = "inland_port_baseline"
COOKIE_PREFIX = "ip_"
#: The app's socket limits (app.routes.ws, app.__main__).
MAX_MESSAGE_BYTES = 8 * 1024
SEND_TIMEOUT = 10.0

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


class Board:
    """The fixed update with a version put in: cut once at its version, joined per send."""

    def __init__(self, html: str) -> None:
        mark = PATCH_VERSION_MARK if html.startswith("<!--board-patch ") else VERSION_MARK
        start = html.index(mark) + len(mark)
        end = html.index('"', start)
        self.head, self.tail = html[:start], html[end:]

    def at(self, version: int) -> str:
        return f"{self.head}{version}{self.tail}"


class Socket:
    """One open socket: only the newest version not sent yet is kept, as the app's hub does."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.pending: int | None = None
        self.ready = asyncio.Event()

    def offer(self, version: int) -> None:
        self.pending = version
        self.ready.set()

    async def next_version(self) -> int:
        while self.pending is None:
            self.ready.clear()
            await self.ready.wait()
        version, self.pending = self.pending, None
        return version


class Hub:
    """The sockets of each room in this process and the newest version handed to them."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.sockets: dict[str, set[Socket]] = {}
        self.delivered: dict[str, int] = {}

    def deliver(self, room_id: str, version: int) -> None:
        """Hand `version` to the room's sockets (a version already handed out is skipped)."""
        if room_id not in self.sockets or version <= self.delivered.get(room_id, -1):
            return
        self.delivered[room_id] = version
        for socket in self.sockets[room_id]:
            socket.offer(version)

    def published(self, room_id: str, version: int) -> None:
        """After a commit, from a worker thread."""
        self.loop.call_soon_threadsafe(self.deliver, room_id, version)

    async def listen(self, database_url: str) -> None:
        conninfo = make_url(database_url).set(drivername="postgresql").render_as_string(False)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    conninfo, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    async for note in connection.notifies():
                        room_id, _, version = note.payload.partition(" ")
                        self.deliver(room_id, int(version))
            except asyncio.CancelledError:
                raise
            except Exception as err:  # the benchmark's errors show it; keep serving
                print(f"baseline: LISTEN lost ({err}); reconnecting", file=sys.stderr)
                await asyncio.sleep(1.0)


def make_engine(url: str) -> Engine:
    """As the app's (app.db): WAL and full sync on SQLite, a pool of 20 + 20 on PostgreSQL."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.close()

        return engine
    return create_engine(url, pool_size=20, max_overflow=20, pool_pre_ping=True)


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


def create_app(database_url: str, board: Board) -> FastAPI:
    engine = make_engine(database_url)
    postgres = engine.dialect.name == "postgresql"
    metadata.create_all(engine)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.hub = Hub(asyncio.get_running_loop())
        listener = asyncio.create_task(app.state.hub.listen(database_url)) if postgres else None
        yield
        if listener is not None:
            listener.cancel()
        engine.dispose()

    app = FastAPI(lifespan=lifespan)
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)

    def hub() -> Hub:
        hub: Hub = app.state.hub
        return hub

    def lock_room(connection: Connection, room_id: str) -> Any:
        """The room's row, locked for the rest of the transaction."""
        if not postgres:  # SQLite: the write lock, as the app's room lock takes it
            connection.execute(
                update(rooms).where(rooms.c.id == room_id).values(version=rooms.c.version)
            )
            return connection.execute(select(rooms).where(rooms.c.id == room_id)).first()
        return connection.execute(
            select(rooms).where(rooms.c.id == room_id).with_for_update()
        ).first()

    def play(room_id: str, token: str | None, version: Any, move: str, client_move_id: str) -> int:
        """One move in one transaction: the new version, or -1 - the room's version when
        `version` is stale. KeyError: no such room; PermissionError: not a player's token."""
        with engine.begin() as connection:
            room = lock_room(connection, room_id)
            if room is None:
                raise KeyError(room_id)
            seat = seat_of(room, token)
            if seat not in (0, 1):
                raise PermissionError(room_id)
            if version != room.version:
                return -1 - int(room.version)
            connection.execute(
                moves.insert().values(
                    room_id=room_id,
                    seq=room.version,
                    seat=seat,
                    move=move,
                    client_move_id=client_move_id,
                    created_at=datetime.now(UTC),
                )
            )
            new_version = room.version + 1
            connection.execute(
                update(rooms).where(rooms.c.id == room_id).values(version=new_version)
            )
            if postgres:
                connection.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": CHANNEL, "payload": f"{room_id} {new_version}"},
                )
        hub().published(room_id, new_version)
        return new_version

    def bearer(request: Request) -> str | None:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        return token if scheme.lower() == "bearer" else None

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return {"status": "ok"}

    @app.post("/api/rooms", status_code=201)
    def create_room(request: Request) -> dict[str, Any]:
        room_id, seat0, spectator, invite = secrets.token_hex(11), *(new_token() for _ in "abc")
        with engine.begin() as connection:
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
        base = str(request.base_url).rstrip("/")
        return {
            "room": room_id,
            "seat": 0,
            "token": seat0,
            "invite_link": f"{base}/i/{invite}",
            "spectator_link": f"{base}/w/{spectator}",
            "version": 0,
        }

    @app.post("/api/invites/{invite}", response_model=None)
    def claim_invite(invite: str) -> dict[str, Any] | JSONResponse:
        token = new_token()
        with engine.begin() as connection:
            room_id = connection.execute(
                update(rooms)
                .where(rooms.c.invite == invite, rooms.c.invite_used.is_(False))
                .values(invite_used=True, seat1=token)
                .returning(rooms.c.id)
            ).scalar()
        if room_id is None:
            return JSONResponse({"detail": "no such invite"}, status_code=404)
        return {"room": room_id, "seat": 1, "token": token}

    def read_room(room_id: str, token: str | None) -> Any:
        with engine.connect() as connection:
            room = connection.execute(select(rooms).where(rooms.c.id == room_id)).first()
        return room if room is not None and seat_of(room, token) is not None else None

    @app.get("/api/rooms/{room_id}", response_model=None)
    def get_room(room_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        room = read_room(room_id, bearer(request))
        if room is None:
            return JSONResponse({"detail": "no access"}, status_code=403)
        return {"room": room_id, "version": room.version}

    @app.get("/api/rooms/{room_id}/moves", response_model=None)
    def get_moves(room_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        if read_room(room_id, bearer(request)) is None:
            return JSONResponse({"detail": "no access"}, status_code=403)
        with engine.connect() as connection:
            rows = connection.execute(
                select(moves.c.seq, moves.c.seat, moves.c.move)
                .where(moves.c.room_id == room_id)
                .order_by(moves.c.seq)
            ).all()
        return {"moves": [{"seq": r.seq, "seat": r.seat, "move": json.loads(r.move)} for r in rows]}

    @app.post("/api/rooms/{room_id}/moves", response_model=None)
    async def post_move(room_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        body = await request.json()
        move = body.get("move")
        try:
            version = await run_in_threadpool(
                play,
                room_id,
                bearer(request),
                body.get("version"),
                json.dumps(move, sort_keys=True, separators=(",", ":")),
                str(body.get("client_move_id", "")),
            )
        except (KeyError, PermissionError):
            return JSONResponse({"detail": "no access"}, status_code=403)
        if version < 0:
            return JSONResponse({"code": "stale", "version": -1 - version}, status_code=409)
        return {"version": version}

    @app.post("/rooms/{room_id}/moves")
    async def post_move_form(room_id: str, request: Request) -> HTMLResponse:
        """The page's form: answered with the fresh board, as the app's panel answer carries it."""
        form = dict(parse_qsl((await request.body()).decode("utf-8", "replace")))
        token = request.cookies.get(COOKIE_PREFIX + room_id)
        number = form.get("version", "")
        try:
            version = await run_in_threadpool(
                play,
                room_id,
                token,
                int(number) if number.isdigit() else -1,
                form.get("move", ""),
                form.get("client_move_id", ""),
            )
        except (KeyError, PermissionError):
            return HTMLResponse("<p>This room needs a link.</p>", status_code=403)
        if version < 0:
            return HTMLResponse(board.at(-1 - version), status_code=409)
        return HTMLResponse(board.at(version))

    @app.websocket("/ws/rooms/{room_id}")
    async def room_socket(websocket: WebSocket, room_id: str, token: str | None = None) -> None:
        room = await run_in_threadpool(read_room, room_id, token)
        if room is None:
            await websocket.close(code=1008)
            return
        await websocket.accept()
        socket = Socket(websocket)
        local = hub()
        local.sockets.setdefault(room_id, set()).add(socket)
        socket.offer(max(room.version, local.delivered.get(room_id, -1)))
        sender = asyncio.create_task(send_boards(socket))
        try:
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass
        finally:
            sender.cancel()
            watching = local.sockets.get(room_id, set())
            watching.discard(socket)
            if not watching:
                local.sockets.pop(room_id, None)
                local.delivered.pop(room_id, None)

    async def send_boards(socket: Socket) -> None:
        while True:
            version = await socket.next_version()
            try:
                await asyncio.wait_for(socket.websocket.send_text(board.at(version)), SEND_TIMEOUT)
            except (TimeoutError, WebSocketDisconnect, RuntimeError):
                return

    return app


def write_board() -> None:
    """Write the update of the median size over three seeded random games as the app's sockets
    send them: each viewer's whole board first, then only the parts each move changed."""
    import random
    import statistics

    sys.path.insert(0, str(BOARD_FILE.parent.parent))
    sys.path.insert(0, str(BOARD_FILE.parent))
    from games import positions, sample_view

    from app.ui.board import draw_board

    updates = []
    for seed in (1, 2, 3):
        game = positions(400, random.Random(seed).choice)
        for seat in (0, 1, None):
            before = None
            for state, log in game:
                view = sample_view("r" * 22, state, log, seat, base_url="http://127.0.0.1:8000")
                board = draw_board(view, lang="en")
                if before is not None:
                    updates.append(board.patch(before) or board.whole())
                before = board.summary()
    median = statistics.median_low(len(u.encode()) for u in updates)
    BOARD_FILE.write_text(next(u for u in updates if len(u.encode()) == median))
    print(f"{BOARD_FILE}: {median} bytes, the median of {len(updates)} updates")


def main() -> None:
    if "--write-board" in sys.argv[1:]:
        write_board()
        return
    data_dir = Path(os.environ.get("DATA_DIR", "data"))
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{data_dir / 'baseline.sqlite3'}"
    if database_url.startswith("sqlite"):
        data_dir.mkdir(parents=True, exist_ok=True)
    app = create_app(database_url, Board(BOARD_FILE.read_text()))
    sys.path.insert(0, str(BOARD_FILE.parent.parent))
    from app.__main__ import websocket_protocol_for
    from app.settings import Settings

    settings = Settings()
    uvicorn.run(
        app,
        host=os.environ.get("HOST", "127.0.0.1"),
        port=int(os.environ.get("PORT", "8001")),
        timeout_keep_alive=settings.keep_alive_timeout,
        ws_max_size=MAX_MESSAGE_BYTES,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        log_level="warning",
        ws=websocket_protocol_for(settings),
    )


if __name__ == "__main__":
    main()
