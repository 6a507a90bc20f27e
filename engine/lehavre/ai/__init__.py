"""The computer player for Le Havre at two strengths (docs/le-havre/ai.md).

    from engine.lehavre.ai import choose
    move = choose(state, "strong", random.Random(7))

``heuristic`` judges the position after each listed move with an evaluation (evaluation.py) and
plays the best; ``strong`` plays out the heuristic's best few main actions a few turns ahead. Each
call returns one legal move of the player to move (a turn is several moves: call again until
another player is to move). A player draws randomness only from the generator it is given, so the
same seed gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..errors import illegal
from ..moves import Move
from ..state import State
from . import heuristic, strong

STRENGTHS: dict[str, Callable[[State, random.Random], Move]] = {
    "heuristic": heuristic.choose,
    "strong": strong.choose,
}


def choose(state: State, strength: str, rng: random.Random) -> Move:
    """The move of the computer player of ``strength`` for the player to move in ``state``."""
    player = STRENGTHS.get(strength)
    if player is None:
        raise ValueError(f"unknown strength {strength!r}: choose one of {', '.join(STRENGTHS)}")
    if state.phase == "over":
        raise illegal("game_over")
    return player(state, rng)


__all__ = ["STRENGTHS", "choose"]
