"""Looking back: the review page, the score graph, the analysis, export, import and forks.

- `GET /rooms/{id}/review?at=N` the review page at position N, after the first N moves in force
  (default: the last);
  `GET /rooms/{id}/review/position?at=N` the part that changes with the position.
- `GET /rooms/{id}/graph` the score graph (the game-over screen loads it).
- `POST /rooms/{id}/analysis` asks for the analysis; `GET /rooms/{id}/analysis` its progress.
- `GET /rooms/{id}/record.json`, `/record.txt` the game record (docs/notation.md; a game without
  a text notation, Le Havre, has only the JSON one).
- `POST /rooms/{id}/fork` "play from here": a new room starting at position `at`.
- `GET /import`, `POST /import` open a record in a read-only room; `GET /r/{token}` its link.

Every room route needs the room's cookie, as the table does (`app.deps.TableViewDep`): finished
games are open to everyone holding a link of the room, ongoing ones up to the current position.
Each game's pages and record are its own (`app.ui.games.review`, `engine.games`); a record whose
setup holds what the table does not show yet (Le Havre's shuffled tiles and buildings) is given
out only once the game is over.
The analysis runs in `app.computer.analysis.AnalysisRunner`, started with this router.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.computer.analysis import AnalysisRunner
from app.deps import (
    BaseUrlDep,
    FormDep,
    HubDep,
    LangDep,
    PageError,
    SessionDep,
    TableViewDep,
    TableViewerDep,
    TranslatorDep,
)
from app.edge.limits import TokenBucket, client_address
from app.i18n import Language
from app.reads import analyses, catalogs, gamelog
from app.reads.roomview import RoomView
from app.refusals.answers import record_refusal, sentence
from app.routes.links import remember, seated
from app.services import records, seats
from app.services.analyses import request_analysis
from app.services.errors import AnalysesBusy, NotAnalysable, TooManyAnalyses
from app.ui.fields import whole_number
from app.ui.games import review
from app.ui.templates import templates_for
from engine.games import game, record_game
from engine.record import RecordError

IMPORT_FIELD = "record="


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    runner = AnalysisRunner(app.state.sessionmaker, asyncio.get_running_loop())
    app.state.analysis = runner
    settings = app.state.settings
    app.state.analysis_limit = (
        TokenBucket(per_minute=settings.analyses_per_hour / 60, burst=settings.analysis_burst)
        if settings.analyses_per_hour > 0
        else None
    )
    await runner.resume()
    try:
        yield
    finally:
        await runner.close()


router = APIRouter(include_in_schema=False, lifespan=lifespan)


def _runner(request: Request) -> AnalysisRunner:
    runner: AnalysisRunner = request.app.state.analysis
    return runner


def _admit(request: Request) -> Callable[[], float] | None:
    """The asking address's limit of new analyses (`Settings.analyses_per_hour`)."""
    limit: TokenBucket | None = request.app.state.analysis_limit
    if limit is None:
        return None
    return lambda: limit.take(client_address(request.scope))


def _at(value: str | None, last: int) -> int | None:
    """The position asked for: none means the last; anything but 0..last is refused (None)."""
    if value is None or value == "":
        return last
    at = whole_number(value, max_digits=6)
    return at if at is not None and at <= last else None


def _review(
    request: Request, session: Session, view: RoomView, lang: str, t: Language, template: str
) -> HTMLResponse:
    last = len(view.moves_in_force())
    at = _at(request.query_params.get("at"), last)
    if at is None:
        raise PageError(
            422,
            t.gettext("Choose a position from 0 to %(last)s.", last=last),
            t.gettext("No such position"),
        )
    origin = gamelog.room_origin(session, room_id=view.room_id)
    analysis = analyses.analysis_of(session, room_id=view.room_id)
    shown = review(view)
    context = shown.context(view, at, lang=lang, origin=origin, analysis=analysis)
    context.setdefault("record_open", _record_open(session, view.room_id, view.facts.game))
    page = shown.page if template == "page" else shown.body
    return templates_for(lang).TemplateResponse(request, page, context)


