"""Why a build or use is refused, in a player's words ("Hardware Store costs 1 wood and 2 clay; you
have 0 clay"). Only called once a move has been found illegal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .catalog import FOOD
from .effects import LOCKED, STEP_COUNT, use_moves
from .moves import Move
from .warehouse import minimal_payments, paid_amounts

if TYPE_CHECKING:
    from .state import GameState


def name(state: GameState, building_id: str) -> str:
    return state.catalog.building(building_id).name


def _cost_text(state: GameState, building_id: str) -> str:
    building = state.catalog.building(building_id)
    if building.cost_kind == "francs":
        return _plural(building.cost_of("francs"), "franc")
    if building.cost_kind == "food":
        return f"{building.cost_of('food')} food (fish and grain)"
    return " and ".join(f"{amount} {good}" for good, amount in sorted(building.cost, reverse=True))


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def explain_build(state: GameState, seat: int, move: Move) -> str:
    building_id = move.building
    assert building_id is not None and move.payment is not None
    title = name(state, building_id)
    owner = state.owner(building_id)
    if owner == seat:
        return f"you already own {title}"
    if owner is not None:
        return f"{title} belongs to your opponent"
    building = state.catalog.building(building_id)
    if building_id not in state.supply:
        return f"{title} comes into play in round {building.letter}"
    player = state.players[seat]
    warehouse = state.catalog.warehouse
    cost = _cost_text(state, building_id)
    if building.cost_kind == "francs":
        if player.francs < building.cost_of("francs"):
            return f"{title} costs {cost}; you have {player.francs}"
        return f"{title} is paid in francs: its payment must be empty ({{}})"
    have = {g: warehouse.amount(c) for g, c in player.goods.items()}
    if building.cost_kind == "food":
        food = sum(have[g] for g in FOOD)
        if food < building.cost_of("food"):
            return f"{title} costs {cost}; you have {food} food"
    else:
        short = [g for g, amount in building.cost if have[g] < amount]
        if short:
            lacking = " and ".join(f"{have[g]} {g}" for g in short)
            return f"{title} costs {cost}; you have {lacking}"
    return f"that payment cannot pay for {title} ({cost}): {payment_problem(state, seat, move)}"


def payment_problem(state: GameState, seat: int, move: Move) -> str:
    """What is wrong with a build's payment (the building being affordable in some other way)."""
    assert move.building is not None and move.payment is not None
    warehouse = state.catalog.warehouse
    building = state.catalog.building(move.building)
    cells = state.players[seat].goods
    for good, down, left in move.payment:
        row, col = cells[good]
        if not warehouse.exists(row - down, col - left):
            return f"it would move your {good} counter off the warehouse board"
    paid = paid_amounts(warehouse, move.payment)
    if building.cost_kind == "food":
        wrong = [g for g in paid if g not in FOOD]
        if wrong:
            return f"food is paid with fish and grain, not {wrong[0]}"
        if sum(paid.values()) < building.cost_of("food"):
            return f"it pays {sum(paid.values())} food, not {building.cost_of('food')}"
    else:
        for good, amount in building.cost:
            if paid.get(good, 0) < amount:
                return f"it pays {paid.get(good, 0)} {good}, not {amount}"
    if move.payment not in minimal_payments(warehouse, building.cost):
        return "no change is given: a step can be left out and it still pays"
    return "it is not one of the valid payments"


def explain_use(state: GameState, seat: int, move: Move) -> str:
    building_id = move.building
    assert building_id is not None
    title = name(state, building_id)
    catalog = state.catalog
    owner = state.owner(building_id)
    if owner is None:
        return f"{title} has not been built"
    if building_id in LOCKED:
        return f"{title} has no function to use"
    age = state.players[owner].age(building_id)
    assert age is not None
    if catalog.multiplier_by_age[age] == 0:
        return f"{title} is in sector 0 and cannot be used until it has moved on"
    player = state.players[seat]
    if owner != seat and player.francs < 1:
        return f"using your opponent's {title} costs 1 franc; you have none"
    n = catalog.multiplier_by_age[age]
    fee = 0 if owner == seat else 1
    francs = player.francs - fee + catalog.bonus_francs_by_age[age]
    detail = _choice_problem(building_id, n, move, francs)
    legal = use_moves(building_id, n, catalog.warehouse, player.cells, francs)
    if detail is None and len(legal) == 1:
        detail = "it takes no choices"
    return f"that is not a possible use of {title} with N = {n}" + (f": {detail}" if detail else "")


def _choice_problem(building_id: str, n: int, move: Move, francs: int) -> str | None:
    if building_id == "hardware_store" and move.good not in ("wood", "clay"):
        return "choose wood or clay"
    if building_id in STEP_COUNT:
        total = STEP_COUNT[building_id](n)
        steps = dict(move.steps or ())
        if any(count == 0 for count in steps.values()):
            return "leave out goods with no steps"
        if sum(steps.values()) != total:
            return f"spread exactly {total} steps, not {sum(steps.values())}"
    if building_id in ("masons_guild", "guild_hall"):
        goods = move.goods or ()
        if len(set(goods)) != len(goods):
            return "each good can move only once"
        if len(goods) != n:
            return f"choose exactly {n} different goods"
    if building_id == "business_office":
        goods = move.goods or ()
        if len(set(goods)) != len(goods):
            return "each good can move only once"
        if len(goods) > n:
            return f"choose at most {n} different goods"
        return "every chosen good must be able to move down-left"
    if building_id == "fish_market":
        times = move.times or 0
        if times > n:
            return f"at most {n} times"
        if times > francs:
            return f"each time costs 1 franc and you would have {francs}"
    if building_id == "weekly_market":
        if move.good not in (None, *FOOD):
            return "choose fish or grain"
        if (move.times or 0) > n:
            return f"at most {n} times"
        return f"your {move.good} counter cannot move down that many times"
    if building_id in ("restaurant", "wood_trader"):
        payments = move.payments or ()
        if len(payments) > n:
            return f"at most {n} times"
        if building_id == "wood_trader" and len(payments) > francs:
            return f"each time costs 1 franc and you would have {francs}"
        cover = 1 if building_id == "restaurant" else 2
        return f"each payment must be a valid food payment of {cover} that your warehouse can make"
    return None
