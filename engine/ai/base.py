"""What every bot offers, and the turn structure the bots share.

A bot answers one question: given a position where it is to move, which move does it make? The
answer is one legal move — a sell or an action. A turn can start with sells (SPEC §4), so the
caller asks again until the turn has passed to the other seat; a bot that plans "sell, then build"
returns the sell first and finds the build again on the next call.
"""

from __future__ import annotations

import random
from typing import Protocol

from ..errors import IllegalMove
from ..moves import Move
from ..rules import apply
from ..state import GameState

Plan = tuple[Move, ...]
"""A whole turn as the bots see it: zero or more sells, then one action."""


class Bot(Protocol):
    """A computer player: deterministic for a given ``rng`` (a time budget may cut a search short)."""

    @property
    def level(self) -> str:
        """``"easy"``, ``"normal"`` or ``"strong"``."""
        ...

    def choose_move(self, state: GameState, rng: random.Random) -> Move:
        """One legal move for the player to move in ``state``."""
        ...


def require_turn(state: GameState) -> int:
    """The seat to move; a finished game has no move to choose."""
    if state.to_move is None:
        raise IllegalMove("no_move_to_choose")
    return state.to_move


def apply_plan(state: GameState, plan: Plan) -> GameState:
    """The position after every move of ``plan``, in order."""
    for move in plan:
        state = apply(state, move)
    return state
