"""Le Havre's review page: any position of a room's game, its moves in words, its score graph.

The positions are the engine's replay of the room's setup and log (`engine.lehavre`); the board at
a position is drawn exactly as in play (`app.ui.lehavre.board`), for a viewer who only watches, so
the review shows no more than the table showed then. The move list says what each move did to its
mover's holdings, in the words of the move panel (`app.ui.lehavre.panel.consequence`). The score
graph has one line per seat: each player's fortune (`engine.lehavre.scores`) at every position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from app.i18n import language
from app.reads.analyses import AnalysisState
from app.reads.gamelog import RoomOrigin
from app.reads.roomview import RoomView
from app.ui.lehavre.board import draw_board, position_of, strength_names
from app.ui.lehavre.panel import consequence
from app.ui.lehavre.table import seat_name
from app.ui.lehavre.words import LeHavreWords, words_for
from app.ui.review import MoveItem, board_at
from app.ui.scoregraph import ScoreGraph, graph_of
from app.ui.templates import script_json
from engine.analysis import TurnReview, turning_points
from engine.games import game, summary_json
from engine.lehavre import Move, State, apply, new_game, parse_move, scores

POINTS_PER_SEAT = 2
"""The costliest turns shown for each seat."""


@dataclass(frozen=True)
class TurningPoint:
    """One of a seat's costliest turns: what was played, what the strong player would have done."""

    position: int
    seat: int
    loss: float
    played: tuple[str, ...]
    better: tuple[str, ...]


def positions_of(view: RoomView) -> list[State]:
    """The start and the position after each move of the room's log."""
    state = new_game(position_of(view).setup)
    states = [state]
    for entry in view.moves_in_force():
        state = apply(state, parse_move(entry.move))
        states.append(state)
    return states


def move_text(before: State, move: Move, lang: str) -> str:
    """What `move` did, said as the move panel offers it: 'Take 3 wood', 'Enter Fishery: get 3
    fish', 'Buy Wharf: pay 14 francs · gain Wharf', 'End the turn'."""
    t, w = language(lang), words_for(lang)
    if move.type == "take":
        cat = before.catalog
        offer = move.offer or ""
        amount = before.offers[cat.offer_spaces.index(cat.index[offer])]
        return t.gettext("Take %(goods)s", goods=w.amount(offer, amount))
    if move.type == "end":
        return t.gettext("End the turn")
    heads = {
        "enter": lambda: t.gettext("Enter %(building)s", building=_named(before, move, w)),
        "buy": lambda: t.gettext("Buy %(what)s", what=_named(before, move, w)),
        "sell": lambda: t.gettext("Sell %(what)s", what=_named(before, move, w)),
        "repay": lambda: t.gettext("Repay a loan"),
        "feed": lambda: t.gettext("Feed your workers"),
    }
    return f"{heads[move.type]()}: {consequence(before, move, t, w)}"


def _named(before: State, move: Move, w: LeHavreWords) -> str:
    if move.building:
        return w.building_name(move.building)
    return w.ship_type_name(before.catalog.ships[move.ship or ""].type)


def move_items(view: RoomView, positions: list[State], lang: str) -> list[MoveItem]:
    """Every move of the game in the viewer's language, with the round it was played in."""
    return [
        MoveItem(
            position=i + 1,
            seat=entry.seat,
            text=move_text(positions[i], parse_move(entry.move), lang),
            round_letter=str(positions[i].round),
            is_action=entry.move.get("type") in ("take", "enter"),
        )
        for i, entry in enumerate(view.moves_in_force())
    ]


def names_of(view: RoomView, lang: str) -> tuple[str, ...]:
    """The seats' names as the table says them ("Player 1", ...)."""
    t = language(lang)
    return tuple(seat_name(t, seat, None) for seat in range(view.facts.players))


