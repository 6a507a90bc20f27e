"""Dependencies shared by the routes: settings, a database session, the hub, the viewer.

The browser pages find their viewer in the room's cookie (set by the link routes in
`app.routes.links`); the JSON API takes the token as `Authorization: Bearer <token>`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from app import services
from app.realtime import Hub
from app.roomview import Viewer
from app.settings import Settings

COOKIE_PREFIX = "ip_"
COOKIE_MAX_AGE = 365 * 24 * 3600


def cookie_name(room_id: str) -> str:
    """The cookie that remembers this browser's token for one room."""
    return f"{COOKIE_PREFIX}{room_id}"


def get_settings(connection: HTTPConnection) -> Settings:
    settings: Settings = connection.app.state.settings
    return settings


def get_sessionmaker(connection: HTTPConnection) -> sessionmaker[Session]:
    maker: sessionmaker[Session] = connection.app.state.sessionmaker
    return maker


async def get_session(request: Request) -> AsyncIterator[Session]:
    """A session for one request. Opening one does no I/O, and the services end their own
    transactions, so closing it does none either: both run on the event loop (a sync dependency
    would cost two hand-offs to a worker thread per request)."""
    with get_sessionmaker(request)() as session:
        yield session


def get_hub(connection: HTTPConnection) -> Hub:
    hub: Hub = connection.app.state.hub
    return hub


def base_url(connection: HTTPConnection) -> str:
    """Where links point: PUBLIC_URL, or the address this request came to."""
    settings = get_settings(connection)
    if settings.public_url:
        return settings.public_url.rstrip("/")
    url = str(connection.base_url).rstrip("/")
    if url.startswith("ws"):
        url = "http" + url[2:]
    return url


# The dependencies below are `async def` because they do no I/O of their own: FastAPI runs a
# plain `def` dependency in a worker thread, and those hand-offs cost more than the work.


async def _settings(request: Request) -> Settings:
    return get_settings(request)


async def _hub(request: Request) -> Hub:
    return get_hub(request)


async def _base_url(request: Request) -> str:
    return base_url(request)


SettingsDep = Annotated[Settings, Depends(_settings)]
SessionDep = Annotated[Session, Depends(get_session)]
HubDep = Annotated[Hub, Depends(_hub)]
BaseUrlDep = Annotated[str, Depends(_base_url)]


async def viewer_of(request: Request, token: str) -> Viewer | None:
    """Who holds `token`: from memory when known, else read in a worker thread."""
    known = services.known_viewer(token)
    if known is not None:
        return known

    def resolve() -> Viewer | None:
        with get_sessionmaker(request)() as session:
            return services.resolve_token(session, token=token)

    return await run_in_threadpool(resolve)


async def cookie_viewer(request: Request, room_id: str) -> Viewer | None:
    """The viewer this browser is for the room in the path (None: no valid cookie)."""
    token = request.cookies.get(cookie_name(room_id))
    if not token:
        return None
    viewer = await viewer_of(request, token)
    if viewer is None or viewer.room_id != room_id:
        return None
    return viewer


CookieViewerDep = Annotated[Viewer | None, Depends(cookie_viewer)]

bearer = HTTPBearer(auto_error=False, description="a seat or spectator token from a room link")


async def token_viewer(
    request: Request,
    room_id: str,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Viewer:
    """The viewer behind the Bearer token; 403 unless it is a token of this room."""
    if credentials is None:
        raise HTTPException(403, "This needs a room token: Authorization: Bearer <token>.")
    viewer = await viewer_of(request, credentials.credentials)
    if viewer is None or viewer.room_id != room_id:
        raise HTTPException(403, "This token does not open this room.")
    return viewer


async def token_seat(viewer: Annotated[Viewer, Depends(token_viewer)]) -> Viewer:
    """As `token_viewer`, but only a player's seat token will do."""
    if viewer.kind != "seat" or viewer.seat is None:
        raise HTTPException(403, "Only a player's seat token can do this.")
    return viewer


TokenViewerDep = Annotated[Viewer, Depends(token_viewer)]
TokenSeatDep = Annotated[Viewer, Depends(token_seat)]
