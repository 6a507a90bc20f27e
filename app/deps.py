"""Dependencies shared by the routes: settings, a database session, the hub, the viewer, and
the pages' preamble (language, form fields, the viewer a room page needs, the room's view).

The browser pages find their viewer in the room's cookie (set by the link routes in
`app.routes.links`); the JSON API takes the token as `Authorization: Bearer <token>`. A page
request refused here (no link for the room, no such room) raises `PageError`, which the app
answers in the viewer's language (`app.routes.pages.page_error`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from functools import partial
from typing import Annotated
from urllib.parse import parse_qsl

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from app.edge.cookies import cookie_name
from app.i18n import Language, language, language_of
from app.live.hub import Hub
from app.models import Room
from app.reads import queries
from app.reads.roomview import RoomView, Viewer
from app.refusals.answers import sentence, status
from app.services import presence, seats
from app.services.errors import CatalogMissing, NoAccess, NotInThisGame, RoomNotFound
from app.settings import Settings


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


async def viewer_of(request: Request, token: str, *, seen: bool = True) -> Viewer | None:
    """Who holds `token`: from memory when known, else read in a worker thread. A seat's
    request counts as a sign of its player's presence, written here (`seen` false: by the move
    the request makes, in its own transaction, `seen_due`)."""
    viewer = seats.known_viewer(token)
    if viewer is None:

        def resolve() -> Viewer | None:
            with get_sessionmaker(request)() as session:
                return seats.resolve_token(session, token=token)

        viewer = await run_in_threadpool(resolve)
    if seen and viewer is not None and viewer.seat is not None and seen_due(request, viewer):
        await _seat_seen(request, viewer.room_id, viewer.seat)
    return viewer


def seen_due(request: Request, viewer: Viewer) -> bool:
    """Whether this request of a seat should write it as seen: not while a page of the seat is
    open on this process (its socket keeps the seat online), nor when this process wrote it a
    moment ago (and from now on, this process counts it written)."""
    if viewer.kind != "seat" or viewer.seat is None:
        return False
    if get_hub(request).has_page(viewer.room_id, viewer.seat):
        return False
    recently: presence.RecentlySeen = request.app.state.recently_seen
    return recently.due(viewer.room_id, viewer.seat)


async def _seat_seen(request: Request, room_id: str, seat: int) -> None:
    """Write the seat as seen."""

    def write() -> None:
        with get_sessionmaker(request)() as session:
            presence.seat_acted(session, room_id=room_id, seat=seat)

    await run_in_threadpool(write)


async def cookie_viewer(request: Request, room_id: str, *, seen: bool = True) -> Viewer | None:
    """The viewer this browser is for the room in the path (None: no valid cookie); `seen` as
    for `viewer_of`."""
    token = request.cookies.get(cookie_name(room_id))
    if not token:
        return None
    viewer = await viewer_of(request, token, seen=seen)
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
    return await _token_viewer(request, room_id, credentials)


async def _token_viewer(
    request: Request,
    room_id: str,
    credentials: HTTPAuthorizationCredentials | None,
    *,
    seen: bool = True,
) -> Viewer:
    if credentials is None:
        raise NoAccess("needs_token")
    viewer = await viewer_of(request, credentials.credentials, seen=seen)
    if viewer is None or viewer.room_id != room_id:
        raise NoAccess("wrong_token")
    return viewer


async def token_seat(viewer: Annotated[Viewer, Depends(token_viewer)]) -> Viewer:
    """As `token_viewer`, but only a player's seat token will do."""
    return _seat_only(viewer)


def _seat_only(viewer: Viewer) -> Viewer:
    if viewer.kind != "seat" or viewer.seat is None:
        raise NoAccess("not_a_player")
    return viewer


@dataclass(frozen=True)
class Mover:
    """A seat making a move, and whether the move writes the seat as seen (`seen_due`)."""

    viewer: Viewer
    seen_due: bool


