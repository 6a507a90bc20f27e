"""`create_app()`: the FastAPI application with its lifespan, routers and static files.

The lifespan opens the database, registers this server process (presence counts the sockets of
live processes only), keeps its heartbeat going and, on PostgreSQL, listens for the other
processes' room notifications, and sweeps for rooms past their lifetime
(`app.services.lifetime`). It also starts the computer player (`app.computer.player`), which
resumes the rooms left on the computer's turn. Migrations are applied by `python -m app` before
start.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.middleware.gzip import GZipMiddleware

from app.computer.lanes import games_ahead
from app.computer.player import ComputerHub, ComputerPlayer
from app.db import close_engine, engine_for, make_sessionmaker
from app.deps import PageError
from app.edge.guards import RequestGuard
from app.edge.head import HeadAsGet
from app.edge.headers import SecurityHeaders
from app.edge.limits import AbuseLimits
from app.i18n import LANGUAGES
from app.live.hub import run_periodically
from app.reads import catalogs
from app.refusals.answers import problem
from app.routes import (
    api,
    apidocs,
    chat,
    health,
    links,
    pages,
    panel,
    review,
    roomlife,
    roomlife_api,
    ws,
)
from app.services import lifetime, presence
from app.services.errors import ServiceError
from app.settings import Settings
from app.ui.board import BoardPainter, draw_board
from app.ui.chat import ChatPainter
from app.ui.templates import environment_for

ROOT = Path(__file__).resolve().parent.parent

log = logging.getLogger(__name__)

BUSY_RETRY_AFTER_S = 2
"""What a 503 for an unavailable database asks the client to wait, in seconds."""


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application, on `settings` (by default from the environment).

    The catalogs are read first: a bad file in `CATALOG_DIR` raises ``ValueError`` naming the
    file and the problem, and the server does not start.
    """
    settings = settings or Settings()
    catalogs.configure(settings.catalog_dir)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = engine_for(settings)
        sessions = make_sessionmaker(engine)
        painter = BoardPainter(
            sessions,
            draw_board,
            presence_timeout=settings.presence_timeout,
            absent_after=settings.absent_after,
        )
        hub = ComputerHub(asyncio.get_running_loop(), painter)
        hub.make_chats = ChatPainter(sessions)
        process_id = secrets.token_hex(8)
        app.state.settings = settings
        app.state.sessionmaker = sessions
        app.state.hub = hub
        app.state.process_id = process_id
        computer = ComputerPlayer(sessions, hub, redraw=hub.redraw)
        hub.computer = computer
        app.state.computer = computer

        def register() -> None:
            with sessions() as session:
                presence.register_process(session, process_id=process_id)

        beat_interval = settings.presence_timeout / 3

        def beat() -> None:
            with sessions() as session:
                presence.heartbeat(session, process_id=process_id)
                # A process that died cannot say so: redraw the rooms whose presence it changed.
                silent = presence.rooms_gone_silent(
                    session, timeout=settings.presence_timeout, window=1.5 * beat_interval
                )
                # A player away long enough: the other may now let the computer play or claim.
                silent += presence.seats_gone_absent(
                    session, absent_after=settings.absent_after, window=1.5 * beat_interval
                )
            for room_id in silent:
                hub.room_changed(room_id, None)

        def unregister() -> list[str]:
            with sessions() as session:
                return presence.unregister_process(session, process_id=process_id)

        def sweep() -> None:
            with sessions() as session:
                lifetime.remove_expired_rooms(
                    session,
                    unstarted_after=timedelta(days=settings.unstarted_room_days),
                    finished_after=timedelta(days=settings.finished_room_days),
                )

        await asyncio.to_thread(register)
        tasks = [
            asyncio.create_task(run_periodically(beat_interval, beat)),
            asyncio.create_task(run_periodically(settings.room_sweep_interval, sweep)),
        ]
        if settings.is_postgres:
            tasks.append(asyncio.create_task(hub.listen_postgres(settings.resolved_database_url)))
        await computer.resume()
        if settings.computer_warm_up:
            computer.warm_up()
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await computer.close()
            await asyncio.to_thread(unregister)
            await asyncio.to_thread(close_engine, engine)

    app = FastAPI(
        title="Inland Port",
        summary="Le Havre: The Inland Port, played live in the browser",
        lifespan=lifespan,
        docs_url=None,  # served by app.routes.apidocs from vendored files
        redoc_url=None,
    )
    app.add_middleware(
        AbuseLimits,
        rooms_per_minute=settings.rooms_per_minute,
        room_burst=settings.room_burst,
        sockets_per_address=settings.sockets_per_address,
    )
    # Outside the limits: a cross-site post is refused before it counts against the address.
    app.add_middleware(RequestGuard, extra_origins=settings.extra_origins)
    # Pages, CSS and the vendored htmx are text: gzip makes a first load about a quarter of its size.
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    app.add_middleware(SecurityHeaders, https=settings.https)
    app.add_middleware(HeadAsGet)  # outermost: HEAD answers exactly what GET would, bodiless

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        """422 naming each bad field; the input itself is not echoed (it may not be JSON-safe)."""
        errors = [
            {"loc": list(error.get("loc", ())), "msg": error.get("msg", ""), "type": error["type"]}
            for error in exc.errors()
        ]
        return JSONResponse({"detail": errors}, status_code=422)

    @app.exception_handler(ServiceError)
    async def refused(request: Request, exc: ServiceError) -> Response:
        """A request refused before (or outside) its route's own answer: the token checks, a
        room that does not exist. A page a browser opened gets the error page; the API and
        htmx requests get the JSON problem."""
        opened = request.method in ("GET", "HEAD") and "hx-request" not in request.headers
        if opened and not request.url.path.startswith("/api/"):
            return pages.refused_page(request, exc)
        return problem(exc)

    async def database_unavailable(request: Request, exc: Exception) -> Response:
        """The database refused a connection, lost one, or the pool had none free in time
        (overload): 503 with `Retry-After`, never a 500. The request's transaction did not commit
        (or, if the connection broke during the commit itself, this request cannot know): a move
        sent again with the same `client_move_id` counts once either way."""
        log.warning("database unavailable, answered 503: %s", type(exc).__name__)
        answer = await refused(request, ServiceError("busy"))
        answer.headers["Retry-After"] = str(BUSY_RETRY_AFTER_S)
        return answer

    for unavailable in (OperationalError, PoolTimeout):
        app.add_exception_handler(unavailable, database_unavailable)

    app.add_exception_handler(PageError, pages.page_error)

    app.include_router(health.router)
    app.include_router(apidocs.router)
    app.include_router(api.router)
    app.include_router(roomlife_api.router)
    app.include_router(chat.api_router)
    app.include_router(chat.router)
    app.include_router(links.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.include_router(panel.router)
    app.include_router(review.router)
    app.include_router(roomlife.router)
    for lang in LANGUAGES:  # the tables say where a room waits in the computer's queue
        environment_for(lang).globals["games_ahead"] = games_ahead
    static = ROOT / "static"
    if static.is_dir():
        app.mount("/static", StaticFiles(directory=static), name="static")
    return app
