"""What the review page shows: any position of a room's game, its moves, its graph, its analysis.

`review_context` turns a room as one viewer sees it (`app.reads.queries.load_room_view`) and a position
number (0 = the start, N = after the first N moves in force) into the template context of
templates/review.html. The review walks the moves in force, as the record and the analysis
number them (`app.reads.gamelog.canonical_log`): a move taken back is no step of it, the takeback is a
note in the move list. The board at that position is drawn exactly as in play
(`app.ui.board.board_context`), for a viewer who only watches. Positions are the engine's replay of
the room's log; an ongoing game shows the positions up to the current one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from app.reads.analyses import AnalysisState
from app.reads.gamelog import RoomOrigin
from app.reads.positions import TAKEBACK
from app.reads.roomview import LogEntry, RoomView
from app.ui.board import board_context
from app.ui.log import describe_event
from app.ui.panel import Preview, preview
from app.ui.scoregraph import ScoreGraph, score_graph
from app.ui.templates import script_json
from app.ui.words import Words, words_for
from engine import (
    GameState,
    apply,
    apply_with_events,
    new_game,
    parse_move,
    scores,
    summary_json,
)
from engine.analysis import TurnReview, turning_points


@dataclass(frozen=True)
class MoveItem:
    """One line of the move list: a move in force, with the position it leads to (1-based), or
    a takeback's note (`is_note`), with the position the game went back to."""

    position: int
    seat: int
    text: str
    round_letter: str
    is_action: bool
    is_note: bool = False


@dataclass(frozen=True)
class TurningPoint:
    """One of the costliest turns: what was played, what the computer would have done instead."""

    position: int
    seat: int
    loss: float
    played: tuple[str, ...]
    better: tuple[str, ...]
    preview: Preview


def positions_of(view: RoomView) -> list[GameState]:
    """The start and the position after each move in force (the engine's replay)."""
    state = new_game(view.state.catalog)
    states = [state]
    for entry in view.moves_in_force():
        state = apply(state, entry.move)
        states.append(state)
    return states


def log_version_at(view: RoomView, at: int) -> int:
    """How many rows of the log lead to position `at`: up to the `at`-th move in force, and the
    whole log at the last position."""
    played = view.moves_in_force()
    if at >= len(played):
        return len(view.log)
    return 0 if at == 0 else played[at - 1].seq + 1


def board_at(view: RoomView, state: Any, at: int) -> RoomView:
    """The room as someone who only watches sees it at position `at` (`state`, the game's own):
    no links, no rematch, no
    stand-in; the room's happenings up to there, and how the game ended early only at its last
    position."""
    rows = log_version_at(view, at)
    last = rows == len(view.log)
    past = view.with_facts(
        seats_claimed=tuple(True for _ in view.facts.seats_claimed),
        standin_seat=None,
        ending=view.facts.ending if last else None,
        events=tuple(
            e for e in view.facts.events if e.at_version < rows or (last and e.at_version == rows)
        ),
    )
    return dataclasses.replace(
        past,
        version=at,
        state=state,
        log=view.log[:rows],
        viewer_seat=None,
        invite_link=None,
        spectator_link=None,
        seat_link=None,
        review_link=None,
        rematch=None,
        seat_taken=False,
        all_events=True,
    )


def move_items(view: RoomView, positions: list[GameState], words: Words) -> list[MoveItem]:
    """The moves in force, each followed by the notes of the takebacks that went back to it."""
    names = words.building_names(view.state.catalog)
    played: list[LogEntry] = []
    notes: dict[int, list[LogEntry]] = {}
    for entry in view.log:
        if entry.move.get("type") == TAKEBACK:
            del played[len(played) - int(entry.move["count"]) :]
            notes.setdefault(len(played), []).append(entry)
        else:
            played.append(entry)

    def notes_at(at: int) -> list[MoveItem]:
        return [
            MoveItem(
                position=at,
                seat=note.seat,
                text=describe_event(words, note.events[0], names),
                round_letter=positions[at].round_letter,
                is_action=False,
                is_note=True,
            )
            for note in notes.get(at, [])
        ]

    items = notes_at(0)
    for i, entry in enumerate(played):
        items.append(
            MoveItem(
                position=i + 1,
                seat=entry.seat,
                text=describe_event(words, entry.events[0], names),
                round_letter=positions[i].round_letter,
                is_action=entry.move.get("type") != "sell",
            )
        )
        items.extend(notes_at(i + 1))
    return items


