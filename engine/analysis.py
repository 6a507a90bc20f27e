"""Analysis of a played game: what each turn lost against the strong computer's choice.

For every turn (its sells and its action) the strong bot (:mod:`engine.ai.strong`) searches the
position where the turn began with a fixed amount of work, so the result is the same on every
machine. The turn played and the bot's plan are then valued alike: both players continue with the
greedy policy for :data:`HORIZON` turns (or to the end of the game) and the position is valued with
the bots' evaluation margin (:func:`engine.ai.evaluation.margin`; at the end of the game, the exact
score margin). The points a turn lost are the bot's value minus the played value, never below 0.

:func:`turns_of` splits a game into turns; :func:`review_turn` is the work for one turn, a pure
function of the position that can run in any worker process; :func:`analyse` does the whole game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .ai.base import Plan, apply_plan
from .ai.evaluation import margin
from .ai.normal import greedy_plan
from .ai.strong import search
from .catalog import Catalog
from .moves import Move, parse_move
from .rules import apply
from .state import GameState, new_game

ITERATIONS = 40
"""The strong bot's work per turn, in greedy turns simulated (deterministic)."""

HORIZON = 10
"""Greedy turns played after a plan before its position is valued."""


@dataclass(frozen=True)
class Turn:
    """One turn of a game: the index of its first move in the log, the position before it, and
    the moves played (sells, then the action)."""

    start: int
    state: GameState
    played: Plan


@dataclass(frozen=True)
class TurnReview:
    """One turn weighed: the plan played and the strong bot's, each valued for the mover."""

    start: int
    seat: int
    played: tuple[str, ...]
    best: tuple[str, ...]
    played_value: float
    best_value: float

    @property
    def loss(self) -> float:
        """Points the turn lost against the bot's plan (0 when the turn was as good or better)."""
        return max(0.0, round(self.best_value - self.played_value, 1))

    @property
    def margin_for_first(self) -> float:
        """The position's value under the bot's plan, for seat 0 (the graph's evaluation)."""
        best = max(self.best_value, self.played_value)
        return best if self.seat == 0 else -best

    def to_json(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "seat": self.seat,
            "played": list(self.played),
            "best": list(self.best),
            "played_value": self.played_value,
            "best_value": self.best_value,
            "loss": self.loss,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnReview:
        return cls(
            start=int(data["start"]),
            seat=int(data["seat"]),
            played=tuple(data["played"]),
            best=tuple(data["best"]),
            played_value=float(data["played_value"]),
            best_value=float(data["best_value"]),
        )


def turns_of(moves: Sequence[Move | str], catalog: Catalog | None = None) -> list[Turn]:
    """The game's complete turns (a trailing turn of sells only is left out)."""
    state = new_game(catalog)
    turns: list[Turn] = []
    start, before, played = 0, state, []
    for index, raw in enumerate(moves):
        move = parse_move(raw, state.catalog)
        state = apply(state, move)
        played.append(move)
        if move.type != "sell":
            turns.append(Turn(start, before, tuple(played)))
            start, before, played = index + 1, state, []
    return turns


def plan_value(state: GameState, plan: Plan, seat: int, horizon: int = HORIZON) -> float:
    """``seat``'s margin after ``plan`` and ``horizon`` greedy turns of both players."""
    position = apply_plan(state, plan)
    for _ in range(horizon):
        if position.finished:
            break
        position = apply_plan(position, greedy_plan(position))
    return round(margin(position, seat), 1)


def review_turn(turn: Turn, iterations: int = ITERATIONS, horizon: int = HORIZON) -> TurnReview:
    """Weigh one turn against the strong bot's plan for the same position."""
    seat = turn.state.turn % 2
    best, _ = search(turn.state, None, iterations)
    played_value = plan_value(turn.state, turn.played, seat, horizon)
    best_value = (
        played_value if best == turn.played else plan_value(turn.state, best, seat, horizon)
    )
    return TurnReview(
        start=turn.start,
        seat=seat,
        played=tuple(m.canonical for m in turn.played),
        best=tuple(m.canonical for m in best),
        played_value=played_value,
        best_value=best_value,
    )


def analyse(
    moves: Sequence[Move | str],
    catalog: Catalog | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[TurnReview]:
    """Every turn of the game weighed in order; ``on_progress(done, total)`` after each."""
    turns = turns_of(moves, catalog)
    reviews = []
    for done, turn in enumerate(turns, start=1):
        reviews.append(review_turn(turn))
        if on_progress is not None:
            on_progress(done, len(turns))
    return reviews


def turning_points(reviews: Sequence[TurnReview], count: int = 3) -> list[TurnReview]:
    """The turns that lost the most points, biggest first (ties: the earlier turn)."""
    losing = [r for r in reviews if r.loss > 0]
    return sorted(losing, key=lambda r: (-r.loss, r.start))[:count]
