"""A bare Le Havre server on the app's stack: the least a correct server must do per move, to
measure the app against in the same run (bench/load_lehavre.py --against-baseline).

It speaks the protocol bench/load_lehavre.py drives (the JSON API's rooms, invites, room, legal
moves and moves, the room sockets) on the stack of bench/baseline.py (the app's HTTP protocol,
WebSocket settings and limits, GZip, database engine and pool, collector settings), with its
hub and sockets.

A room is a random setup of four seats (`engine.games`), its three invites and a spectator. The
legal moves are the rules engine's for the room's position (kept per process). A move is what
any correct server of the game must do: parse it and apply it with the rules engine to the
room's position, in one transaction that locks the room's row, inserts the move, bumps the
version and queues a NOTIFY that carries the move (PostgreSQL; the other processes advance their
position with it), answer with the new version and the position's summary (the JSON API's
answer, which says who moves next), then push one update to each of the room's sockets:
`baseline_lehavre_patch.html`, the app's median Le Havre update after a move. A socket gets
`baseline_lehavre_board.html`, the app's median whole board, when it opens and when it asks for
the board (``board``), as the app's pages do when a patch does not apply to the board they show.
Each text gets its version, and a frame made from the version, put in, so that every patch
applies on top of the board of the version before (`bench/baseline_payloads.py` rewrites both
files). It leaves out everything else: per-viewer boards, templates, room life, the computer.

    DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/db PORT=8001 .venv/bin/python bench/baseline_lehavre.py
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from sqlalchemy import text
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocketDisconnect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from baseline import SEND_TIMEOUT, Hub, Socket, bearer, database_url_of, serve  # noqa: E402
from baseline_lehavre_store import CHANNEL, RULES, Store  # noqa: E402
from baseline_store import Refused  # noqa: E402
from starlette.middleware.gzip import GZipMiddleware  # noqa: E402

from app.settings import Settings  # noqa: E402

#: The app's median Le Havre update after a move, and its median whole board.
PATCH_FILE = Path(__file__).with_name("baseline_lehavre_patch.html")
BOARD_FILE = Path(__file__).with_name("baseline_lehavre_board.html")
NO_ACCESS = {"detail": "no access"}
#: The values put in per send: a patch header's and a whole board's version, frame and base.
VALUES = re.compile(r'(?:"(version|frame|base)":"|data-(version|frame)=")([^"]*)"')
WHOLE_BOARD_PLEASE = "board"  # app.live.frames: what a page sends to ask for the whole board


class Framed:
    """A fixed board text with its version and frames put in per send: the frame of version V
    is V in hex, a patch's base the frame of V - 1."""

    def __init__(self, html: str) -> None:
        self.pieces: list[str] = []
        self.names: list[str] = []
        end = 0
        for found in VALUES.finditer(html):
            self.pieces.append(html[end : found.start(3)])
            self.names.append(found.group(1) or found.group(2))
            end = found.end(3)
        self.pieces.append(html[end:])

    def at(self, version: int) -> str:
        values = {
            "version": str(version),
            "frame": f"{version:016x}",
            "base": f"{version - 1:016x}",
        }
        out = [self.pieces[0]]
        for name, piece in zip(self.names, self.pieces[1:], strict=True):
            out.append(values[name])
            out.append(piece)
        return "".join(out)


class BoardSocket(Socket):
    """A socket whose next update goes whole when it opens or asks for the board."""

    whole = True


def create_app(database_url: str, patch: Framed, board: Framed) -> FastAPI:
    store = Store(database_url)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.hub = Hub(asyncio.get_running_loop(), store.positions, CHANNEL)
        listening = store.postgres
        listener = asyncio.create_task(app.state.hub.listen(database_url)) if listening else None
        yield
        if listener is not None:
            listener.cancel()
        store.engine.dispose()

    app = FastAPI(lifespan=lifespan)
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    add_room_routes(app, store)
    add_move_routes(app, store)
    add_socket_route(app, store, patch, board)
    return app


