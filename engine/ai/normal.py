"""The normal bot: a greedy player that looks one move ahead.

For every action it can take this turn it looks at the position right after it and keeps the one
with the best :func:`~engine.ai.evaluation.margin` (its own evaluation minus the opponent's). A turn
may start with sells (SPEC §4): selling only ever lowers the score, so the bot considers it just to
raise the francs for a building that costs francs, selling the buildings it needs least first.
Ties are broken with the bot's random generator, so a game is the same for the same seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..errors import IllegalMove
from ..moves import Move, make_move
from ..rules import apply, legal_moves
from ..state import GameState, building_value
from .base import Plan, require_turn
from .evaluation import margin, use_worth

TIE = 1e-9


def turn_plans(state: GameState) -> list[Plan]:
    """Every action of this turn, plus "sell, …, then build" for francs buildings out of reach."""
    actions = [m for m in legal_moves(state) if m.type != "sell"]
    plans: list[Plan] = [(m,) for m in actions]
    plans.extend(sell_plans(state))
    return plans


def sell_plans(state: GameState) -> list[Plan]:
    """Sells that raise the francs for one building that costs francs, then its build.

    Buildings are sold in order of the least lost per franc raised (a sale gives half the value
    and loses the whole value and the building's future use).
    """
    seat = state.turn % 2
    player = state.players[seat]
    catalog = state.catalog
    owned = player.buildings
    if not owned:
        return []
    costs = [
        (catalog.building(b).cost_of("francs"), b)
        for b in state.supply
        if catalog.building(b).cost_kind == "francs"
    ]
    out_of_reach = [(cost, b) for cost, b in costs if cost > player.francs]
    if not out_of_reach:
        return []

    def loss_per_franc(item: tuple[str, int | None]) -> float:
        building_id, age = item
        value = building_value(catalog, player, building_id)
        raised = value // 2
        keep = value - raised + (0.0 if age is None else use_worth(building_id, 3) / 3)
        return keep / raised if raised else float("inf")

    order = sorted(owned, key=loss_per_franc)
    plans: list[Plan] = []
    for cost, building_id in out_of_reach:
        need = cost - player.francs
        sells: list[Move] = []
        raised = 0
        for owned_id, _ in order:
            if raised >= need:
                break
            value = building_value(catalog, player, owned_id) // 2
            if value == 0:
                break
            sells.append(make_move("sell", owned_id))
            raised += value
        if raised >= need:
            plans.append((*sells, make_move("build", building_id, payment=())))
    return plans


def plan_value(state: GameState, plan: Plan, seat: int) -> float | None:
    """The margin for ``seat`` after ``plan``, or ``None`` when the plan turns out illegal."""
    try:
        for move in plan:
            state = apply(state, move)
    except IllegalMove:
        return None
    return margin(state, seat)


def ranked_plans(state: GameState) -> list[tuple[float, Plan]]:
    """Every plan of :func:`turn_plans` with its value, best first (stable for equal values)."""
    seat = state.turn % 2
    valued = []
    for plan in turn_plans(state):
        value = plan_value(state, plan, seat)
        if value is not None:
            valued.append((value, plan))
    valued.sort(key=lambda item: -item[0])
    return valued


def greedy_plan(state: GameState, rng: random.Random | None = None) -> Plan:
    """The best plan by the evaluation; ties go to ``rng`` (or the first in move order)."""
    ranked = ranked_plans(state)
    best = ranked[0][0]
    tied = [plan for value, plan in ranked if value >= best - TIE]
    return tied[0] if rng is None or len(tied) == 1 else rng.choice(tied)


@dataclass(frozen=True)
class NormalBot:
    level: str = "normal"

    def choose_move(self, state: GameState, rng: random.Random) -> Move:
        require_turn(state)
        return greedy_plan(state, rng)[0]
