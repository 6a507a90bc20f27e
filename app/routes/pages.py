"""The browser pages: home, the rules, the room's table, the rematch, and the language switcher.

The table page draws the board the sockets keep fresh (`app.ui.board.render_board`); the action
panel and the moves posted from it are `app.routes.panel`.

Every page speaks the viewer's language (`app.i18n.language_of`: the ``lang`` cookie, else the
browser's Accept-Language); ``POST /language`` sets the cookie and goes back to the page. The
routes are plain functions, run in worker threads: the preamble (language, form fields, the
viewer, the room's view) comes from `app.deps`; a refusal's status and sentence from
`app.refusals.answers`, the same status the JSON API answers.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from app.deps import (
    BaseUrlDep,
    FormDep,
    HubDep,
    LangDep,
    PageActDep,
    PageError,
    SessionDep,
    TableViewDep,
    TranslatorDep,
)
from app.edge.cookies import set_cookie
from app.i18n import COOKIE, COOKIE_MAX_AGE, LANGUAGES, language, language_of
from app.reads import catalogs
from app.reads.chatview import ChatView, load_chat
from app.reads.roomview import RematchInfo
from app.reads.yourgames import room_tokens, your_games
from app.refusals.answers import sentence, status
from app.routes.panel import act_in_panel
from app.services import rematch, rooms
from app.services.errors import ServiceError, UnknownCatalog
from app.ui.chat import chat_context
from app.ui.fields import whole_number
from app.ui.games import presentation
from app.ui.templates import templates_for
from app.ui.warehouse import start_counters
from app.ui.wheel import WEDGES
from app.ui.words import GOODS, words_for
from app.ui.yourgames import game_rows

router = APIRouter(include_in_schema=False)

ICON = Path(__file__).resolve().parents[2] / "static" / "img" / "icon.svg"

HOST_SEATS: dict[str, int | str] = {"0": 0, "1": 1, "random": "random"}
OPPONENTS: dict[str, str | None] = {
    "": None,
    "easy": "easy",
    "normal": "normal",
    "strong": "strong",
}
"""The home form's opponent: a friend (empty) or the computer at one of its strengths."""


def page_error(request: Request, error: Exception) -> HTMLResponse:
    """The app's answer to a `PageError`: the error page, or only its message for a fragment."""
    assert isinstance(error, PageError)
    if error.title is None:
        return HTMLResponse(error.message, status_code=error.status_code)
    return _page_error(request, error.status_code, error.title, error.message)


def refused_page(request: Request, error: ServiceError) -> HTMLResponse:
    """A page request refused outside its route's own answer (say, a room removed while its page
    was drawn): the error page with the refusal's sentence in the viewer's language."""
    lang = language_of(request)
    t = language(lang)
    title = t.gettext("No such room") if error.code == "room_not_found" else None
    message = sentence(error.code, error.params, lang)
    return _page_error(
        request, status(error.code), title or t.gettext("That did not work"), message
    )


def _page_error(request: Request, status: int, title: str, message: str) -> HTMLResponse:
    return templates_for(language_of(request)).TemplateResponse(
        request, "error.html", {"title": title, "message": message}, status_code=status
    )


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    """The site's icon for browsers that ask for it by its old name (a 404 in every console)."""
    return FileResponse(ICON, media_type="image/svg+xml")


def _local_path(target: str) -> str:
    """Where the switcher may send the browser back to: a path on this site, else home."""
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    if not target.isprintable():  # no line breaks, NUL or other controls in a Location header
        return "/"
    return target


@router.get("/", response_class=HTMLResponse)
def home(request: Request, session: SessionDep, lang: LangDep) -> HTMLResponse:
    """The start form, and the games this browser holds a seat in (their way back)."""
    games = your_games(session, tokens=room_tokens(request.cookies))
    context = {"error": None, "your_games": game_rows(games, lang)}
    return templates_for(lang).TemplateResponse(request, "home.html", context)


