"""Looking back: the review page, the score graph, the analysis, export, import and forks.

- `GET /rooms/{id}/review?at=N` the review page at position N (default: the last);
  `GET /rooms/{id}/review/position?at=N` the part that changes with the position.
- `GET /rooms/{id}/graph` the score graph (the game-over screen loads it).
- `POST /rooms/{id}/analysis` asks for the analysis; `GET /rooms/{id}/analysis` its progress.
- `GET /rooms/{id}/record.json`, `/record.txt` the game record (docs/notation.md).
- `POST /rooms/{id}/fork` "play from here": a new room starting at position `at`.
- `GET /import`, `POST /import` open a record in a read-only room; `GET /r/{token}` its link.

Every room route needs the room's cookie, as the table does: finished games are open to everyone
holding a link of the room, ongoing ones up to the current position. The analysis runs in
`app.analysis_jobs.AnalysisRunner`, started with this router.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import parse_qsl

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app import analyses, records, services
from app.analysis_jobs import AnalysisRunner
from app.deps import COOKIE_MAX_AGE, BaseUrlDep, CookieViewerDep, SessionDep, cookie_name
from app.i18n import language, language_of
from app.present import words_for
from app.review import graph_for, positions_of, review_context, turning_point
from app.roomview import RoomView, Viewer
from app.views import templates_for
from engine.analysis import turning_points
from engine.notation import record_text
from engine.record import GameRecord, RecordError, read_record, record_json

IMPORT_FIELD = "record="


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    runner = AnalysisRunner(app.state.sessionmaker, asyncio.get_running_loop())
    app.state.analysis = runner
    await runner.resume()
    try:
        yield
    finally:
        await runner.close()


router = APIRouter(include_in_schema=False, lifespan=lifespan)


def _error(request: Request, status: int, title: str, message: str) -> HTMLResponse:
    return templates_for(language_of(request)).TemplateResponse(
        request, "error.html", {"title": title, "message": message}, status_code=status
    )


def _no_link(request: Request) -> HTMLResponse:
    t = language(language_of(request))
    return _error(
        request,
        403,
        t.gettext("This room needs a link"),
        t.gettext("Open the invite, seat or spectator link you were given for this room."),
    )


def _view(request: Request, session: Session, viewer: Viewer, base: str) -> RoomView:
    timeout = request.app.state.settings.presence_timeout
    return services.load_room_view(session, viewer=viewer, base_url=base, presence_timeout=timeout)


def _at(value: str | None, last: int) -> int | None:
    """The position asked for: none means the last; anything but 0..last is refused (None)."""
    if value is None or value == "":
        return last
    if not value.isdigit() or len(value) > 6 or int(value) > last:
        return None
    return int(value)


def _review(
    request: Request, session: Session, viewer: Viewer | None, base: str, template: str
) -> HTMLResponse:
    if viewer is None:
        return _no_link(request)
    lang = language_of(request)
    t = language(lang)
    view = _view(request, session, viewer, base)
    at = _at(request.query_params.get("at"), view.version)
    if at is None:
        return _error(
            request,
            422,
            t.gettext("No such position"),
            t.gettext("Choose a position from 0 to %(last)s.", last=view.version),
        )
    origin = records.room_origin(session, room_id=view.room_id)
    analysis = analyses.analysis_of(session, room_id=view.room_id)
    context = review_context(view, at, lang=lang, origin=origin, analysis=analysis)
    return templates_for(lang).TemplateResponse(request, template, context)


@router.get("/rooms/{room_id}/review", response_class=HTMLResponse)
def review_page(
    request: Request, room_id: str, session: SessionDep, viewer: CookieViewerDep, base: BaseUrlDep
) -> HTMLResponse:
    """The review: a position slider, the move list, the board at that position, the graph."""
    return _review(request, session, viewer, base, "review.html")


@router.get("/rooms/{room_id}/review/position", response_class=HTMLResponse)
def review_position(
    request: Request, room_id: str, session: SessionDep, viewer: CookieViewerDep, base: BaseUrlDep
) -> HTMLResponse:
    return _review(request, session, viewer, base, "review_body.html")


@router.get("/rooms/{room_id}/graph", response_class=HTMLResponse)
def graph(
    request: Request, room_id: str, session: SessionDep, viewer: CookieViewerDep, base: BaseUrlDep
) -> HTMLResponse:
    if viewer is None:
        return _no_link(request)
    view = _view(request, session, viewer, base)
    analysis = analyses.analysis_of(session, room_id=room_id)
    context = {"graph": graph_for(view, analysis), "room_id": room_id}
    return templates_for(language_of(request)).TemplateResponse(
        request, "score_graph.html", context
    )


def _analysis_response(
    request: Request, session: Session, view: RoomView, analysis: analyses.AnalysisState | None
) -> HTMLResponse:
    lang = language_of(request)
    at = _at(request.query_params.get("at"), view.version)
    positions = positions_of(view)
    points = []
    context: dict[str, Any] = {
        "room_id": view.room_id,
        "at": view.version if at is None else at,
        "analysis": analysis,
        "origin": records.room_origin(session, room_id=view.room_id),
        "room_finished": view.state.finished,
        "warehouse": view.state.catalog.warehouse,
    }
    if analysis is not None and analysis.status == "done":
        words = words_for(lang)
        points = [turning_point(r, positions, words) for r in turning_points(analysis.reviews)]
        context["graph"] = graph_for(view, analysis, context["at"])
        context["graph_oob"] = True
    context["turning_points"] = points
    return templates_for(lang).TemplateResponse(request, "review_analysis.html", context)


@router.post("/rooms/{room_id}/analysis", response_class=HTMLResponse)
def ask_analysis(
    request: Request, room_id: str, session: SessionDep, viewer: CookieViewerDep, base: BaseUrlDep
) -> HTMLResponse:
    """Start the game's analysis (once per game), answered with its progress."""
    if viewer is None:
        return _no_link(request)
    t = language(language_of(request))
    try:
        state = analyses.request_analysis(session, room_id=room_id)
    except analyses.NotAnalysable:
        return _error(
            request,
            409,
            t.gettext("Not yet"),
            t.gettext("The game can be analysed once it is over."),
        )
    if state.status == "running":
        request.app.state.analysis.request(room_id)
    view = _view(request, session, viewer, base)
    return _analysis_response(request, session, view, state)