def add_room_routes(app: FastAPI, store: Store) -> None:
    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        with store.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return {"status": "ok"}

    @app.post("/api/rooms", status_code=201)
    def create_room(request: Request) -> dict[str, Any]:
        made = store.create_room()
        base = str(request.base_url).rstrip("/")
        links = [f"{base}/i/{invite}" for invite in made["invites"]]
        return {
            "room": made["room"],
            "seat": 0,
            "token": made["token"],
            "invite_link": links[0],
            "invite_links": links,
            "spectator_link": f"{base}/w/{made['spectator']}",
            "version": 0,
        }

    @app.post("/api/invites/{invite}", response_model=None)
    def claim_invite(invite: str) -> dict[str, Any] | JSONResponse:
        claimed = store.claim_invite(invite)
        if claimed is None:
            return JSONResponse({"detail": "no such invite"}, status_code=404)
        room_id, seat, token = claimed
        return {"room": room_id, "seat": seat, "token": token}

    @app.get("/api/rooms/{room_id}", response_model=None)
    def get_room(room_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        found = store.summary(room_id, bearer(request))
        if found is None:
            return JSONResponse(NO_ACCESS, status_code=403)
        return {"room": room_id, "version": found[0], "summary": found[1]}

    @app.get("/api/rooms/{room_id}/moves", response_model=None)
    def get_moves(room_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        logged = store.logged(room_id, bearer(request))
        if logged is None:
            return JSONResponse(NO_ACCESS, status_code=403)
        return {"moves": logged}


def add_move_routes(app: FastAPI, store: Store) -> None:
    @app.get("/api/rooms/{room_id}/legal", response_model=None)
    def get_legal(room_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        found = store.legal(room_id, bearer(request))
        if found is None:
            return JSONResponse(NO_ACCESS, status_code=403)
        return {"version": found[0], "moves": found[1]}

    @app.post("/api/rooms/{room_id}/moves", response_model=None)
    async def post_move(room_id: str, request: Request) -> JSONResponse:
        body = await request.json()
        args = (bearer(request), body.get("version"), body.get("move"))
        try:
            version, state = await run_in_threadpool(
                store.play, room_id, *args, str(body.get("client_move_id"))
            )
        except (KeyError, PermissionError):
            return JSONResponse(NO_ACCESS, status_code=403)
        except Refused as refused:
            return JSONResponse(
                {"code": refused.code, "version": refused.version}, status_code=refused.status
            )
        app.state.hub.deliver(room_id, version)
        return JSONResponse({"version": version, "summary": RULES.summary(state)})


def add_socket_route(app: FastAPI, store: Store, patch: Framed, board: Framed) -> None:
    @app.websocket("/ws/rooms/{room_id}")
    async def room_socket(websocket: WebSocket, room_id: str, token: str | None = None) -> None:
        room = await run_in_threadpool(store.read_room, room_id, token)
        if room is None:
            await websocket.close(code=1008)
            return
        await websocket.accept()
        socket = BoardSocket(websocket)
        hub: Hub = app.state.hub
        hub.sockets.setdefault(room_id, set()).add(socket)
        socket.offer(max(room.version, hub.delivered.get(room_id, -1)))
        sender = asyncio.create_task(send_updates(socket, patch, board))
        try:
            while (message := await websocket.receive())["type"] != "websocket.disconnect":
                if message.get("text") == WHOLE_BOARD_PLEASE:
                    socket.whole = True
                    socket.offer(max(room.version, hub.delivered.get(room_id, -1)))
        finally:
            sender.cancel()
            watching = hub.sockets.get(room_id, set())
            watching.discard(socket)
            if not watching:
                hub.sockets.pop(room_id, None)
                hub.delivered.pop(room_id, None)


async def send_updates(socket: BoardSocket, patch: Framed, board: Framed) -> None:
    while True:
        version = await socket.next_version()
        html = board.at(version) if socket.whole else patch.at(version)
        socket.whole = False
        try:
            await asyncio.wait_for(socket.websocket.send_text(html), SEND_TIMEOUT)
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            return


def main() -> None:
    settings = Settings()
    patch, board = Framed(PATCH_FILE.read_text()), Framed(BOARD_FILE.read_text())
    serve(create_app(database_url_of(settings), patch, board), settings)


if __name__ == "__main__":
    main()
