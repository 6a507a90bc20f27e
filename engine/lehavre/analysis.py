"""Analysis of a played Le Havre game: what each turn lost against the strong player's choice.

A turn is a player's main action (phases ``main`` and ``final``) with the moves that player made
right after it (buying, selling, repaying, ending the turn); feeding at the round's end is left
out. For every turn the strong player (:mod:`engine.lehavre.ai.strong`) chooses the main action at
the position where the turn began, and the steady player finishes the turn after it. The turn
played and that plan are then valued alike: everyone plays on with the steady player until the
mover's next turn has ended (or the game is over), the hidden information redrawn, and the position
is judged with the evaluation (:func:`engine.lehavre.ai.evaluation.worth`: the mover's worth less
the best rival's). The points a turn lost are the plan's value minus the played one, never below 0.

Everything draws its randomness from a generator seeded with the turn's place in the game, so the
result is the same on every machine. :func:`turns_of` splits a game into turns; :func:`review_turn`
is the work for one turn, a pure function that can run in any worker process.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..analysis import TurnReview
from . import new_game
from .ai.heuristic import best, ranked
from .ai.strong import choose as strong_choice
from .ai.strong import playout, redraw_hidden
from .moves import Move, parse_move
from .rules import apply
from .setup import Setup
from .state import State

ACTION_PHASES = ("main", "final")
"""Where a turn begins: the main action (or a final turn's)."""
AFTER_PHASES = ("after", "final_after")
"""The rest of the mover's turn after its main action."""
TURNS_AHEAD = 1
"""The mover's turns played out after the one weighed before its position is judged."""


@dataclass(frozen=True)
class Turn:
    """One turn: the index of its first move in the log, the position before it, the moves."""

    start: int
    state: State
    played: tuple[Move, ...]


def turns_of(setup: Setup, moves: Sequence[Any]) -> list[Turn]:
    """The game's turns, in order."""
    states = [new_game(setup)]
    parsed = [parse_move(m) for m in moves]
    for move in parsed:
        states.append(apply(states[-1], move))
    turns, index = [], 0
    while index < len(parsed):
        before = states[index]
        if before.phase not in ACTION_PHASES:
            index += 1
            continue
        end = index + 1
        while end < len(parsed) and _goes_on(states[end], before.current):
            end += 1
        turns.append(Turn(index, before, tuple(parsed[index:end])))
        index = end
    return turns


def _goes_on(state: State, seat: int) -> bool:
    return state.phase in AFTER_PHASES and state.current == seat


def review_turn(turn: Turn) -> TurnReview:
    """Weigh one turn against the strong player's plan for the same position."""
    seat, rng = turn.state.current, random.Random(turn.start)
    plan = [strong_choice(turn.state, rng)]
    planned = apply(turn.state, plan[0])
    while _goes_on(planned, seat):
        plan.append(best(ranked(planned), rng)[1])
        planned = apply(planned, plan[-1])
    played = turn.state
    for move in turn.played:
        played = apply(played, move)
    played_value = _value(played, seat, turn.start)
    best_value = played_value if tuple(plan) == turn.played else _value(planned, seat, turn.start)
    return TurnReview(
        start=turn.start,
        seat=seat,
        played=tuple(m.text() for m in turn.played),
        best=tuple(m.text() for m in plan),
        played_value=played_value,
        best_value=best_value,
    )


def _value(state: State, seat: int, seed: int) -> float:
    """``seat``'s worth once everyone played on with the steady player (same seed, same draw)."""
    rng = random.Random(seed)
    return round(playout(redraw_hidden(state, rng), seat, TURNS_AHEAD, rng), 1)
