"""The browser pages: home, the room's table, the action panel, and moves posted from a form.

The table page draws the board the sockets keep fresh (`app.views.render_board`); the panel
and the move form are htmx requests answered with HTML fragments. A move is one canonical
move copied from the engine's list into the form; the server checks it again and a refusal
comes back as the panel's message, with the current board, and changes nothing.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from sqlalchemy.orm import Session

from app import services
from app.deps import BaseUrlDep, CookieViewerDep, SessionDep, SettingsDep
from app.panel import build_panel, building_names
from app.present import describe_events
from app.roomview import RoomView, Viewer
from app.views import board_context, render_board, templates

router = APIRouter(include_in_schema=False)

HOST_SEATS: dict[str, int | str] = {"0": 0, "1": 1, "random": "random"}


async def _form(request: Request) -> dict[str, str]:
    """The fields of a URL-encoded form body (the only kind these pages send)."""
    body = (await request.body()).decode("utf-8", "replace")
    return dict(parse_qsl(body, keep_blank_values=True))


def _page_error(request: Request, status: int, title: str, message: str) -> HTMLResponse:
    return templates.TemplateResponse(
        request, "error.html", {"title": title, "message": message}, status_code=status
    )


def _view(session: Session, viewer: Viewer, base: str, settings: Any) -> RoomView:
    return services.load_room_view(
        session, viewer=viewer, base_url=base, presence_timeout=settings.presence_timeout
    )


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "home.html", {"error": None})


@router.post("/rooms")
async def create_room(request: Request, session: SessionDep, base: BaseUrlDep) -> Response:
    """Open a room with the host in the chosen seat, then sit the host down by their seat link."""
    choice = (await _form(request)).get("host_seat", "")
    host_seat = HOST_SEATS.get(choice)
    if host_seat is None:
        return templates.TemplateResponse(
            request,
            "home.html",
            {"error": "Choose who moves first: you, your friend, or a coin toss."},
            status_code=422,
        )
    created = services.create_room(session, host_seat=host_seat, base_url=base)  # type: ignore[arg-type]
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
    if viewer is None:
        return _page_error(
            request,
            403,
            "This room needs a link",
            "Open the invite, seat or spectator link you were given for this room.",
        )
    try:
        view = _view(session, viewer, base, settings)
    except services.RoomNotFound:
        return _page_error(request, 404, "No such room", "This room does not exist.")
    return templates.TemplateResponse(request, "room.html", board_context(view))


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
    if viewer is None:
        return HTMLResponse("This room needs a link.", status_code=403)
    query = dict(request.query_params)
    building = query.get("building", "")
    view = _view(session, viewer, base, settings)
    if building not in view.state.catalog.by_id:
        return _message(request, view, title="Unknown building", error="There is no such building.")
    picked = query if query.get("touched") else None
    model = build_panel(view.state, view.viewer_seat, building, picked)
    context = {
        "p": model,
        "version": view.version,
        "room_id": room_id,
        "warehouse": view.state.catalog.warehouse,
        "goods": ("fish", "wood", "clay", "grain"),
    }
    return templates.TemplateResponse(request, "panel.html", context)


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
    context = {
        "title": title,
        "error": error,
        "lines": lines or [],
        "hint": hint,
        "version": view.version,
        "board": Markup(render_board(view)) if board else None,
    }
    return templates.TemplateResponse(
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
    """Submit one move from the panel's form: answered with what happened and the fresh board."""
    if viewer is None:
        return HTMLResponse("This room needs a link.", status_code=403)
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
    except services.StaleVersion as exc:
        view = _view(session, viewer, base, settings)
        return _message(
            request, view, title="Not played", error=str(exc), board=True, status_code=409
        )
    except services.NotYourTurn as exc:
        view = _view(session, viewer, base, settings)
        return _message(
            request, view, title="Not played", error=str(exc), board=True, status_code=409
        )
    except services.MoveRefused as exc:
        view = _view(session, viewer, base, settings)
        return _message(
            request, view, title="Not played", error=str(exc), board=True, status_code=422
        )
    view = _view(session, viewer, base, settings)
    names = building_names(view.state)
    mine = [entry for entry in view.log if entry.seat == seat]
    lines = describe_events(mine[-1].events, names) if mine else []
    hint = None
    if view.state.to_move == seat and mine and mine[-1].move.get("type") == "sell":
        hint = "Your turn goes on: build or use a building."
    return _message(request, view, title="Done", lines=lines, hint=hint, board=True)


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
    if viewer is None:
        return HTMLResponse("This room needs a link.", status_code=403)
    hub = request.app.state.hub
    try:
        info = services.offer_rematch(session, viewer=viewer, base_url=base, publisher=hub)
    except services.ServiceError as exc:
        view = _view(session, viewer, base, settings)
        return _message(request, view, title="Rematch", error=str(exc), status_code=409)
    view = _view(session, viewer, base, settings)
    if info.room_id:
        return _message(request, view, title="Rematch", lines=["The rematch is ready."], board=True)
    return _message(
        request,
        view,
        title="Rematch",
        lines=["You asked for a rematch. It starts when your opponent agrees."],
        board=True,
    )
