"""The strong bot: rollouts of the greedy policy, compared by successive halving, within a budget.

The game has no hidden information and no chance, so a position's future is fixed once both
players' policies are. The strong bot uses that (a "rollout algorithm"):

1. **Candidates.** Every plan of the turn (see :mod:`engine.ai.normal`) is valued one move ahead.
   Moves of the same kind on the same building — many payment variants, step distributions,
   repetition counts — are grouped, and only each group's best variant is kept; then the
   :data:`CANDIDATES` best groups go on.
2. **Rollouts.** From the position after each candidate, both players continue with the normal bot's
   greedy policy, one whole turn at a time; after ``h`` turns the position is valued with the same
   evaluation (at the end of the game that is the exact score margin). Because the policy is
   deterministic, a longer rollout simply continues a shorter one.
3. **Successive halving.** The candidates are rolled out to horizons 2, 4, 8, … turns; after each
   horizon the better half goes on (at least :data:`FINALISTS`), so the most work goes into the
   most promising moves. The search stops at the end of the game, or when the budget — seconds
   (``budget_s``) or greedy turns simulated (``iterations``, deterministic) — runs out; the move
   with the best value at the deepest horizon that all remaining candidates reached is played.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from ..moves import Move
from ..rules import apply
from ..state import GameState
from .base import Plan, apply_plan, require_turn
from .evaluation import margin
from .normal import greedy_plan, ranked_plans

DEFAULT_BUDGET_S = 1.0
"""Seconds of thinking per move when no budget is given: well under 2 s at p95 on two cores."""

CANDIDATES = 8
"""How many groups of moves the search looks at beyond one move."""

FINALISTS = 2
"""Successive halving never keeps fewer candidates than this."""

FIRST_HORIZON = 2


@dataclass
class _Line:
    """One candidate plan and the greedy continuation after it, as far as it has been played."""

    plan: Plan
    position: GameState
    turns: int = 0
    value: float = 0.0

    def extend_to(self, horizon: int, budget: _Budget) -> bool:
        """Play greedy turns until ``horizon`` turns or the end of the game; False if out of budget."""
        while self.turns < horizon and not self.position.finished:
            if budget.spent():
                return False
            for move in greedy_plan(self.position):
                self.position = apply(self.position, move)
            self.turns += 1
            budget.used += 1
        return True


@dataclass
class _Budget:
    deadline: float | None
    iterations: int | None
    used: int = 0
    clock: float = field(default_factory=time.perf_counter)

    def spent(self) -> bool:
        if self.iterations is not None and self.used >= self.iterations:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline


def candidate_plans(state: GameState, count: int = CANDIDATES) -> list[Plan]:
    """The best plan of each kind of move, best first, at most ``count`` of them."""
    seen: set[tuple[str, str | None]] = set()
    chosen: list[Plan] = []
    for _, plan in ranked_plans(state):
        action = plan[-1]
        key = (action.type if len(plan) == 1 else "sell+" + action.type, action.building)
        if key in seen:
            continue
        seen.add(key)
        chosen.append(plan)
        if len(chosen) == count:
            break
    return chosen


def search(state: GameState, budget_s: float | None, iterations: int | None) -> tuple[Plan, int]:
    """The plan to play and the number of greedy turns simulated to find it."""
    seat = require_turn(state)
    start = time.perf_counter()
    budget = _Budget(deadline=None if budget_s is None else start + budget_s, iterations=iterations)
    plans = candidate_plans(state)
    lines = [_Line(plan, apply_plan(state, plan)) for plan in plans]
    for line in lines:
        line.value = margin(line.position, seat)
    if len(lines) == 1:
        return lines[0].plan, 0
    horizon = FIRST_HORIZON
    while True:
        finished_stage = True
        for line in lines:
            if not line.extend_to(horizon, budget):
                finished_stage = False
                break
        if not finished_stage:
            break
        for line in lines:
            line.value = margin(line.position, seat)
        lines.sort(key=lambda line: -line.value)
        if all(line.position.finished for line in lines):
            break
        keep = max(FINALISTS, math.ceil(len(lines) / 2))
        lines = lines[:keep]
        horizon *= 2
    best = max(lines, key=lambda line: line.value)
    return best.plan, budget.used


@dataclass(frozen=True)
class StrongBot:
    budget_s: float | None = DEFAULT_BUDGET_S
    iterations: int | None = None
    level: str = "strong"

    def choose_move(self, state: GameState, rng: random.Random) -> Move:
        plan, _ = search(state, self.budget_s, self.iterations)
        return plan[0]
