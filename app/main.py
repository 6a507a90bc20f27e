"""`create_app()`: the FastAPI application wired together — its middleware, error handlers,
routers and static files, on the lifespan of `app.lifespan`. Migrations are applied by
`python -m app` before start.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Match, Route

from app.computer.lanes import games_ahead
from app.deps import PageError
from app.edge.guards import RequestGuard
from app.edge.head import HeadAsGet
from app.edge.headers import SecurityHeaders
from app.edge.limits import AbuseLimits
from app.i18n import LANGUAGES
from app.lifespan import lifespan_for
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
)
from app.routes.direct import DirectRoutes
from app.services.errors import ServiceError
from app.settings import Settings
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
    app = FastAPI(
        title="Inland Port",
        summary="Le Havre: The Inland Port, played live in the browser",
        lifespan=lifespan_for(settings),
        docs_url=None,  # served by app.routes.apidocs from vendored files
        redoc_url=None,
    )
    _add_middleware(app, settings)
    _add_error_handlers(app)
    _add_routes(app)
    _document_catalogs(app)
    return app


def _document_catalogs(app: FastAPI) -> None:
    """The API's schema names this server's catalogs, read at start, as the only ids a new room
    may ask for."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = generate()
            catalog = schema["components"]["schemas"]["InlandPortRoomIn"]["properties"]["catalog"]
            catalog["anyOf"][0]["enum"] = [entry.id for entry in catalogs.registry().all()]
        return app.openapi_schema or generate()

    app.openapi = openapi  # type: ignore[method-assign]


def _add_middleware(app: FastAPI, settings: Settings) -> None:
    # Innermost: a move's post and the room sockets to their handlers, inside the socket cap.
    app.add_middleware(DirectRoutes)
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


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        """422 ``invalid_request`` naming each bad field in ``params.errors``; the input itself
        is not echoed (it may not be JSON-safe)."""
        errors = [
            {"loc": list(error.get("loc", ())), "msg": error.get("msg", ""), "type": error["type"]}
            for error in exc.errors()
        ]
        return problem(ServiceError("invalid_request", {"errors": errors}))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """A body that cannot even be parsed is refused like any invalid request (422
        ``invalid_request``); the other HTTP errors (no such route, method) keep their answer."""
        if exc.status_code == 400:
            errors = [{"loc": ["body"], "msg": str(exc.detail), "type": "body_unparsable"}]
            return problem(ServiceError("invalid_request", {"errors": errors}))
        answer = await http_exception_handler(request, exc)
        if exc.status_code == 405:
            answer.headers["Allow"] = ", ".join(_allowed_methods(app, request))
        return answer

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


def _allowed_methods(app: FastAPI, request: Request) -> list[str]:
    """Every method some route answers at the request's path (Starlette's 405 names only the
    first route's, where a path has a route per method)."""
    methods: set[str] = set()
    for route in app.routes:
        if isinstance(route, Route) and route.matches(request.scope)[0] != Match.NONE:
            methods |= route.methods or set()
    return sorted(methods)


def _add_routes(app: FastAPI) -> None:
    # A request is matched against the routes in order: the page's moves first (no two routes
    # answer the same method and path, so the order changes nothing else).
    app.include_router(panel.router)
    app.include_router(health.router)
    app.include_router(apidocs.router)
    app.include_router(api.router)
    app.include_router(roomlife_api.router)
    app.include_router(chat.api_router)
    app.include_router(chat.router)
    app.include_router(links.router)
    app.include_router(pages.router)
    app.include_router(review.router)
    app.include_router(roomlife.router)
    for lang in LANGUAGES:  # the tables say where a room waits in the computer's queue
        environment_for(lang).globals["games_ahead"] = games_ahead
    static = ROOT / "static"
    if static.is_dir():
        app.mount("/static", StaticFiles(directory=static), name="static")
