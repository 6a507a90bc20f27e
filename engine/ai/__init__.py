"""The computer opponent at three strengths (see docs/ai.md).

    from engine.ai import choose_move
    move = choose_move(state, level="normal", rng=random.Random(7))

``easy`` plays random legal moves, ``normal`` is greedy one move ahead with a hand-built evaluation,
``strong`` searches ahead within a time budget (``budget_s``) or a fixed amount of work
(``iterations``, deterministic). Every call returns one legal move for the player to move; a turn
may start with sells, so call again until the turn has passed.
"""

from __future__ import annotations

import random

from ..moves import Move
from ..state import GameState
from .base import Bot
from .easy import EasyBot
from .normal import NormalBot
from .strong import DEFAULT_BUDGET_S, StrongBot

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")


def make_bot(level: str, budget_s: float | None = None, iterations: int | None = None) -> Bot:
    """The bot of one strength; ``budget_s`` / ``iterations`` bound the strong bot's search."""
    if level == "easy":
        return EasyBot()
    if level == "normal":
        return NormalBot()
    if level == "strong":
        if budget_s is not None and budget_s <= 0:
            raise ValueError(f"the time budget must be positive, not {budget_s}")
        if iterations is not None and iterations <= 0:
            raise ValueError(f"the iteration budget must be positive, not {iterations}")
        if budget_s is None and iterations is None:
            budget_s = DEFAULT_BUDGET_S
        return StrongBot(budget_s=budget_s, iterations=iterations)
    raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")


def choose_move(
    state: GameState,
    level: str = "normal",
    rng: random.Random | None = None,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> Move:
    """One legal move for the player to move in ``state``, chosen by the bot of ``level``."""
    bot = make_bot(level, budget_s=budget_s, iterations=iterations)
    return bot.choose_move(state, rng if rng is not None else random.Random())


__all__ = ["LEVELS", "Bot", "choose_move", "make_bot"]
