"""Why a build or use is refused, as an :class:`IllegalMove` with a code and params ("cannot_afford",
{"building": "hardware_store", "cost": {"clay": 2, "wood": 1}, "have": {"clay": 0}}). Only called
once a move has been found illegal; the sentences are in :mod:`engine.errors`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .catalog import FOOD
from .effects import LOCKED, STEP_COUNT, use_fee, use_moves
from .errors import IllegalMove
from .moves import Move
from .warehouse import minimal_payments, paid_amounts

if TYPE_CHECKING:
    from .state import GameState


def refusal(state: GameState, code: str, **params: Any) -> IllegalMove:
    """An :class:`IllegalMove` whose sentence names buildings as ``state``'s catalog does."""
    return IllegalMove(code, params, catalog=state.catalog)


def _cost(state: GameState, building_id: str) -> dict[str, int]:
    return dict(state.catalog.building(building_id).cost)


def refuse_build(state: GameState, seat: int, move: Move) -> IllegalMove:
    building_id = move.building
    assert building_id is not None and move.payment is not None
    owner = state.owner(building_id)
    if owner == seat:
        return refusal(state, "already_owned", building=building_id)
    if owner is not None:
        return refusal(state, "owned_by_opponent", building=building_id)
    building = state.catalog.building(building_id)
    if building_id not in state.supply:
        return refusal(state, "not_in_supply", building=building_id, round=building.letter)
    player = state.players[seat]
    warehouse = state.catalog.warehouse
    cost = _cost(state, building_id)
    if building.cost_kind == "francs":
        if player.francs < building.cost_of("francs"):
            have = {"francs": player.francs}
            return refusal(state, "cannot_afford", building=building_id, cost=cost, have=have)
        return refusal(state, "francs_payment_not_empty", building=building_id)
    amounts = {g: warehouse.amount(c) for g, c in player.goods.items()}
    if building.cost_kind == "food":
        food = sum(amounts[g] for g in FOOD)
        if food < building.cost_of("food"):
            have = {"food": food}
            return refusal(state, "cannot_afford", building=building_id, cost=cost, have=have)
    else:
        short = {g: amounts[g] for g, amount in building.cost if amounts[g] < amount}
        if short:
            return refusal(state, "cannot_afford", building=building_id, cost=cost, have=short)
    code, params = payment_problem(state, seat, move)
    return refusal(state, code, building=building_id, cost=cost, **params)


def payment_problem(state: GameState, seat: int, move: Move) -> tuple[str, dict[str, Any]]:
    """What is wrong with a build's payment (the building being affordable in some other way)."""
    assert move.building is not None and move.payment is not None
    warehouse = state.catalog.warehouse
    building = state.catalog.building(move.building)
    cells = state.players[seat].goods
    for good, down, left in move.payment:
        row, col = cells[good]
        if not warehouse.exists(row - down, col - left):
            return "payment_off_board", {"good": good}
    paid = paid_amounts(warehouse, move.payment)
    if building.cost_kind == "food":
        wrong = [g for g in paid if g not in FOOD]
        if wrong:
            return "payment_not_food", {"good": wrong[0]}
        if sum(paid.values()) < building.cost_of("food"):
            needed = building.cost_of("food")
            return "payment_too_little_food", {"paid": sum(paid.values()), "needed": needed}
    else:
        for good, amount in building.cost:
            if paid.get(good, 0) < amount:
                return "payment_too_little", {
                    "good": good,
                    "paid": paid.get(good, 0),
                    "needed": amount,
                }
    if move.payment not in minimal_payments(warehouse, building.cost):
        return "payment_gives_change", {}
    return "payment_invalid", {}


def refuse_use(state: GameState, seat: int, move: Move) -> IllegalMove:
    building_id = move.building
    assert building_id is not None
    catalog = state.catalog
    owner = state.owner(building_id)
    if owner is None:
        return refusal(state, "not_built", building=building_id)
    if building_id in LOCKED:
        return refusal(state, "no_action", building=building_id)
    age = state.players[owner].age(building_id)
    assert age is not None
    if catalog.multiplier_by_age[age] == 0:
        return refusal(state, "sector_zero", building=building_id)
    player = state.players[seat]
    fee = use_fee(owner, seat)
    if player.francs < fee:
        return refusal(state, "cannot_pay_fee", building=building_id, fee=fee)
    n = catalog.multiplier_by_age[age]
    francs = player.francs - fee + catalog.bonus_francs_by_age[age]
    detail = _choice_problem(building_id, n, move, francs)
    legal = use_moves(building_id, n, catalog.warehouse, player.cells, francs)
    if detail is None:
        detail = ("use_takes_no_choices" if len(legal) == 1 else "use_impossible", {})
    code, params = detail
    return refusal(state, code, building=building_id, n=n, **params)


def _choice_problem(
    building_id: str, n: int, move: Move, francs: int
) -> tuple[str, dict[str, Any]] | None:
    if building_id == "hardware_store" and move.good not in ("wood", "clay"):
        return "use_choose_wood_or_clay", {}
    if building_id in STEP_COUNT:
        total = STEP_COUNT[building_id](n)
        steps = dict(move.steps or ())
        if any(count == 0 for count in steps.values()):
            return "use_zero_steps", {}
        if sum(steps.values()) != total:
            return "use_wrong_step_count", {"steps": total, "given": sum(steps.values())}
    if building_id in ("masons_guild", "guild_hall"):
        goods = move.goods or ()
        if len(set(goods)) != len(goods):
            return "use_repeated_good", {}
        if len(goods) != n:
            return "use_wrong_goods_count", {}
    if building_id == "business_office":
        goods = move.goods or ()
        if len(set(goods)) != len(goods):
            return "use_repeated_good", {}
        if len(goods) > n:
            return "use_too_many_goods", {}
        return "use_good_cannot_move", {}
    if building_id == "fish_market":
        times = move.times or 0
        if times > n:
            return "use_too_many_times", {}
        if times > francs:
            return "use_too_few_francs", {"francs": francs}
    if building_id == "weekly_market":
        if move.good not in (None, *FOOD):
            return "use_choose_fish_or_grain", {}
        if (move.times or 0) > n:
            return "use_too_many_times", {}
        return "use_cannot_move_down", {"good": move.good}
    if building_id in ("restaurant", "wood_trader"):
        payments = move.payments or ()
        if len(payments) > n:
            return "use_too_many_times", {}
        if building_id == "wood_trader" and len(payments) > francs:
            return "use_too_few_francs", {"francs": francs}
        cover = 1 if building_id == "restaurant" else 2
        return "use_invalid_food_payment", {"cover": cover}
    return None
