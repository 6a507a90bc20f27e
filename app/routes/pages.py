"""The browser pages: home, the rules, the room's table, the action panel, moves posted from a
form, and the language switcher.

The table page draws the board the sockets keep fresh (`app.views.render_board`); the panel
and the move form are htmx requests answered with HTML fragments. A move is one canonical
move copied from the engine's list into the form; the server checks it again and a refusal
comes back as the panel's message, with the current board, and changes nothing.

Every page speaks the viewer's language (`app.i18n.language_of`: the ``lang`` cookie, else the
browser's Accept-Language); ``POST /language`` sets the cookie and goes back to the page.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from sqlalchemy.orm import Session

from app import services
from app.cookies import set_cookie
from app.deps import BaseUrlDep, CookieViewerDep, SessionDep, SettingsDep
from app.i18n import COOKIE, COOKIE_MAX_AGE, LANGUAGES, language, language_of
from app.panel import build_panel
from app.present import GOODS, words_for
from app.roomview import RoomView, Viewer
from app.views import WEDGES, board_context, render_board, start_counters, templates_for
from engine import default_catalog

router = APIRouter(include_in_schema=False)

HOST_SEATS: dict[str, int | str] = {"0": 0, "1": 1, "random": "random"}
OPPONENTS: dict[str, str | None] = {
    "": None,
    "easy": "easy",
    "normal": "normal",
    "strong": "strong",
}
"""The home form's opponent: a friend (empty) or the computer at one of its strengths."""


async def _form(request: Request) -> dict[str, str]:
    """The fields of a URL-encoded form body (the only kind these pages send)."""
    body = (await request.body()).decode("utf-8", "replace")
    return dict(parse_qsl(body, keep_blank_values=True))


def _page_error(request: Request, status: int, title: str, message: str) -> HTMLResponse:
    return templates_for(language_of(request)).TemplateResponse(
        request, "error.html", {"title": title, "message": message}, status_code=status
    )


def _local_path(target: str) -> str:
    """Where the switcher may send the browser back to: a path on this site, else home."""
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    if any(ch in target for ch in "\r\n"):
        return "/"
    return target


def _view(session: Session, viewer: Viewer, base: str, settings: Any) -> RoomView:
    return services.load_room_view(
        session, viewer=viewer, base_url=base, presence_timeout=settings.presence_timeout
    )


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return templates_for(language_of(request)).TemplateResponse(
        request, "home.html", {"error": None}
    )


@router.post("/language")
async def choose_language(request: Request) -> Response:
    """The language switcher: remember the choice in a cookie and go back to the page."""
    form = await _form(request)
    choice = form.get("lang", "")
    if choice not in LANGUAGES:
        t = language(language_of(request))
        return _page_error(
            request,
            422,
            t.gettext("Unknown language"),
            t.gettext("Choose one of: %(languages)s.", languages=", ".join(LANGUAGES.values())),
        )
    response = RedirectResponse(_local_path(form.get("next", "/")), status_code=303)
    set_cookie(response, request, COOKIE, choice, max_age=COOKIE_MAX_AGE, httponly=False)
    return response


@router.get("/rules", response_class=HTMLResponse)
def rules(request: Request) -> HTMLResponse:
    """The rules in short, in the viewer's language, drawn with the table's own pictures."""
    lang = language_of(request)
    words = words_for(lang)
    catalog = default_catalog()
    goods = start_counters(words)
    by_amount = sorted(goods, key=lambda counter: -counter.amount)
    context = {
        "wedges": WEDGES,
        "hints": [words.sector_hint(i) for i in range(len(WEDGES))],
        "goods": GOODS,
        "warehouse": catalog.warehouse,
        "counters": goods,
        "start_francs": catalog.start_francs,
        "start_goods": words.lang.join([words.amount(c.good, c.amount) for c in by_amount]),
        "round_actions": ", ".join(f"{letter} {n}" for letter, n in catalog.rounds),
        "row_value": catalog.warehouse.row_value,
        "column_value": catalog.warehouse.column_value,
    }
    return templates_for(lang).TemplateResponse(request, f"rules/{lang}.html", context)


