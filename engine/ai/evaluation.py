"""The hand-built evaluation shared by the normal and the strong bot.

A position is worth, to one player, what the scoring rule gives now plus what the player can still
make of it:

- **score now** — francs plus the value of every owned building (SPEC §7), exact at the end;
- **goods** — each good is worth a few francs while there are actions left to turn it into a
  building or into francs; the worth fades to nothing as the player's last action approaches
  (goods only count at the end through buildings valued per good, which the score already holds);
- **buildings' future use** — a building on the wheel gives its owner an action worth more than a
  plain one (and 1 franc whenever the opponent uses it instead), again fading towards the end;
- **forced sales** — a building in the "4+" sector is sold for half its value at the end of the
  round unless somebody uses it first (SPEC §3), so part of the loss is counted in advance.

:func:`margin` is the evaluation of one seat minus the other's: the number both bots maximise.
"""

from __future__ import annotations

from functools import cache

from ..catalog import GOODS, Catalog, ComputedValue
from ..effects import has_action
from ..state import GameState, PlayerState, building_value

GOOD_WORTH: dict[str, float] = {"clay": 2.0, "fish": 1.2, "grain": 1.2, "wood": 2.0}
"""Francs one good is worth while it can still be spent: wood and clay build the dearer buildings."""

FULL_WORTH_AT = 10
"""Goods keep their full worth while the player has at least this many actions left."""

PLENTY = 12
"""Goods beyond this amount of one kind are worth half: few costs need more."""

FUTURE_USE_SHARE = 0.35
"""Share of one use's worth that owning a building on the wheel adds, early in the game."""


def actions_left_for(state: GameState, seat: int) -> int:
    """How many actions ``seat`` still takes (turns alternate over the whole game, seat 0 first)."""
    total = state.catalog.total_actions
    turn = state.turn
    if turn >= total:
        return 0
    first = turn if turn % 2 == seat else turn + 1
    return max(0, (total - first + 1) // 2)


def _fade(actions_left: int, full_at: int) -> float:
    return 1.0 if actions_left >= full_at else actions_left / full_at


def goods_worth(catalog: Catalog, player: PlayerState, actions_left: int) -> float:
    """What the player's goods are worth as material for later actions."""
    fade = _fade(actions_left, FULL_WORTH_AT)
    if fade == 0.0:
        return 0.0
    amount = catalog.warehouse.amount
    total = 0.0
    for good, cell in zip(GOODS, player.cells, strict=True):
        have = amount(cell)
        counted = have if have <= PLENTY else PLENTY + (have - PLENTY) / 2
        total += GOOD_WORTH[good] * counted
    return fade * total


@cache
def use_worth(building_id: str, n: int) -> float:
    """Rough francs-worth of one use of a building at multiplier ``n`` (SPEC §6), edges ignored."""
    wood, clay, fish, grain = (GOOD_WORTH[g] for g in ("wood", "clay", "fish", "grain"))
    food = (fish + grain) / 2
    best = max(GOOD_WORTH.values())
    mean = sum(GOOD_WORTH.values()) / len(GOOD_WORTH)
    row, column = 3, 1
    worth = {
        "wood_company": n * wood,
        "farmland": n * grain + wood + clay,
        "clay_mound": (n + 1) * clay,
        "grocery_store": n + grain + fish,
        "hardware_store": n * max(wood, clay),
        "farm": (n - 1) * (row + column) * grain,
        "kiln": n * (row - column) * clay,
        "smokehouse": n * (row - column) * fish,
        "bakehouse": n * (row - column) * grain,
        "sawmill": n * (row - column) * wood,
        "wood_trader": n * max(0.0, row * wood - 2 * food - 1),
        "restaurant": n * max(0.0, 2 - food),
        "marketplace": n * best,
        "fish_market": n * max(0.0, (row + column) * fish - 1),
        "building_firm": n * (wood + clay),
        "church_square": n * (grain + fish),
        "weekly_market": n * max(0.0, 4 - row * food),
        "masons_guild": n * (row - column) * mean,
        "business_office": n * max(0.0, 5 - (row + column) * food),
        "shipping_line": 3.0 * n,
        "guild_hall": n * (row + column) * mean,
        "pier": (n + 2) * best,
        "craftsmens_yard": (n + 1) * (row - column) * best,
    }
    return worth.get(building_id, 0.0)


def buildings_worth(state: GameState, seat: int, actions_left: int) -> float:
    """Future use of the player's buildings on the wheel, less the forced sales coming up."""
    catalog = state.catalog
    player = state.players[seat]
    fade = _fade(actions_left, FULL_WORTH_AT)
    total = 0.0
    at_risk: list[float] = []
    for building_id, age in player.buildings:
        if age is None or not has_action(building_id):
            continue
        n = catalog.multiplier_by_age[max(age, 1)]
        total += fade * FUTURE_USE_SHARE * use_worth(building_id, n)
        if age + 1 >= catalog.sold_at_age:
            value = building_value(catalog, player, building_id)
            at_risk.append(value - value // 2)
    if at_risk:
        total -= _forced_sale_loss(state, seat, sorted(at_risk, reverse=True))
    return total


def _forced_sale_loss(state: GameState, seat: int, losses: list[float]) -> float:
    """Expected loss from buildings that the coming end of round will sell.

    The player can save one such building per action left in the round (by using it); the rest
    are lost. A building that can still be saved is counted at a quarter of its loss.
    """
    left_in_round = state.actions_left
    turn = state.turn
    mine = sum(1 for k in range(turn, turn + left_in_round) if k % 2 == seat)
    saved = losses[:mine]
    lost = losses[mine:]
    return sum(lost) + 0.25 * sum(saved)


def player_worth(state: GameState, seat: int) -> float:
    """The evaluation of one seat: score now, goods, and buildings' future use."""
    catalog = state.catalog
    player = state.players[seat]
    left = actions_left_for(state, seat)
    score = player.francs
    for building_id, _ in player.buildings:
        value = catalog.by_id[building_id].value
        score += (
            value
            if not isinstance(value, ComputedValue)
            else building_value(catalog, player, building_id)
        )
    if state.finished:
        return float(score)
    return score + goods_worth(catalog, player, left) + buildings_worth(state, seat, left)


def margin(state: GameState, seat: int) -> float:
    """``seat``'s evaluation minus the opponent's; at the end of the game, the score margin."""
    return player_worth(state, seat) - player_worth(state, 1 - seat)