@router.get("/rooms/{room_id}/analysis", response_class=HTMLResponse)
def analysis_progress(
    request: Request, room_id: str, session: SessionDep, viewer: CookieViewerDep, base: BaseUrlDep
) -> HTMLResponse:
    """The analysis as far as it has gone; one that stopped moving is taken up again here."""
    if viewer is None:
        return _no_link(request)
    state = analyses.analysis_of(session, room_id=room_id)
    if state is not None and state.stale:
        request.app.state.analysis.request(room_id)
    view = _view(request, session, viewer, base)
    return _analysis_response(request, session, view, state)


@router.get("/rooms/{room_id}/record.{kind}")
def export_record(
    request: Request, room_id: str, kind: str, session: SessionDep, viewer: CookieViewerDep
) -> Response:
    """The game record as a download: JSON or the text notation."""
    if viewer is None:
        return _no_link(request)
    if kind not in ("json", "txt"):
        return PlainTextResponse("Choose record.json or record.txt.", status_code=404)
    record = records.room_record(session, room_id=room_id)
    body = record_json(record) if kind == "json" else record_text(record)
    media = "application/json" if kind == "json" else "text/plain; charset=utf-8"
    disposition = f'attachment; filename="inland-port-{room_id}.{kind}"'
    return Response(body, media_type=media, headers={"Content-Disposition": disposition})


