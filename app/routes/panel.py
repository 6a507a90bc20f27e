"""The action panel: a building's panel (`GET /rooms/{id}/panel`), the move posted from it
(`POST /rooms/{id}/moves`), and the panel's answers after an act (`panel_message`).

The panel and the move form are htmx requests answered with HTML fragments. A move is one
canonical move copied from the engine's list into the form; the server checks it again.

A move that is played is answered with the panel's message only: what happened, told from the
move's own log entry (`moves.MoveResult.entry`), without reading the room again or drawing a
board. The mover's board arrives over the mover's socket, as every viewer's does (`app.live.hub`
draws it for the mover's group anyway), after the other player's: the answer waits until the
move's boards went out (`BOARDS_WAIT` at most), so that neither the answer's work in this
process nor its handling in the mover's page delays them. A refusal comes back as the panel's message with the
current board (the page may be showing an older one), and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import suppress
from typing import TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from app.deps import (
    INLAND_PORT_ONLY,
    LangDep,
    PageAct,
    RoomViewDep,
    TranslatorDep,
    form_fields,
    get_sessionmaker,
    page_move,
)
from app.reads.roomview import RoomView
from app.refusals.answers import refusal_sentence, refusal_status
from app.services import moves
from app.services.errors import ServiceError
from app.ui.fields import whole_number
from app.ui.games import move_said, render_board
from app.ui.panel import build_panel
from app.ui.roomlife import not_started_text
from app.ui.templates import templates_for
from app.ui.words import GOODS, words_for

router = APIRouter(include_in_schema=False)

#: How long a played move's answer waits, at most, for the move's boards to go to the room's
#: sockets in this process (`app.live.hub`).
BOARDS_WAIT = 0.1


@router.get("/rooms/{room_id}/panel", dependencies=[INLAND_PORT_ONLY], response_class=HTMLResponse)
def panel(
    request: Request, room_id: str, view: RoomViewDep, lang: LangDep, t: TranslatorDep
) -> HTMLResponse:
    """The action panel for one building; the query holds the building and the picked values."""
    query = dict(request.query_params)
    building = query.get("building", "")
    if building not in view.state.catalog.by_id:
        return panel_message(
            request,
            view,
            lang,
            title=t.gettext("Unknown building"),
            error=t.gettext("There is no such building."),
        )
    if view.viewer_seat is not None and not view.started:
        return panel_message(
            request,
            view,
            lang,
            title=t.gettext("Not played"),
            error=not_started_text(words_for(lang)),
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


def panel_message(
    request: Request,
    view: RoomView,
    lang: str,
    *,
    title: str,
    error: str | None = None,
    lines: list[str] | None = None,
    hint: str | None = None,
    board: bool = False,
    status_code: int = 200,
) -> HTMLResponse:
    """The panel's answer after an act on the room as `view` shows it: with `board`, the fresh
    board swapped in beside it."""
    return panel_answer(
        request,
        lang,
        version=view.version,
        title=title,
        error=error,
        lines=lines,
        hint=hint,
        board=render_board(view, lang=lang) if board else None,
        status_code=status_code,
    )


T = TypeVar("T")
"""What a page's act answers when it is done."""


def refused_in_panel(page: PageAct, refused: ServiceError, *, title: str) -> HTMLResponse:
    """The one answer to a page's act the services refused: why, in the viewer's language, with
    the status the JSON API would answer and the current board; nothing changed."""
    view = page.read_view()
    return panel_message(
        page.request,
        view,
        page.lang,
        title=title,
        error=refusal_sentence(refused, page.lang, getattr(view.state, "catalog", None)),
        board=True,
        status_code=refusal_status(refused),
    )


def act_in_panel(
    page: PageAct, *, title: str, act: Callable[[], T], lines: Callable[[T], list[str]]
) -> HTMLResponse:
    """Do a page's `act` on its room; answer with its `lines` and the fresh board, or with the
    refusal (`refused_in_panel`)."""
    try:
        done = act()
    except ServiceError as refused:
        return refused_in_panel(page, refused, title=title)
    return panel_message(
        page.request, page.read_view(), page.lang, title=title, lines=lines(done), board=True
    )


def panel_answer(
    request: Request,
    lang: str,
    *,
    version: int,
    title: str,
    error: str | None = None,
    lines: list[str] | None = None,
    hint: str | None = None,
    board: str | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    """The panel's answer (templates/panel_message.html): a title, the refusal or what happened,
    the room's `version` it tells of, and the `board` HTML when there is one to swap in."""
    context = {
        "title": title,
        "error": error,
        "lines": lines or [],
        "hint": hint,
        "version": version,
        "board": Markup(board) if board is not None else None,
    }
    return templates_for(lang).TemplateResponse(
        request, "panel_message.html", context, status_code=status_code
    )


@router.post("/rooms/{room_id}/moves", response_class=HTMLResponse)
async def post_move(request: Request) -> Response:
    """Submit one move from the panel's form: answered with what happened (the board follows
    over the socket).

    The move goes through `moves.submit_move` as the JSON API's does. A refusal (a stale board,
    not this player's turn, a move the rules do not allow now) is told with its specific reason
    in the viewer's language, the status the API would answer, and the current board. A form the
    browser sent itself (htmx did not catch it) is answered by going back to the table.

    What blocks (the transaction, a refusal's read of the room) runs in a worker thread; the wait
    for the boards and the answer on the event loop. The route every move of a page takes names
    no FastAPI dependency: `page_move` gives what they would in one call (solving them cost more
    Python than the move's own route did).
    """
    room_id: str = request.path_params["room_id"]
    form = await form_fields(request)
    with get_sessionmaker(request)() as session:
        return await _play(await page_move(request, room_id, session), room_id, form)


async def _play(page: PageAct, room_id: str, form: Mapping[str, str]) -> Response:
    """The form's move played, or refused (`post_move`)."""
    t = page.t
    if page.request.headers.get("sec-fetch-mode") == "navigate":
        with suppress(ServiceError):
            await run_in_threadpool(_submit, page, room_id, form)
        return RedirectResponse(f"/rooms/{room_id}", status_code=303)
    try:
        result = await run_in_threadpool(_submit, page, room_id, form)
    except ServiceError as refused:
        title = t.gettext("Not played")
        return await run_in_threadpool(refused_in_panel, page, refused, title=title)
    await page.hub.wait_for_boards(room_id, result.version, BOARDS_WAIT)
    lines, hint = move_said(result.game, result.entry, result.state, page.viewer.seat, page.lang)
    return panel_answer(
        page.request,
        page.lang,
        version=result.version,
        title=t.gettext("Done"),
        lines=lines,
        hint=hint,
    )


def _submit(page: PageAct, room_id: str, form: Mapping[str, str]) -> moves.MoveResult:
    """The panel form's move, through the one service every move goes through."""
    return moves.submit_move(
        page.session,
        room_id=room_id,
        seat=page.viewer.seat,
        move=form.get("move", ""),
        version=_version(form.get("version", "")),
        client_move_id=form.get("client_move_id", ""),
        publisher=page.hub,
        seen=page.seen_due,
    )


def _version(text: str) -> int:
    """The board version a form was filled on; -1 (stale) for anything but a sensible number."""
    number = whole_number(text, max_digits=18)
    return -1 if number is None else number