async def token_mover(
    request: Request,
    room_id: str,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Mover:
    """As `token_seat`, for a move: the seat is written as seen in the move's own transaction."""
    viewer = _seat_only(await _token_viewer(request, room_id, credentials, seen=False))
    return Mover(viewer, seen_due(request, viewer))


TokenViewerDep = Annotated[Viewer, Depends(token_viewer)]
TokenSeatDep = Annotated[Viewer, Depends(token_seat)]
TokenMoverDep = Annotated[Mover, Depends(token_mover)]


def inland_port_room(room_id: str, session: SessionDep) -> None:
    """Only for Inland Port's rooms: what the other games' rooms do not offer (the building
    panel, a part of Inland Port's board): `NotInThisGame`."""
    game = session.scalar(select(Room.game).where(Room.id == room_id))
    if game is not None and game != "inland_port":
        raise NotInThisGame(room_id)


INLAND_PORT_ONLY = Depends(inland_port_room)


# --- the pages -----------------------------------------------------------------------------


class PageError(Exception):
    """A page request refused before its route runs, in the viewer's language: a whole error
    page (`title` and `message`), or only the message for a fragment (`title` None)."""

    def __init__(self, status_code: int, message: str, title: str | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.message = message
        self.title = title


async def _lang(request: Request) -> str:
    return language_of(request)


LangDep = Annotated[str, Depends(_lang)]


async def _translator(lang: LangDep) -> Language:
    return language(lang)


TranslatorDep = Annotated[Language, Depends(_translator)]


async def form_fields(request: Request) -> dict[str, str]:
    """The fields of a URL-encoded form body (the only kind the pages send). Reading the body is
    all this does on the event loop; the route that gets the fields runs in a worker thread."""
    body = (await request.body()).decode("utf-8", "replace")
    return dict(parse_qsl(body, keep_blank_values=True))


FormDep = Annotated[dict[str, str], Depends(form_fields)]


async def page_viewer(viewer: CookieViewerDep, t: TranslatorDep) -> Viewer:
    """The viewer of a page's fragment (panel, move, rematch); 403 without the room's cookie."""
    if viewer is None:
        raise PageError(403, t.gettext("This room needs a link."))
    return viewer


PageViewerDep = Annotated[Viewer, Depends(page_viewer)]


def _reader(
    session: Session, viewer: Viewer, base: str, settings: Settings
) -> Callable[[], RoomView]:
    return partial(
        queries.load_room_view,
        session,
        viewer=viewer,
        base_url=base,
        presence_timeout=settings.presence_timeout,
        absent_after=settings.absent_after,
    )


async def room_reader(
    session: SessionDep, viewer: PageViewerDep, base: BaseUrlDep, settings: SettingsDep
) -> Callable[[], RoomView]:
    """How to read the room as the page's viewer sees it (blocking: call it in a worker thread),
    for a route that writes first and then shows the room."""
    return _reader(session, viewer, base, settings)


RoomReaderDep = Annotated[Callable[[], RoomView], Depends(room_reader)]


@dataclass(frozen=True)
class PageAct:
    """What a page's act on its room (an htmx post) needs: the request, its viewer, a database
    session, how to read the room afterwards, the hub to tell, the base URL of links, and the
    viewer's language (code and translator)."""

    request: Request
    viewer: Viewer
    session: Session
    read_view: Callable[[], RoomView]
    hub: Hub
    base_url: str
    settings: Settings
    lang: str
    t: Language
    seen_due: bool = False
    """A move (`page_move`): whether it writes the seat as seen, in its own transaction."""


async def page_act(request: Request, room_id: str, session: SessionDep) -> PageAct:
    """`PageAct` made in one dependency: what `page_viewer`, `room_reader` and the small
    dependencies they name would give, without FastAPI solving a dozen of them per move."""
    return await _page_act(request, room_id, session, move=False)


async def page_move(request: Request, room_id: str, session: Session) -> PageAct:
    """As `page_act`, for a move (called by its route, not as a dependency): the seat is
    written as seen in the move's own transaction."""
    return await _page_act(request, room_id, session, move=True)


async def _page_act(request: Request, room_id: str, session: Session, *, move: bool) -> PageAct:
    lang = language_of(request)
    t = language(lang)
    viewer = await cookie_viewer(request, room_id, seen=not move)
    if viewer is None:
        raise PageError(403, t.gettext("This room needs a link."))
    settings, base = get_settings(request), base_url(request)
    read_view = _reader(session, viewer, base, settings)
    due = move and seen_due(request, viewer)
    return PageAct(
        request, viewer, session, read_view, get_hub(request), base, settings, lang, t, due
    )


PageActDep = Annotated[PageAct, Depends(page_act)]


def read_room_view(read: RoomReaderDep) -> RoomView:
    """The room as the page's viewer sees it now (read in a worker thread)."""
    return read()


RoomViewDep = Annotated[RoomView, Depends(read_room_view)]


async def table_viewer(viewer: CookieViewerDep, t: TranslatorDep) -> Viewer:
    """The viewer of a whole page of the room (the table, the review); 403 page without a link."""
    if viewer is None:
        raise PageError(
            403,
            t.gettext("Open the invite, seat or spectator link you were given for this room."),
            t.gettext("This room needs a link"),
        )
    return viewer


TableViewerDep = Annotated[Viewer, Depends(table_viewer)]


def table_view(
    session: SessionDep,
    viewer: TableViewerDep,
    base: BaseUrlDep,
    settings: SettingsDep,
    t: TranslatorDep,
) -> RoomView:
    """As `read_room_view`, for the table page: refusals are whole pages (403 no link, 404 no room,
    409 a room whose numbers this server does not have)."""
    try:
        return _reader(session, viewer, base, settings)()
    except RoomNotFound:
        raise PageError(
            404, t.gettext("This room does not exist."), t.gettext("No such room")
        ) from None
    except CatalogMissing as missing:
        message = sentence(missing.code, missing.params, t.code)
        raise PageError(status(missing.code), message, t.gettext("Numbers missing")) from None


TableViewDep = Annotated[RoomView, Depends(table_view)]