def score_graph(
    view: RoomView, positions: list[State], lang: str, at: int | None = None
) -> ScoreGraph:
    """Each seat's fortune at every position, the start of each round marked by its number."""
    rounds = [
        (i, str(state.round))
        for i, state in enumerate(positions)
        if (i == 0 or state.round != positions[i - 1].round) and state.phase != "over"
    ]
    return graph_of(
        [scores(state) for state in positions],
        rounds,
        at=at,
        seat_class="lh-seat-",
        names=names_of(view, lang),
    )


def graph_for(view: RoomView, analysis: AnalysisState | None = None, *, lang: str) -> ScoreGraph:
    """The score graph of the room's game (templates/score_graph.html)."""
    return score_graph(view, positions_of(view), lang)


def _plan_text(before: State, moves: tuple[str, ...], lang: str) -> tuple[str, ...]:
    lines, state = [], before
    for text in moves:
        move = parse_move(text)
        lines.append(move_text(state, move, lang))
        state = apply(state, move)
    return tuple(lines)


def turning_points_by_seat(
    reviews: tuple[TurnReview, ...], positions: list[State], seats: int, lang: str
) -> list[tuple[int, list[TurningPoint]]]:
    """Each seat's costliest turns, biggest first (`engine.analysis.turning_points`)."""
    return [
        (
            seat,
            [
                TurningPoint(
                    position=r.start,
                    seat=seat,
                    loss=r.loss,
                    played=_plan_text(positions[r.start], r.played, lang),
                    better=_plan_text(positions[r.start], r.best, lang),
                )
                for r in turning_points([r for r in reviews if r.seat == seat], POINTS_PER_SEAT)
            ],
        )
        for seat in range(seats)
    ]


def _analysis_part(
    view: RoomView,
    positions: list[State],
    at: int,
    lang: str,
    origin: RoomOrigin,
    analysis: AnalysisState | None,
) -> dict[str, Any]:
    """What templates/lehavre/review_analysis.html needs, on the review page or on its own."""
    done = analysis is not None and analysis.status == "done"
    reviews = analysis.reviews if analysis is not None and done else ()
    return {
        "room_id": view.room_id,
        "at": at,
        "analysis": analysis,
        "origin": origin,
        "room_finished": position_of(view).phase == "over" or view.facts.ending is not None,
        "names": names_of(view, lang),
        "points_by_seat": turning_points_by_seat(reviews, positions, view.facts.players, lang),
    }


def analysis_context(
    view: RoomView, at: int, *, lang: str, origin: RoomOrigin, analysis: AnalysisState | None
) -> dict[str, Any]:
    """The analysis part of the review alone: its progress, or once done each seat's turning
    points."""
    return _analysis_part(view, positions_of(view), at, lang, origin, analysis)


def review_context(
    view: RoomView, at: int, *, lang: str, origin: RoomOrigin, analysis: AnalysisState | None
) -> dict[str, Any]:
    """templates/lehavre/review.html's context at position `at` (0 ≤ at ≤ the moves played)."""
    positions = positions_of(view)
    state = positions[at]
    live = position_of(view)
    ended = live.phase == "over" or view.facts.ending is not None
    past = board_at(view, state, at)
    analysed = _analysis_part(view, positions, at, lang, origin, analysis)
    return analysed | {
        "view": past,
        "room_id": view.room_id,
        "board": Markup(draw_board(past, lang=lang).whole()),
        "state": state,
        "round_number": state.round,
        "at": at,
        "last": len(positions) - 1,
        "summary": script_json(summary_json(game("lehavre"), state)),
        "moves": move_items(view, positions, lang),
        "graph": score_graph(view, positions, lang, at),
        "names": names_of(view, lang),
        "to_move": None if state.phase == "over" else state.current,
        "strengths": strength_names(language(lang)),
        "record_kinds": game("lehavre").record_kinds,
        # A live game is never played on from: only once it is over, or an imported record.
        "can_fork": state.phase != "over" and (ended or view.review_link is not None),
        "live_seat": view.viewer_seat,
        "review_link": view.review_link,
    }