@router.post("/rooms")
async def create_room(request: Request, session: SessionDep, base: BaseUrlDep) -> Response:
    """Open a room with the host in the chosen seat, then sit the host down by their seat link.

    The opponent is a friend (invited by link) or the computer at the chosen strength.
    """
    form = await _form(request)
    host_seat = HOST_SEATS.get(form.get("host_seat", ""))
    opponent = form.get("computer", "")
    error = None
    t = language(language_of(request))
    if host_seat is None:
        error = t.gettext("Choose who moves first: you, your friend, or a coin toss.")
    elif opponent not in OPPONENTS:
        error = t.gettext(
            "Choose your opponent: a friend, or the computer at one of its strengths."
        )
    if error is not None:
        return templates_for(language_of(request)).TemplateResponse(
            request, "home.html", {"error": error}, status_code=422
        )
    created = services.create_room(
        session,
        host_seat=host_seat,  # type: ignore[arg-type]
        base_url=base,
        computer=OPPONENTS[opponent],
        publisher=request.app.state.hub,
    )
    return RedirectResponse(f"/s/{created.token}", status_code=303)


@router.get("/rooms/{room_id}", response_class=HTMLResponse)
def room_page(
    request: Request,
    room_id: str,
    session: SessionDep,
    viewer: CookieViewerDep,
    base: BaseUrlDep,
    settings: SettingsDep,
) -> HTMLResponse:
    """The table. The browser needs the room's cookie, which one of the room's links sets."""
    lang = language_of(request)
    t = language(lang)
    if viewer is None:
        return _page_error(
            request,
            403,
            t.gettext("This room needs a link"),
            t.gettext("Open the invite, seat or spectator link you were given for this room."),
        )
    try:
        view = _view(session, viewer, base, settings)
    except services.RoomNotFound:
        return _page_error(
            request, 404, t.gettext("No such room"), t.gettext("This room does not exist.")
        )
    return templates_for(lang).TemplateResponse(
        request, "room.html", board_context(view, lang=lang)
    )


@router.get("/rooms/{room_id}/panel", response_class=HTMLResponse)
def panel(
    request: Request,
    room_id: str,
    session: SessionDep,
    viewer: CookieViewerDep,
    base: BaseUrlDep,
    settings: SettingsDep,
) -> HTMLResponse:
    """The action panel for one building; the query holds the building and the picked values."""
    lang = language_of(request)
    t = language(lang)
    if viewer is None:
        return HTMLResponse(t.gettext("This room needs a link."), status_code=403)
    query = dict(request.query_params)
    building = query.get("building", "")
    view = _view(session, viewer, base, settings)
    if building not in view.state.catalog.by_id:
        return _message(
            request,
            view,
            title=t.gettext("Unknown building"),
            error=t.gettext("There is no such building."),
        )
    picked = query if query.get("touched") else None
    model = build_panel(view.state, view.viewer_seat, building, picked, lang=lang)
    context = {
        "p": model,
        "version": view.version,
        "room_id": room_id,
        "warehouse": view.state.catalog.warehouse,
        "goods": GOODS,
    }
    return templates_for(lang).TemplateResponse(request, "panel.html", context)


def _message(
    request: Request,
    view: RoomView,
    *,
    title: str,
    error: str | None = None,
    lines: list[str] | None = None,
    hint: str | None = None,
    board: bool = False,
    status_code: int = 200,
) -> HTMLResponse:
    lang = language_of(request)
    context = {
        "title": title,
        "error": error,
        "lines": lines or [],
        "hint": hint,
        "version": view.version,
        "board": Markup(render_board(view, lang=lang)) if board else None,
    }
    return templates_for(lang).TemplateResponse(
        request, "panel_message.html", context, status_code=status_code
    )