def _record_open(session: Session, room_id: str, game_id: str) -> bool:
    """Whether the room's record may be given out now: always for a game that hides nothing in
    its setup, else once the game is over (or for an imported record)."""
    return game(game_id).record_while_playing or gamelog.can_play_on(session, room_id=room_id)


@router.get("/rooms/{room_id}/review", response_class=HTMLResponse)
def review_page(
    request: Request, session: SessionDep, view: TableViewDep, lang: LangDep, t: TranslatorDep
) -> HTMLResponse:
    """The review: a position slider, the move list, the board at that position, the graph."""
    return _review(request, session, view, lang, t, "page")


@router.get("/rooms/{room_id}/review/position", response_class=HTMLResponse)
def review_position(
    request: Request, session: SessionDep, view: TableViewDep, lang: LangDep, t: TranslatorDep
) -> HTMLResponse:
    return _review(request, session, view, lang, t, "body")


@router.get("/rooms/{room_id}/graph", response_class=HTMLResponse)
def graph(
    request: Request, room_id: str, session: SessionDep, view: TableViewDep, lang: LangDep
) -> HTMLResponse:
    analysis = analyses.analysis_of(session, room_id=room_id)
    context = {"graph": review(view).graph(view, analysis, lang), "room_id": room_id}
    return templates_for(lang).TemplateResponse(request, "score_graph.html", context)


def _analysis_response(
    request: Request,
    session: Session,
    view: RoomView,
    analysis: analyses.AnalysisState | None,
    lang: str,
) -> HTMLResponse:
    last = len(view.moves_in_force())
    at = _at(request.query_params.get("at"), last)
    origin = gamelog.room_origin(session, room_id=view.room_id)
    shown = review(view)
    context = shown.analysis(
        view, last if at is None else at, lang=lang, origin=origin, analysis=analysis
    )
    return templates_for(lang).TemplateResponse(request, shown.analysis_part, context)


@router.post("/rooms/{room_id}/analysis", response_class=HTMLResponse)
def ask_analysis(
    request: Request,
    room_id: str,
    session: SessionDep,
    view: TableViewDep,
    lang: LangDep,
    t: TranslatorDep,
) -> Response:
    """Start the game's analysis (once per game), answered with its progress; a form posted
    without htmx is sent back to the review page, which shows the same progress."""
    try:
        state = request_analysis(session, room_id=room_id, admit=_admit(request))
    except NotAnalysable:
        raise PageError(409, sentence("not_analysable", {}, lang), t.gettext("Not yet")) from None
    except AnalysesBusy:
        raise PageError(503, sentence("analyses_busy", {}, lang), t.gettext("Not now")) from None
    except TooManyAnalyses as refused:
        words = sentence(refused.code, refused.params, lang)
        raise PageError(429, words, t.gettext("Not now")) from None
    if state.status == "running":
        _runner(request).request(room_id)
    if "hx-request" not in request.headers:  # the form posted before the page's scripts ran
        at = whole_number(request.query_params.get("at", ""), max_digits=6)
        query = "" if at is None else f"?at={at}"
        return RedirectResponse(f"/rooms/{room_id}/review{query}", status_code=303)
    return _analysis_response(request, session, view, state, lang)


@router.get("/rooms/{room_id}/analysis", response_class=HTMLResponse)
def analysis_progress(
    request: Request, room_id: str, session: SessionDep, view: TableViewDep, lang: LangDep
) -> HTMLResponse:
    """The analysis as far as it has gone; one that stopped moving is taken up again here."""
    state = analyses.analysis_of(session, room_id=room_id)
    if state is not None and state.stale:
        _runner(request).request(room_id)
    return _analysis_response(request, session, view, state, lang)


