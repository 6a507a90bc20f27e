"""A plain, independent model of SPEC.md, used only as a test oracle.

It works on SPEC §8 summary dicts (never on engine objects), reads its numbers from the catalog
JSON, and favours the literal wording of the rules over speed: legal moves are enumerated by
brute force, payments are checked for minimality by taking single steps out. Tests compare the
engine with it move by move.
"""

from __future__ import annotations

import copy
import itertools
import json
from functools import cache
from pathlib import Path
from typing import Any

GOODS = ("clay", "fish", "grain", "wood")
FOOD = ("fish", "grain")
STEPS = {"R": (0, 1), "U": (1, 0), "UR": (1, 1), "UL": (1, -1)}

CATALOG = json.loads((Path(__file__).resolve().parents[2] / "engine" / "catalog.json").read_text())
BOARD = CATALOG["warehouse"]
ROWS, COLUMNS = BOARD["rows"], BOARD["columns"]
MISSING = {tuple(cell) for cell in BOARD["missing_cells"]}
ROUNDS = [(r["letter"], r["actions"]) for r in CATALOG["rounds"]]
LETTERS = [letter for letter, _ in ROUNDS]
TOTAL_ACTIONS = sum(actions for _, actions in ROUNDS)
MULTIPLIER = CATALOG["wheel"]["multiplier_by_age"]
BONUS = CATALOG["wheel"]["bonus_francs_by_age"]
SOLD_AT = CATALOG["wheel"]["sold_at_age"]
BUILDINGS = {entry["id"]: entry for entry in CATALOG["buildings"]}
LOCKED = frozenset(
    {
        "fish_factory",
        "town_hall",
        "zoo",
        "pont_de_normandie",
        "grain_silo",
        "wood_factory",
        "dock",
        "brick_factory",
    }
)

Cell = tuple[int, int]
Shape = tuple[tuple[int, int], ...]


