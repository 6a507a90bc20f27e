"""The easy bot: a random legal player that still finishes games sensibly.

It never sells and never picks a move because of what it achieves. It first picks one of the
buildings it can build or use, each equally likely — so a building with many ways to be used (a
pier's step distributions, a restaurant's payments) is not chosen more often for that — and then
one of that building's moves. It passes only when the rules leave nothing else.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..moves import Move
from ..rules import legal_moves
from ..state import GameState
from .base import require_turn


@dataclass(frozen=True)
class EasyBot:
    level: str = "easy"

    def choose_move(self, state: GameState, rng: random.Random) -> Move:
        require_turn(state)
        groups: dict[tuple[str, str | None], list[Move]] = {}
        for move in legal_moves(state):
            if move.type != "sell":
                groups.setdefault((move.type, move.building), []).append(move)
        key = rng.choice(sorted(groups, key=lambda k: (k[0], k[1] or "")))
        return rng.choice(groups[key])