def _plan_text(state: GameState, moves: tuple[str, ...], words: Words) -> tuple[str, ...]:
    names = words.building_names(state.catalog)
    lines = []
    for move in moves:
        state, events = apply_with_events(state, move)
        lines.append(describe_event(words, events[0].to_json(), names))
    return tuple(lines)


def turning_point(review: TurnReview, positions: list[GameState], words: Words) -> TurningPoint:
    """A costly turn with the better plan previewed as the action panel previews a move."""
    before = positions[review.start]
    state = before
    for move in review.best[:-1]:
        state = apply(state, move)
    return TurningPoint(
        position=review.start,
        seat=review.seat,
        loss=review.loss,
        played=_plan_text(before, review.played, words),
        better=_plan_text(before, review.best, words),
        preview=preview(state, parse_move(review.best[-1]), review.seat, words),
    )


def margins_of(analysis: AnalysisState | None, positions: list[GameState]) -> dict[int, float]:
    """The computer's margin for player 1 at each analysed turn, and the exact one at the end."""
    if analysis is None or analysis.status != "done":
        return {}
    margins = {r.start: r.margin_for_first for r in analysis.reviews}
    if positions[-1].finished:
        first, second = scores(positions[-1])
        margins[len(positions) - 1] = float(first - second)
    return margins


def graph_for(view: RoomView, analysis: AnalysisState | None = None) -> ScoreGraph:
    """The score graph of the room's game (templates/score_graph.html)."""
    positions = positions_of(view)
    return score_graph(positions, margins_of(analysis, positions))


def _analysis_part(
    view: RoomView,
    positions: list[GameState],
    at: int,
    words: Words,
    origin: RoomOrigin,
    analysis: AnalysisState | None,
) -> dict[str, Any]:
    """What templates/review_analysis.html needs, on the review page or on its own."""
    points: list[TurningPoint] = []
    if analysis is not None and analysis.status == "done":
        points = [turning_point(r, positions, words) for r in turning_points(analysis.reviews)]
    return {
        "room_id": view.room_id,
        "at": at,
        "analysis": analysis,
        "origin": origin,
        "room_finished": view.state.finished,
        "warehouse": view.state.catalog.warehouse,
        "turning_points": points,
    }


def analysis_context(
    view: RoomView, at: int, *, lang: str, origin: RoomOrigin, analysis: AnalysisState | None
) -> dict[str, Any]:
    """The analysis part of the review alone: its progress, or once done its turning points and
    the graph with the computer's margin (swapped in out of band)."""
    positions = positions_of(view)
    context = _analysis_part(view, positions, at, words_for(lang), origin, analysis)
    if analysis is not None and analysis.status == "done":
        context["graph"] = score_graph(positions, margins_of(analysis, positions), at)
        context["graph_oob"] = True
    return context


def review_context(
    view: RoomView, at: int, *, lang: str, origin: RoomOrigin, analysis: AnalysisState | None
) -> dict[str, Any]:
    """The review page's context at position `at` (0 ≤ at ≤ the room's version)."""
    words = words_for(lang)
    positions = positions_of(view)
    state = positions[at]
    context = board_context(board_at(view, state, at), lang=lang)
    context.update(_analysis_part(view, positions, at, words, origin, analysis))
    context.update(
        review=True,
        oob=False,
        last=len(positions) - 1,
        summary=script_json(summary_json(state)),
        moves=move_items(view, positions, words),
        graph=score_graph(positions, margins_of(analysis, positions), at),
        # A live game is never played on from: only once it is over, or an imported record.
        can_fork=not state.finished and (view.over or view.review_link is not None),
        live_seat=view.viewer_seat,
        review_link=view.review_link,
    )
    return context