@router.post("/language")
def choose_language(request: Request, form: FormDep, t: TranslatorDep) -> Response:
    """The language switcher: remember the choice in a cookie and go back to the page."""
    choice = form.get("lang", "")
    if choice not in LANGUAGES:
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
def rules(request: Request, lang: LangDep) -> HTMLResponse:
    """The rules in short, in the viewer's language, drawn with the table's own pictures and the
    numbers of new rooms (the default catalog)."""
    words = words_for(lang)
    catalog = catalogs.registry().default()
    goods = start_counters(words, catalog)
    by_amount = sorted(goods, key=lambda counter: -counter.amount)
    context = {
        "wedges": WEDGES,
        "hints": [words.sector_hint(catalog, age) for age in range(len(WEDGES))],
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
def create_room(
    request: Request,
    form: FormDep,
    session: SessionDep,
    base: BaseUrlDep,
    hub: HubDep,
    lang: LangDep,
    t: TranslatorDep,
) -> Response:
    """Open a room with the host in the chosen seat, then sit the host down by their seat link.

    The opponent is a friend (invited by link) or the computer at the chosen strength; the
    room is played with the chosen catalog (by default the one for new rooms).
    """
    host_seat = HOST_SEATS.get(form.get("host_seat", ""))
    opponent = form.get("computer", "")
    error = None
    if host_seat is None:
        error = t.gettext("Choose who moves first: you, your friend, or a coin toss.")
    elif opponent not in OPPONENTS:
        error = t.gettext(
            "Choose your opponent: a friend, or the computer at one of its strengths."
        )
    if error is not None:
        return templates_for(lang).TemplateResponse(
            request, "home.html", {"error": error}, status_code=422
        )
    try:
        created = rooms.create_room(
            session,
            host_seat=host_seat,  # type: ignore[arg-type]
            base_url=base,
            computer=OPPONENTS[opponent],
            catalog_id=form.get("catalog") or None,
            publisher=hub,
        )
    except UnknownCatalog as refused:
        context = {"error": sentence(refused.code, refused.params, lang)}
        return templates_for(lang).TemplateResponse(
            request, "home.html", context, status_code=status(refused.code)
        )
    return RedirectResponse(f"/s/{created.token}", status_code=303)


@router.post("/rooms/lehavre")
def create_lehavre_room(
    request: Request,
    form: FormDep,
    session: SessionDep,
    base: BaseUrlDep,
    hub: HubDep,
    lang: LangDep,
) -> Response:
    """Open a Le Havre room for 1 to 5 players (full or short game), then sit the host down."""
    players = whole_number(form.get("players", ""), max_digits=1)
    count = whole_number(form.get("computer_count", "0"), max_digits=1)
    strength = form.get("computer_strength", "heuristic")
    variant = form.get("variant", "")
    host_seat = HOST_SEATS.get(form.get("host_seat", ""))
    if (
        players is None
        or players not in range(1, 6)
        or count is None
        or count >= players
        or strength not in ("heuristic", "strong")
        or variant not in ("full", "short")
        or host_seat not in (0, "random")
    ):
        error = language(lang).gettext(
            "Choose the number of players, the game and who moves first."
        )
        context = {"error": None, "lehavre_error": error}
        return templates_for(lang).TemplateResponse(request, "home.html", context, status_code=422)
    created = rooms.create_game_room(
        session,
        game_id="lehavre",
        players=players,
        variant=variant,
        host_seat=host_seat,  # type: ignore[arg-type]
        base_url=base,
        computers=dict.fromkeys(_computer_seats(players, count, host_seat == 0), strength),
        publisher=hub,
    )
    return RedirectResponse(f"/s/{created.token}", status_code=303)


def _computer_seats(players: int, count: int, host_first: bool) -> list[int]:
    """`count` seats for the computer, at random among all but the host's first seat."""
    seats = range(1 if host_first else 0, players)
    return random.SystemRandom().sample(seats, count)


@router.get("/rooms/{room_id}", response_class=HTMLResponse)
def room_page(
    request: Request, view: TableViewDep, session: SessionDep, lang: LangDep
) -> HTMLResponse:
    """The table and the chat. The browser needs the room's cookie, which one of the room's
    links sets. `?kept=seat`: a spectator link was opened in this seated browser (the table
    says so)."""
    shown = presentation(view)
    context = shown.page_context(view, lang)
    context.update(
        chat_page_context(session, room_id=view.room_id, seat=view.viewer_seat, lang=lang)
    )
    context["kept_seat"] = request.query_params.get("kept") == "seat"
    return templates_for(lang).TemplateResponse(request, shown.page, context)


@router.post("/rooms/{room_id}/rematch", response_class=HTMLResponse)
def post_rematch(page: PageActDep) -> HTMLResponse:
    """Ask for the rematch (Inland Port's with the boards swapped); it opens once every player
    asked."""
    t = page.t

    def said(info: RematchInfo) -> list[str]:
        if info.room_id:
            return [t.gettext("The rematch is ready.")]
        if len(info.offered_by) > 2:
            return [t.gettext("You asked for a rematch. It starts when every player agrees.")]
        return [t.gettext("You asked for a rematch. It starts when your opponent agrees.")]

    return act_in_panel(
        page,
        title=t.gettext("Rematch"),
        act=lambda: rematch.offer_rematch(
            page.session, viewer=page.viewer, base_url=page.base_url, publisher=page.hub
        ),
        lines=said,
    )


def chat_page_context(
    session: Session, *, room_id: str, seat: int | None, lang: str
) -> dict[str, Any]:
    """The chat section's context for the room page of a viewer (`seat` None: a spectator)."""
    return chat_context(ChatView(load_chat(session, room_id=room_id), seat), lang)