def text(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def exists(row: int, col: int) -> bool:
    return 0 <= row < ROWS and 0 <= col < COLUMNS and (row, col) not in MISSING


def amount(cell: Cell | list[int]) -> int:
    return int(BOARD["row_value"]) * cell[0] + int(BOARD["column_value"]) * cell[1]


# ---- clock ---------------------------------------------------------------------------------


def clock(turn: int) -> tuple[int, int]:
    """(round index, actions left) before action `turn`; after the last: (last, 0)."""
    start = 0
    for index, (_, actions) in enumerate(ROUNDS):
        if turn < start + actions:
            return index, start + actions - turn
        start += actions
    return len(ROUNDS) - 1, 0


def round_ends_after(turn: int) -> bool:
    """True when action number `turn` (0-based) is the last of its round."""
    return clock(turn)[1] == 1


# ---- values and derived fields -------------------------------------------------------------


def value(building: str, owner: dict[str, Any]) -> int:
    printed = BUILDINGS[building]["value"]
    if isinstance(printed, int):
        return printed
    if printed["per"] == "dock_symbol":
        count = sum(1 for b in owner["buildings"] if BUILDINGS[b].get("dock_symbol"))
        return int(printed["rate"]) * count
    return int(printed["rate"]) * amount(owner["goods"][printed["per"]])


def derive(state: dict[str, Any]) -> dict[str, Any]:
    """Fill the derived summary fields from turn and players."""
    turn = state["turn"]
    finished = turn >= TOTAL_ACTIONS
    index, left = clock(turn)
    owned = {b for p in state["players"] for b in p["buildings"]}
    in_play = [b for b, e in BUILDINGS.items() if LETTERS.index(e["letter"]) <= index]
    state["finished"] = finished
    state["round"] = LETTERS[index]
    state["to_move"] = None if finished else turn % 2
    state["actions_left"] = left
    state["supply"] = sorted(b for b in in_play if b not in owned)
    state["scores"] = [
        p["francs"] + sum(value(b, p) for b in p["buildings"]) for p in state["players"]
    ]
    return state


# ---- warehouse -----------------------------------------------------------------------------


def gain(goods: dict[str, list[int]], good: str, step: str, times: int = 1) -> None:
    """Apply gain steps one at a time; a step whose target does not exist is lost."""
    drow, dcol = STEPS[step]
    for _ in range(times):
        row, col = goods[good]
        if exists(row + drow, col + dcol):
            goods[good] = [row + drow, col + dcol]


def displacements(cell: Cell, cost: int) -> list[tuple[int, int]]:
    """(down, left) displacements ending on an existing cell. Larger ones than these
    (down > ceil(cost/3), left > cost) always contain a smaller cover, so never minimal."""
    row, col = cell
    return [
        (a, b)
        for a in range(min(row, -(-cost // 3)) + 1)
        for b in range(min(col, cost) + 1)
        if exists(row - a, col - b)
    ]


@cache
def minimal_shapes(cells: tuple[Cell, ...], cost: int) -> tuple[Shape, ...]:
    """Displacement tuples (one per paying good) that cover `cost` together and from which no
    single step can be taken out (covering grows with every step, so this is minimality)."""

    def covers(shape: Shape) -> bool:
        return sum(3 * a + b for a, b in shape) >= cost

    result = []
    for shape in itertools.product(*(displacements(c, cost) for c in cells)):
        if not covers(shape):
            continue
        smaller = []
        for i, (a, b) in enumerate(shape):
            if a:
                smaller.append((*shape[:i], (a - 1, b), *shape[i + 1 :]))
            if b:
                smaller.append((*shape[:i], (a, b - 1), *shape[i + 1 :]))
        if not any(covers(s) for s in smaller):
            result.append(shape)
    return tuple(result)


def payment_object(goods: tuple[str, ...], shape: Shape) -> dict[str, dict[str, int]]:
    payment = {}
    for good, (a, b) in zip(goods, shape, strict=True):
        fields = {k: v for k, v in (("down", a), ("left", b)) if v}
        if fields:
            payment[good] = fields
    return payment


def build_payments(goods: dict[str, list[int]], cost: dict[str, int]) -> list[dict[str, Any]]:
    groups: list[list[dict[str, Any]]] = []
    for good, need in sorted(cost.items()):
        paying = FOOD if good == "food" else (good,)
        cells = tuple(tuple(goods[g]) for g in paying)
        shapes = minimal_shapes(cells, need)
        groups.append([payment_object(paying, s) for s in shapes])
    payments = []
    for combo in itertools.product(*groups):
        merged: dict[str, Any] = {}
        for part in combo:
            merged.update(part)
        payments.append(merged)
    return payments


def pay(goods: dict[str, list[int]], payment: dict[str, dict[str, int]]) -> None:
    for good, fields in payment.items():
        row, col = goods[good]
        goods[good] = [row - fields.get("down", 0), col - fields.get("left", 0)]


# Food payments covering 1 or 2 do not depend on where the counters are (only whether they fit).
FOOD_PAYMENTS = {
    need: [payment_object(FOOD, s) for s in minimal_shapes(((5, 5), (5, 5)), need)]
    for need in (1, 2)
}


def repeated_payments(
    goods: dict[str, list[int]], need: int, most: int
) -> list[list[dict[str, Any]]]:
    """Multisets of 0..most food payments covering `need` each, all fitting together."""
    options = sorted(FOOD_PAYMENTS[need], key=text)
    lists = []
    for count in range(most + 1):
        for combo in itertools.combinations_with_replacement(options, count):
            total = {g: [0, 0] for g in FOOD}
            for payment in combo:
                for good, fields in payment.items():
                    total[good][0] += fields.get("down", 0)
                    total[good][1] += fields.get("left", 0)
            if all(exists(goods[g][0] - total[g][0], goods[g][1] - total[g][1]) for g in FOOD):
                lists.append(sorted(combo, key=text))
    return lists


def spreads(total: int) -> list[dict[str, int]]:
    return [
        {g: combo.count(g) for g in GOODS if g in combo}
        for combo in itertools.combinations_with_replacement(GOODS, total)
    ]


# ---- moves ---------------------------------------------------------------------------------


def use_choices(building: str, n: int, me: dict[str, Any], francs: int) -> list[dict[str, Any]]:
    """Choice fields of every legal use; `francs` is what the user holds after fee and bonus."""
    goods = me["goods"]
    if building == "hardware_store":
        return [{"good": "clay"}, {"good": "wood"}]
    if building == "wood_trader":
        return [{"payments": p} for p in repeated_payments(goods, 2, min(n, francs))]
    if building == "restaurant":
        return [{"payments": p} for p in repeated_payments(goods, 1, n)]
    if building == "marketplace":
        return [{"steps": s} for s in spreads(n)]
    if building == "pier":
        return [{"steps": s} for s in spreads(n + 2)]
    if building == "craftsmens_yard":
        return [{"steps": s} for s in spreads(n + 1)]
    if building == "fish_market":
        return [{"times": t} for t in range(min(n, francs) + 1)]
    if building == "weekly_market":
        choices: list[dict[str, Any]] = [{"times": 0}]
        for good in FOOD:
            row, col = goods[good]
            most = max(t for t in range(n + 1) if all(exists(row - k, col) for k in range(t + 1)))
            choices += [{"good": good, "times": t} for t in range(1, most + 1)]
        return choices
    if building in ("masons_guild", "guild_hall"):
        return [{"goods": list(c)} for c in itertools.combinations(GOODS, n)]
    if building == "business_office":
        payable = [g for g in GOODS if exists(goods[g][0] - 1, goods[g][1] - 1)]
        return [
            {"goods": list(c)}
            for size in range(n + 1)
            for c in itertools.combinations(payable, size)
        ]
    return [{}]


def owner_of(state: dict[str, Any], building: str) -> int | None:
    for seat, p in enumerate(state["players"]):
        if building in p["buildings"]:
            return seat
    return None


def legal_moves(state: dict[str, Any]) -> list[str]:
    if state["finished"]:
        return []
    seat = state["to_move"]
    me = state["players"][seat]
    moves = [text({"type": "sell", "building": b}) for b in me["buildings"]]
    actions = []
    for building in state["supply"]:
        cost = BUILDINGS[building]["cost"]
        if "francs" in cost:
            if me["francs"] >= cost["francs"]:
                actions.append({"type": "build", "building": building, "payment": {}})
        else:
            for payment in build_payments(me["goods"], cost):
                actions.append({"type": "build", "building": building, "payment": payment})
    for owner, p in enumerate(state["players"]):
        for building, age in p["buildings"].items():
            if building in LOCKED or age is None or MULTIPLIER[age] == 0:
                continue
            fee = 0 if owner == seat else 1
            if me["francs"] < fee:
                continue
            francs = me["francs"] - fee + BONUS[age]
            for choice in use_choices(building, MULTIPLIER[age], me, francs):
                actions.append({"type": "use", "building": building, **choice})
    if not actions:
        actions.append({"type": "pass"})
    moves += [text(a) for a in actions]
    return sorted(set(moves))


def effect(building: str, n: int, me: dict[str, Any], move: dict[str, Any]) -> None:
    goods = me["goods"]
    one_good_ul = {"kiln": "clay", "smokehouse": "fish", "bakehouse": "grain", "sawmill": "wood"}
    if building == "wood_company":
        gain(goods, "wood", "R", n)
    elif building == "farmland":
        gain(goods, "grain", "R", n)
        gain(goods, "wood", "R")
        gain(goods, "clay", "R")
    elif building == "clay_mound":
        gain(goods, "clay", "R", n + 1)
    elif building == "grocery_store":
        me["francs"] += n
        gain(goods, "grain", "R")
        gain(goods, "fish", "R")
    elif building == "hardware_store":
        gain(goods, move["good"], "R", n)
    elif building == "farm":
        gain(goods, "grain", "UR", n - 1)
    elif building in one_good_ul:
        gain(goods, one_good_ul[building], "UL", n)
    elif building == "wood_trader":
        for payment in move["payments"]:
            me["francs"] -= 1
            pay(goods, payment)
            gain(goods, "wood", "U")
    elif building == "restaurant":
        for payment in move["payments"]:
            pay(goods, payment)
            me["francs"] += 2
    elif building in ("marketplace", "pier"):
        for good, count in move["steps"].items():
            gain(goods, good, "R", count)
    elif building == "craftsmens_yard":
        for good, count in move["steps"].items():
            gain(goods, good, "UL", count)
    elif building == "fish_market":
        for _ in range(move["times"]):
            me["francs"] -= 1
            gain(goods, "fish", "UR")
    elif building == "building_firm":
        gain(goods, "wood", "R", n)
        gain(goods, "clay", "R", n)
    elif building == "church_square":
        gain(goods, "grain", "R", n)
        gain(goods, "fish", "R", n)
    elif building == "weekly_market":
        for _ in range(move["times"]):
            pay(goods, {move["good"]: {"down": 1}})
            me["francs"] += 4
    elif building == "masons_guild":
        for good in move["goods"]:
            gain(goods, good, "UL")
    elif building == "business_office":
        for good in move["goods"]:
            pay(goods, {good: {"down": 1, "left": 1}})
            me["francs"] += 5
    elif building == "shipping_line":
        me["francs"] += 3 * n
    elif building == "guild_hall":
        for good in move["goods"]:
            gain(goods, good, "UR")
    else:
        raise AssertionError(f"no effect for {building}")


def apply(state: dict[str, Any], move_text: str) -> dict[str, Any]:
    """The summary after a legal move (given as its canonical string)."""
    assert move_text in legal_moves(state), move_text
    move = json.loads(move_text)
    after = copy.deepcopy(state)
    seat = after["to_move"]
    me = after["players"][seat]
    kind = move["type"]
    if kind == "sell":
        me["francs"] += value(move["building"], me) // 2
        del me["buildings"][move["building"]]
        return derive(after)
    if kind == "build":
        building = move["building"]
        cost = BUILDINGS[building]["cost"]
        if "francs" in cost:
            me["francs"] -= cost["francs"]
        else:
            pay(me["goods"], move["payment"])
        me["buildings"][building] = None if building in LOCKED else 0
    elif kind == "use":
        building = move["building"]
        owner = after["players"][owner_of(after, building)]
        age = owner["buildings"][building]
        if owner is not me:
            me["francs"] -= 1
            owner["francs"] += 1
        me["francs"] += BONUS[age]
        effect(building, MULTIPLIER[age], me, move)
        owner["buildings"][building] = 0
    if round_ends_after(after["turn"]):
        for p in after["players"]:
            for building, age in list(p["buildings"].items()):
                if age is None:
                    continue
                if age + 1 >= SOLD_AT:
                    p["francs"] += value(building, p) // 2
                    del p["buildings"][building]
                else:
                    p["buildings"][building] = age + 1
    after["turn"] += 1
    return derive(after)