@router.get("/rooms/{room_id}/record.{kind}")
def export_record(
    room_id: str, kind: str, session: SessionDep, viewer: TableViewerDep, t: TranslatorDep
) -> Response:
    """The game record as a download: JSON or, for a game that has one, the text notation."""
    rules = game(gamelog.room_game(session, room_id=room_id))
    if kind not in rules.record_kinds:
        shown = " or ".join(f"record.{k}" for k in rules.record_kinds)
        return PlainTextResponse(f"Choose {shown}.", status_code=404)
    if not _record_open(session, room_id, rules.id):
        raise PageError(
            409,
            t.gettext("The record of this game is given out once the game is over."),
            t.gettext("Not yet"),
        )
    record = gamelog.room_record(session, room_id=room_id)
    body = rules.write_record(record, kind, catalogs.of_game_record(record))
    media = "application/json" if kind == "json" else "text/plain; charset=utf-8"
    name = rules.id.replace("_", "-")
    disposition = f'attachment; filename="{name}-{room_id}.{kind}"'
    return Response(body, media_type=media, headers={"Content-Disposition": disposition})


@router.post("/rooms/{room_id}/fork")
def fork(
    session: SessionDep,
    viewer: TableViewerDep,
    form: FormDep,
    base: BaseUrlDep,
    hub: HubDep,
    t: TranslatorDep,
) -> Response:
    """Play from position `at`: a new room with the same seats, the others the computer's or
    friends'; only once the game is over (else the computer's answer to a live position would be
    anyone's for the asking, and another game's setup would show what is still hidden)."""
    if not gamelog.can_play_on(session, room_id=viewer.room_id):
        raise PageError(
            409,
            t.gettext("A game is played on from a position once it is over."),
            t.gettext("Cannot play from here"),
        )
    rules = game(gamelog.room_game(session, room_id=viewer.room_id))
    record = gamelog.room_record(session, room_id=viewer.room_id)
    at = _at(form.get("at"), len(record.moves))
    seat = whole_number(form.get("seat", ""), max_digits=1)
    computer = form.get("computer", "")
    title = t.gettext("Cannot play from here")
    if (
        at is None
        or seat is None
        or seat >= len(record.seats)
        or computer not in ("", *rules.strengths)
    ):
        raise PageError(
            422, t.gettext("Choose a position of the game, your seat and your opponent."), title
        )
    try:
        created = records.fork_room(
            session,
            record=record.prefix(at),
            origin_room_id=viewer.room_id,
            host_seat=seat,
            computer=computer or None,
            base_url=base,
            publisher=hub,
            game=rules.id,
        )
    except ValueError:
        raise PageError(
            409,
            t.gettext("The game is over at that position: there is nothing left to play."),
            title,
        ) from None
    return RedirectResponse(f"/s/{created.token}", status_code=303)


@router.get("/import", response_class=HTMLResponse)
def import_page(request: Request, lang: LangDep) -> HTMLResponse:
    return templates_for(lang).TemplateResponse(
        request, "import.html", {"error": None, "detail": None, "text": ""}
    )


@router.post("/import", response_class=HTMLResponse)
async def import_record(request: Request, session: SessionDep, lang: LangDep) -> Response:
    """Open a pasted or uploaded record (a text/plain form) in a read-only review room."""
    raw = (await request.body()).decode("utf-8", "replace")
    text = raw[len(IMPORT_FIELD) :] if raw.startswith(IMPORT_FIELD) else raw
    text = text.rstrip("\r\n")
    rules = record_game(text)
    try:
        record = await run_in_threadpool(rules.read_record, text, catalogs.find)
    except RecordError as err:
        error = record_refusal(err, lang)
        context = {"error": error, "detail": str(err), "text": text}
        return templates_for(lang).TemplateResponse(
            request, "import.html", context, status_code=422
        )
    imported = await run_in_threadpool(records.import_record, session, record=record, game=rules.id)
    return RedirectResponse(f"/r/{imported.token}", status_code=303)


@router.get("/r/{token}")
def open_review_link(
    token: str, request: Request, session: SessionDep, t: TranslatorDep
) -> Response:
    """A review link: remember the room's token and open its review."""
    viewer = seats.resolve_token(session, token=token)
    if viewer is None or viewer.kind == "invite":
        raise PageError(404, t.gettext("This link is not valid."), t.gettext("No such room"))
    if viewer.kind != "seat" and seated(request, session, viewer.room_id):
        return RedirectResponse(f"/rooms/{viewer.room_id}/review", status_code=303)
    return remember(request, viewer.room_id, token, "/review")
