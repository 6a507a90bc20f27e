"""A bare server on the app's stack: the least a correct server must do per move, to measure the
app against in the same run (bench/load.py --against-baseline).

It speaks the protocol bench/load.py drives (the JSON API's rooms, invites and moves, the page's
move form, the room sockets) on the app's stack: FastAPI, uvicorn with the app's HTTP protocol
(`app.edge.protocol`), WebSockets with the app's permessage-deflate settings and limits, GZip on HTTP
answers, the app's database engine and pool (`app.db.make_engine`) and its garbage-collector
settings (`app.__main__.tune_garbage_collector`), all read from the app's own code.

A move is what any correct server of the game must do: parse the move and apply it with the
rules engine to the room's position (kept per process, as the app keeps it; the log replayed when
it is not known), in one transaction that locks the room's row, inserts the move, bumps the
version and queues a NOTIFY that carries the move (PostgreSQL; the other processes advance their
position with it), then one update pushed to each of the room's sockets: `baseline_patch.html`,
the app's median update after a move, with its version put in. The page's form is answered with
`baseline_answer.html`, the app's median answer to a played move. What it leaves out is
everything else: no per-viewer boards, no templates, no room life, no computer player. Both
files are drawn by today's app: `bench/baseline_payloads.py` rewrites them and prints their size.

    DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/db PORT=8001 .venv/bin/python bench/baseline.py

Settings come from the environment as the app's do: DATABASE_URL (default: SQLite under
DATA_DIR), HOST, PORT, KEEP_ALIVE_TIMEOUT, WS_*. A stale version gets 409, a move the engine
cannot read 400, a move it does not allow (or out of turn) 422, as the app answers them.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qsl

import psycopg
import uvicorn
from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy import make_url, text
from starlette.concurrency import run_in_threadpool
from starlette.middleware.gzip import GZipMiddleware
from starlette.websockets import WebSocketDisconnect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from baseline_store import CATALOG_ID, CHANNEL, Refused, Store  # noqa: E402

from app.__main__ import tune_garbage_collector, websocket_protocol_for  # noqa: E402
from app.edge.protocol import HeaderDeadlineProtocol  # noqa: E402
from app.routes.ws import MAX_MESSAGE_BYTES  # noqa: E402
from app.settings import Settings  # noqa: E402

#: The app's median update after a move, and its median answer to the page's move form.
PATCH_FILE = Path(__file__).with_name("baseline_patch.html")
ANSWER_FILE = Path(__file__).with_name("baseline_answer.html")
VERSION_MARKS = ('"version":"', 'data-version="')
COOKIE_PREFIX = "ip_"
SEND_TIMEOUT = 10.0


class Versioned:
    """A fixed text with a version put in: cut once at its first version mark, joined per send."""

    def __init__(self, html: str) -> None:
        mark = next(mark for mark in VERSION_MARKS if mark in html)
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


class Advances(Protocol):
    """The rooms' positions a process keeps (`Positions`; bench/baseline_lehavre_store.py's)."""

    def advance(self, room_id: str, version: int, move: str) -> None: ...


class Hub:
    """The sockets of each room in this process and the newest version handed to them; with
    PostgreSQL, the moves other processes made, heard on `channel`."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, positions: Advances, channel: str = CHANNEL
    ) -> None:
        self.loop = loop
        self.positions = positions
        self.channel = channel
        self.sockets: dict[str, set[Socket]] = {}
        self.delivered: dict[str, int] = {}

    def deliver(self, room_id: str, version: int) -> None:
        """Hand `version` to the room's sockets (a version already handed out is skipped)."""
        if room_id not in self.sockets or version <= self.delivered.get(room_id, -1):
            return
        self.delivered[room_id] = version
        for socket in self.sockets[room_id]:
            socket.offer(version)

    def notified(self, payload: str) -> None:
        """Another process's move: "room version move"."""
        room_id, version_text, move = payload.split(" ", 2)
        version = int(version_text)
        self.positions.advance(room_id, version, move)
        self.deliver(room_id, version)

    async def listen(self, database_url: str) -> None:
        conninfo = make_url(database_url).set(drivername="postgresql").render_as_string(False)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    conninfo, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {self.channel}")
                    async for note in connection.notifies():
                        self.notified(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # the benchmark's errors show it; keep serving
                print(f"baseline: LISTEN lost ({err}); reconnecting", file=sys.stderr)
                await asyncio.sleep(1.0)


def bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token if scheme.lower() == "bearer" else None


def create_app(database_url: str, patch: Versioned, answer: Versioned) -> FastAPI:
    store = Store(database_url)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.hub = Hub(asyncio.get_running_loop(), store.positions)
        listening = store.postgres
        listener = asyncio.create_task(app.state.hub.listen(database_url)) if listening else None
        yield
        if listener is not None:
            listener.cancel()
        store.engine.dispose()

    app = FastAPI(lifespan=lifespan)
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    add_api_routes(app, store)
    add_page_and_socket_routes(app, store, patch, answer)
    return app


async def played(app: FastAPI, store: Store, room_id: str, *args: Any) -> int:
    """`Store.play` in a worker thread, then its version handed to this process's sockets."""
    version = await run_in_threadpool(store.play, room_id, *args)
    app.state.hub.deliver(room_id, version)
    return version


def add_api_routes(app: FastAPI, store: Store) -> None:
    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        with store.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return {"status": "ok"}

    @app.post("/api/rooms", status_code=201)
    def create_room(request: Request) -> dict[str, Any]:
        made = store.create_room()
        base = str(request.base_url).rstrip("/")
        return {
            "room": made["room"],
            "seat": 0,
            "token": made["token"],
            "invite_link": f"{base}/i/{made['invite']}",
            "spectator_link": f"{base}/w/{made['spectator']}",
            "version": 0,
            "catalog": CATALOG_ID,
        }

    @app.post("/api/invites/{invite}", response_model=None)
    def claim_invite(invite: str) -> dict[str, Any] | JSONResponse:
        room_id, token = store.claim_invite(invite)
        if room_id is None:
            return JSONResponse({"detail": "no such invite"}, status_code=404)
        return {"room": room_id, "seat": 1, "token": token}

    @app.get("/api/rooms/{room_id}", response_model=None)
    def get_room(room_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        room = store.read_room(room_id, bearer(request))
        if room is None:
            return JSONResponse({"detail": "no access"}, status_code=403)
        return {"room": room_id, "version": room.version}

    @app.get("/api/rooms/{room_id}/moves", response_model=None)
    def get_moves(room_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        if store.read_room(room_id, bearer(request)) is None:
            return JSONResponse({"detail": "no access"}, status_code=403)
        return {"moves": store.logged(room_id)}

    @app.post("/api/rooms/{room_id}/moves", response_model=None)
    async def post_move(room_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        body = await request.json()
        args = (bearer(request), body.get("version"), body.get("move"))
        try:
            version = await played(app, store, room_id, *args, str(body.get("client_move_id")))
        except (KeyError, PermissionError):
            return JSONResponse({"detail": "no access"}, status_code=403)
        except Refused as refused:
            body = {"code": refused.code, "version": refused.version}
            return JSONResponse(body, status_code=refused.status)
        return {"version": version}


def add_page_and_socket_routes(
    app: FastAPI, store: Store, patch: Versioned, answer: Versioned
) -> None:
    @app.post("/rooms/{room_id}/moves")
    async def post_move_form(room_id: str, request: Request) -> HTMLResponse:
        """The page's form, answered as the app answers a played move: the panel's message."""
        form = dict(parse_qsl((await request.body()).decode("utf-8", "replace")))
        token = request.cookies.get(COOKIE_PREFIX + room_id)
        number = form.get("version", "")
        version = int(number) if number.isdigit() else -1
        move, move_id = form.get("move", ""), form.get("client_move_id", "")
        try:
            version = await played(app, store, room_id, token, version, move, move_id)
        except (KeyError, PermissionError):
            return HTMLResponse("<p>This room needs a link.</p>", status_code=403)
        except Refused as refused:
            return HTMLResponse(answer.at(refused.version), status_code=refused.status)
        return HTMLResponse(answer.at(version))

    @app.websocket("/ws/rooms/{room_id}")
    async def room_socket(websocket: WebSocket, room_id: str, token: str | None = None) -> None:
        room = await run_in_threadpool(store.read_room, room_id, token)
        if room is None:
            await websocket.close(code=1008)
            return
        await websocket.accept()
        socket = Socket(websocket)
        hub: Hub = app.state.hub
        hub.sockets.setdefault(room_id, set()).add(socket)
        socket.offer(max(room.version, hub.delivered.get(room_id, -1)))
        sender = asyncio.create_task(send_updates(socket, patch))
        try:
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass
        finally:
            sender.cancel()
            watching = hub.sockets.get(room_id, set())
            watching.discard(socket)
            if not watching:
                hub.sockets.pop(room_id, None)
                hub.delivered.pop(room_id, None)


async def send_updates(socket: Socket, patch: Versioned) -> None:
    while True:
        version = await socket.next_version()
        try:
            await asyncio.wait_for(socket.websocket.send_text(patch.at(version)), SEND_TIMEOUT)
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            return


def serve(app: FastAPI, settings: Settings) -> None:
    """Run a bare server as `python -m app` runs the app: its collector, its uvicorn settings."""
    tune_garbage_collector()
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        timeout_keep_alive=settings.keep_alive_timeout,
        ws_max_size=MAX_MESSAGE_BYTES,
        ws_ping_interval=settings.ws_ping_interval,
        ws_ping_timeout=settings.ws_ping_timeout,
        log_level="warning",
        http=HeaderDeadlineProtocol,
        ws=websocket_protocol_for(settings),
    )


def database_url_of(settings: Settings) -> str:
    """The configured database, else a SQLite file in the data directory (made if missing)."""
    database_url = settings.database_url or f"sqlite:///{settings.data_dir / 'baseline.sqlite3'}"
    if database_url.startswith("sqlite"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    return database_url


def main() -> None:
    settings = Settings()
    patch, answer = Versioned(PATCH_FILE.read_text()), Versioned(ANSWER_FILE.read_text())
    serve(create_app(database_url_of(settings), patch, answer), settings)


if __name__ == "__main__":
    main()
