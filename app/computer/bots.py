"""What the computer's bot processes run: the bots' choice of a move, and the warm-up.

This module imports the rules engine and nothing of the web server, so a bot process started
with "spawn" (`app.computer.background.spawn_pool`) imports only what it needs: it starts in about a
tenth of a second instead of seconds. (A spawned child also imports the parent's main module,
`app.__main__`, which therefore imports the server only inside its `main()`.)
"""

from __future__ import annotations

import os
import random
from typing import Any

import engine
from engine import games
from engine.ai import choose_move

STRONG_BUDGET_S = 1.0
"""The strong bot's thinking time per move (see docs/ai.md: p95 about 1.1 s on two cores)."""


def think(state: engine.GameState, level: str, seed: str) -> engine.Move:
    """The bot's move for the player to move in `state` (runs in a worker thread or process).

    The random choices are seeded by the room and version, so two processes choose alike.
    """
    budget_s = STRONG_BUDGET_S if level == "strong" else None
    return choose_move(state, level=level, rng=random.Random(seed), budget_s=budget_s)


def think_in(game: str, state: Any, level: str, seed: str) -> Any:
    """The move of the computer at `level` in another game than Inland Port (`engine.games`)."""
    return games.game(game).choose(state, level, random.Random(seed))


def warm_up(level: str) -> int:
    """A first move of the bots at `level` (the strong lanes' processes think as "normal": the
    same modules and caches, without the strong bot's whole budget); this process's id."""
    think(engine.new_game(), "easy" if level == "easy" else "normal", "warm-up")
    return os.getpid()
