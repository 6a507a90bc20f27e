"""Each game's presentation behind one small interface: the board of one viewer (in parts, for the
sockets and pages) and the room page. The room, live and route code asks only this module; a third
game adds its package beside `app.ui.lehavre` and one entry here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from markupsafe import Markup

from app.i18n import DEFAULT_LANGUAGE, language
from app.live.frames import BoardSummary, DrawnBoard
from app.reads.analyses import AnalysisState
from app.reads.gamelog import RoomOrigin
from app.reads.roomview import LogEntry, RoomView
from app.ui import board as inland_port
from app.ui import review as inland_port_review
from app.ui.cache import Shared
from app.ui.lehavre import board as lehavre
from app.ui.lehavre import review as lehavre_review
from app.ui.log import describe_events
from app.ui.scoregraph import ScoreGraph
from app.ui.words import words_for


class BoardDrawer(Protocol):
    def __call__(
        self,
        view: RoomView,
        *,
        lang: str = DEFAULT_LANGUAGE,
        before: BoardSummary | None = None,
        shared: Shared | None = None,
    ) -> DrawnBoard: ...


MoveSaid = Callable[[LogEntry, Any, "int | None", str], tuple[list[str], "str | None"]]
"""What a played move did, told to its mover: (the move's log entry, the position after it, the
mover's seat, the language) -> (lines, a hint about what comes next)."""


def _inland_port_said(
    entry: LogEntry, state: Any, seat: int | None, lang: str
) -> tuple[list[str], str | None]:
    words = words_for(lang)
    lines = describe_events(words, entry.events, words.building_names(state.catalog))
    hint = None
    if state.to_move == seat and entry.move.get("type") == "sell":
        hint = words.lang.gettext("Your turn goes on: build or use a building.")
    return lines, hint


def _lehavre_said(
    entry: LogEntry, state: Any, seat: int | None, lang: str
) -> tuple[list[str], str | None]:
    """The table shows what changed; the mover still to act is told so."""
    going_on = state.phase != "over" and state.current == seat
    return [], language(lang).gettext("Your turn goes on.") if going_on else None


class ReviewContext(Protocol):
    def __call__(
        self,
        view: RoomView,
        at: int,
        *,
        lang: str,
        origin: RoomOrigin,
        analysis: AnalysisState | None,
    ) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Review:
    """A game's review page (app/routes/review.py): its template, the part of it that changes
    with the position, the context of both at a position, the score graph alone, and the
    analysis part alone (its template and context)."""

    page: str
    body: str
    context: ReviewContext
    graph: Callable[[RoomView, AnalysisState | None, str], ScoreGraph]
    analysis_part: str
    analysis: ReviewContext


@dataclass(frozen=True)
class Presentation:
    draw_board: BoardDrawer
    #: The room page's template and its context for a viewer in a language.
    page: str
    page_context: Callable[[RoomView, str], dict[str, Any]]
    move_said: MoveSaid
    review: Review


def _lehavre_page(view: RoomView, lang: str) -> dict[str, Any]:
    return {
        "view": view,
        "room_id": view.room_id,
        "board": Markup(lehavre.draw_board(view, lang=lang).whole()),
    }


PRESENTATIONS: dict[str, Presentation] = {
    "inland_port": Presentation(
        inland_port.draw_board,
        "room.html",
        lambda view, lang: inland_port.board_context(view, lang=lang),
        _inland_port_said,
        Review(
            "review.html",
            "review_body.html",
            inland_port_review.review_context,
            lambda view, analysis, lang: inland_port_review.graph_for(view, analysis),
            "review_analysis.html",
            inland_port_review.analysis_context,
        ),
    ),
    "lehavre": Presentation(
        lehavre.draw_board,
        "lehavre/room.html",
        _lehavre_page,
        _lehavre_said,
        Review(
            "lehavre/review.html",
            "lehavre/review_body.html",
            lehavre_review.review_context,
            lambda view, analysis, lang: lehavre_review.graph_for(view, analysis, lang=lang),
            "lehavre/review_analysis.html",
            lehavre_review.analysis_context,
        ),
    ),
}


def presentation(view: RoomView) -> Presentation:
    return PRESENTATIONS[view.facts.game]


def review(view: RoomView) -> Review:
    """The review page of the room's game."""
    return presentation(view).review


def move_said(
    game: str, entry: LogEntry, state: Any, seat: int | None, lang: str
) -> tuple[list[str], str | None]:
    """What a played move of `game` did, told to its mover (`Presentation.move_said`)."""
    return PRESENTATIONS[game].move_said(entry, state, seat, lang)


def draw_board(
    view: RoomView,
    *,
    lang: str = DEFAULT_LANGUAGE,
    before: BoardSummary | None = None,
    shared: Shared | None = None,
) -> DrawnBoard:
    """The board of one viewer of any game (`app.live.painters` draws every room with it)."""
    return presentation(view).draw_board(view, lang=lang, before=before, shared=shared)


def render_board(view: RoomView, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The whole board of one viewer of any game (a page, a refused act's answer)."""
    return draw_board(view, lang=lang).whole()