@router.post("/rooms/{room_id}/moves", response_class=HTMLResponse)
async def post_move(
    request: Request,
    room_id: str,
    session: SessionDep,
    viewer: CookieViewerDep,
    base: BaseUrlDep,
    settings: SettingsDep,
) -> HTMLResponse:
    """Submit one move from the panel's form: answered with what happened and the fresh board.

    A refusal is told in the viewer's language: a stale board, not this player's turn, or a
    move the rules do not allow now (the engine's own reason follows in English only).
    """
    lang = language_of(request)
    t = language(lang)
    if viewer is None:
        return HTMLResponse(t.gettext("This room needs a link."), status_code=403)
    form = await _form(request)
    version_text = form.get("version", "")
    version = int(version_text) if version_text.isdigit() else -1
    seat = viewer.seat if viewer.kind == "seat" else None
    hub = request.app.state.hub
    try:
        services.submit_move(
            session,
            room_id=room_id,
            seat=seat,
            move=form.get("move", ""),
            version=version,
            client_move_id=form.get("client_move_id", ""),
            publisher=hub,
        )
    except services.StaleVersion:
        view = _view(session, viewer, base, settings)
        reason = t.gettext(
            "The board changed before your move arrived: look at the new position and choose again."
        )
        return _refused(request, view, reason, 409)
    except services.NotYourTurn:
        view = _view(session, viewer, base, settings)
        if view.state.to_move is None:
            reason = t.gettext("The game is over.")
        elif seat is None:
            reason = t.gettext("Only a player of this room can move.")
        else:
            reason = t.gettext("It is not your turn.")
        return _refused(request, view, reason, 409)
    except services.MoveRefused as exc:
        view = _view(session, viewer, base, settings)
        reason = t.gettext("The rules do not allow that move now.")
        if lang == "en":
            reason = f"{reason} ({exc})"
        return _refused(request, view, reason, 422)
    view = _view(session, viewer, base, settings)
    words = words_for(lang)
    names = words.building_names(view.state.catalog)
    mine = [entry for entry in view.log if entry.seat == seat]
    lines = words.describe_events(mine[-1].events, names) if mine else []
    hint = None
    if view.state.to_move == seat and mine and mine[-1].move.get("type") == "sell":
        hint = t.gettext("Your turn goes on: build or use a building.")
    return _message(request, view, title=t.gettext("Done"), lines=lines, hint=hint, board=True)


def _refused(request: Request, view: RoomView, reason: str, status_code: int) -> HTMLResponse:
    title = language(language_of(request)).gettext("Not played")
    return _message(request, view, title=title, error=reason, board=True, status_code=status_code)


@router.post("/rooms/{room_id}/rematch", response_class=HTMLResponse)
def rematch(
    request: Request,
    room_id: str,
    session: SessionDep,
    viewer: CookieViewerDep,
    base: BaseUrlDep,
    settings: SettingsDep,
) -> HTMLResponse:
    """Ask for the rematch with the boards swapped; it opens once both players asked."""
    t = language(language_of(request))
    if viewer is None:
        return HTMLResponse(t.gettext("This room needs a link."), status_code=403)
    hub = request.app.state.hub
    title = t.gettext("Rematch")
    try:
        info = services.offer_rematch(session, viewer=viewer, base_url=base, publisher=hub)
    except services.ServiceError:
        view = _view(session, viewer, base, settings)
        if viewer.kind != "seat":
            reason = t.gettext("Only a player of this room can ask for a rematch.")
        else:
            reason = t.gettext("A rematch can only be asked for once the game is over.")
        return _message(request, view, title=title, error=reason, status_code=409)
    view = _view(session, viewer, base, settings)
    if info.room_id:
        lines = [t.gettext("The rematch is ready.")]
    else:
        lines = [t.gettext("You asked for a rematch. It starts when your opponent agrees.")]
    return _message(request, view, title=title, lines=lines, board=True)