@router.post("/rooms/{room_id}/fork")
async def fork(
    request: Request,
    room_id: str,
    session: SessionDep,
    viewer: CookieViewerDep,
    base: BaseUrlDep,
) -> Response:
    """Play from position `at`: a new room against the computer or a friend."""
    if viewer is None:
        return _no_link(request)
    body = (await request.body()).decode("utf-8", "replace")
    form = dict(parse_qsl(body, keep_blank_values=True))
    return await _fork(request, session, viewer, base, form)


async def _fork(
    request: Request, session: Session, viewer: Viewer, base: str, form: dict[str, str]
) -> Response:
    t = language(language_of(request))
    record = await run_in_threadpool(records.room_record, session=session, room_id=viewer.room_id)
    at = _at(form.get("at"), len(record.moves))
    seat = {"0": 0, "1": 1}.get(form.get("seat", ""))
    computer = form.get("computer", "")
    if at is None or seat is None or computer not in ("", "easy", "normal", "strong"):
        return _error(
            request,
            422,
            t.gettext("Cannot play from here"),
            t.gettext("Choose a position of the game, your seat and your opponent."),
        )
    start = record.prefix(at)
    try:
        created = await run_in_threadpool(
            records.fork_room,
            session,
            record=start,
            origin_room_id=viewer.room_id,
            host_seat=seat,
            computer=computer or None,
            base_url=base,
            publisher=request.app.state.hub,
        )
    except ValueError:
        return _error(
            request,
            409,
            t.gettext("Cannot play from here"),
            t.gettext("The game is over at that position: there is nothing left to play."),
        )
    return RedirectResponse(f"/s/{created.token}", status_code=303)


@router.get("/import", response_class=HTMLResponse)
def import_page(request: Request) -> HTMLResponse:
    return templates_for(language_of(request)).TemplateResponse(
        request, "import.html", {"error": None, "detail": None, "text": ""}
    )


def _record_reason(t: Any, err: RecordError) -> str:
    """The reason a record was refused, in the viewer's language, with its line."""
    reasons = {
        "too_large": t.gettext("The record is too large."),
        "syntax": t.gettext("This line is neither JSON nor the record notation."),
        "shape": t.gettext("A part of the record is missing or has the wrong form."),
        "catalog": t.gettext("The record was played with other numbers (another catalog)."),
        "malformed_move": t.gettext("A move on this line cannot be read."),
        "illegal_move": t.gettext("A move on this line is not legal at that point of the game."),
        "result": t.gettext("The result does not match the moves."),
    }
    reason: str = reasons[err.code]
    if err.line:
        return str(t.gettext("Line %(line)s: %(reason)s", line=err.line, reason=reason))
    return reason


@router.post("/import", response_class=HTMLResponse)
async def import_record(request: Request, session: SessionDep) -> Response:
    """Open a pasted or uploaded record (a text/plain form) in a read-only review room."""
    t = language(language_of(request))
    raw = (await request.body()).decode("utf-8", "replace")
    text = raw[len(IMPORT_FIELD) :] if raw.startswith(IMPORT_FIELD) else raw
    text = text.rstrip("\r\n")
    try:
        record: GameRecord = await run_in_threadpool(read_record, text)
    except RecordError as err:
        context = {"error": _record_reason(t, err), "detail": str(err), "text": text}
        return templates_for(language_of(request)).TemplateResponse(
            request, "import.html", context, status_code=422
        )
    imported = await run_in_threadpool(records.import_record, session, record=record)
    return RedirectResponse(f"/r/{imported.token}", status_code=303)


@router.get("/r/{token}")
def open_review_link(token: str, request: Request, session: SessionDep) -> Response:
    """A review link: remember the room's token and open its review."""
    viewer = services.resolve_token(session, token=token)
    if viewer is None or viewer.kind == "invite":
        t = language(language_of(request))
        return _error(request, 404, t.gettext("No such room"), t.gettext("This link is not valid."))
    response = RedirectResponse(f"/rooms/{viewer.room_id}/review", status_code=303)
    response.set_cookie(
        cookie_name(viewer.room_id),
        token,
        max_age=COOKIE_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response
