"""What entering a building does: one function pair per effect kind of the catalog.

``OPTIONS[kind](ctx)`` yields the choices ``legal_moves`` lists (a dict of move fields each);
``RESOLVE[kind](ctx, move)`` returns the state after the effect or raises :class:`IllegalMove`.
``ctx.have`` is the visitor's goods after the entry fee. Shipbuilding, construction and the other
effects that move cards live in works.py.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

from .catalog import FRANC, Amounts, Building, Catalog, Line
from .errors import illegal
from .goods import FOOD, Vec, add, canonical_payment, holds, minus, payment_error, values
from .moves import Move
from .payments import energy_choice, named, pay_energy, vec
from .state import Player, State, replace

Choice = dict[str, Any]


class Ctx:
    """A visit in progress: the position, the visitor, the building, and the visitor after the fee."""

    __slots__ = ("building", "cat", "player", "seat", "state")

    def __init__(self, state: State, seat: int, building: Building, player: Player, cat: Catalog):
        self.state, self.seat, self.building, self.player, self.cat = (
            state,
            seat,
            building,
            player,
            cat,
        )

    @property
    def have(self) -> Vec:
        return self.player.goods

    @property
    def effect(self) -> Any:
        return self.building.effect

    def done(self, goods: Vec, **player_fields: Any) -> State:
        return self.state.with_player(self.seat, replace(self.player, goods=goods, **player_fields))


def symbols(cat: Catalog, player: Player, name: str) -> int:
    return sum(getattr(cat.buildings[b], name) for b in player.buildings)


def kinds(cat: Catalog, player: Player, kind: str) -> int:
    return sum(1 for b in player.buildings if cat.buildings[b].kind == kind)


# --- gain: fixed goods, plus per symbol, an optional extra for energy ---


def _gained(ctx: Ctx) -> Vec:
    e = ctx.effect
    got = add(ctx.have, tuple((ctx.cat.index[g], n) for g, n in e.get("goods", {}).items()))
    for symbol, goods in e.get("per_symbol", {}).items():
        count = symbols(ctx.cat, ctx.player, symbol)
        got = add(got, tuple((ctx.cat.index[g], n) for g, n in goods.items()), count)
    for symbol, goods in e.get("if_symbol", {}).items():
        if symbols(ctx.cat, ctx.player, symbol):
            got = add(got, tuple((ctx.cat.index[g], n) for g, n in goods.items()))
    return got


def _requires(ctx: Ctx) -> bool:
    need = tuple((ctx.cat.index[g], n) for g, n in ctx.effect.get("requires", {}).items())
    return holds(ctx.have, need)


def gain_options(ctx: Ctx) -> Iterator[Choice]:
    if not _requires(ctx):
        return
    if _gained(ctx) != ctx.have:
        yield {}
    extra = ctx.effect.get("extra")
    if extra:
        pay = energy_choice(ctx.cat, ctx.player, ctx.have, extra["energy"])
        if pay is not None:
            yield {"extra": True, "energy": named(ctx.cat, pay)}


def gain_resolve(ctx: Ctx, move: Move) -> State:
    if not _requires(ctx):
        raise illegal("requirement_not_held", building=ctx.building.id)
    goods = _gained(ctx)
    extra = ctx.effect.get("extra")
    if move.extra:
        if not extra:
            raise illegal("no_extra", building=ctx.building.id)
        goods = pay_energy(ctx.cat, ctx.player, goods, move.energy, extra["energy"])
        goods = add(goods, tuple((ctx.cat.index[g], n) for g, n in extra["goods"].items()))
    elif move.energy:
        raise illegal("unexpected_payment", field="energy")
    return ctx.done(goods)


# --- choose: different goods, as many as the base plus one per building of a kind ---


def _choose_count(ctx: Ctx) -> int:
    e = ctx.effect
    n = e.get("base", 0) + sum(
        kinds(ctx.cat, ctx.player, k) * v for k, v in e.get("per_kind", {}).items()
    )
    return min(int(n), len(e["from"]))


def _can_reorder(ctx: Ctx) -> bool:
    return (
        bool(ctx.effect.get("reorder_specials"))
        and len(ctx.state.specials) >= ctx.effect["reorder_specials"]
    )


def choose_options(ctx: Ctx) -> Iterator[Choice]:
    k = _choose_count(ctx)
    if k == 0:
        return
    flags = (False, True) if _can_reorder(ctx) else (False,)
    pool = sorted(ctx.effect["from"], key=ctx.cat.index.__getitem__)
    for combo in itertools.combinations(pool, k):
        for flag in flags:
            yield {"goods": combo, "reorder": True} if flag else {"goods": combo}


def choose_resolve(ctx: Ctx, move: Move) -> State:
    k = _choose_count(ctx)
    goods = move.goods
    if len(goods) != k or len(set(goods)) != k or not set(goods) <= set(ctx.effect["from"]):
        raise illegal("wrong_goods", building=ctx.building.id, count=k)
    state = ctx.done(add(ctx.have, tuple((ctx.cat.index[g], 1) for g in goods)))
    if move.reorder:
        if not _can_reorder(ctx):
            raise illegal("cannot_reorder", building=ctx.building.id)
        n = ctx.effect["reorder_specials"]
        top = state.specials[:n]
        state = replace(state, specials=top[::-1] + state.specials[n:])
    return state


# --- convert: lines of inputs into outputs, with energy, food, bonus francs, by-products ---


def _ceil(units: int, ratio: tuple[int, int]) -> int:
    return -(-units * ratio[0] // ratio[1])


def _line_cost(
    lines: tuple[Line, ...], counts: tuple[int, ...], flat: int
) -> tuple[Amounts, int, int]:
    inputs: dict[int, int] = {}
    food = energy = 0
    for line, n in zip(lines, counts, strict=True):
        for i, k in line.inputs:
            inputs[i] = inputs.get(i, 0) + k * n
        food += line.food * n
        energy += _ceil(n, line.energy)
    if any(counts):
        energy += flat
    return tuple(sorted(inputs.items())), food, energy


def _line_gain(have: Vec, lines: tuple[Line, ...], counts: tuple[int, ...]) -> Vec:
    for line, n in zip(lines, counts, strict=True):
        have = add(have, line.outputs, n)
        have = add(have, ((FRANC, n * line.francs[0] // line.francs[1]),))
        have = add(have, tuple((i, n * a // b) for i, a, b in line.byproducts))
    return have


def _line_limit(ctx: Ctx, line: Line) -> int:
    most = [ctx.have[i] // k for i, k in line.inputs]
    if line.food:
        most.append(sum(ctx.have[i] * v for i, v in _food_table(ctx)) // line.food)
    if not most:
        most.append(line.max if line.max is not None else 0)
    cap = min(most)
    return cap if line.max is None else min(cap, line.max)


def _food_table(ctx: Ctx) -> tuple[tuple[int, int], ...]:
    return values(ctx.cat, FOOD)


def may_convert(building: Building, have: Vec) -> bool:
    """Whether some line's inputs are held (a quick test before paying any fee)."""
    return any(all(have[i] >= k for i, k in line.inputs) for line in building.lines)


def convert_options(ctx: Ctx) -> Iterator[Choice]:
    lines = ctx.building.lines
    limits = [_line_limit(ctx, line) for line in lines]
    if not any(limits):
        return
    ranges = [range(n + 1) for n in limits]
    flat = ctx.effect.get("energy_flat", 0)
    for counts in itertools.product(*ranges):
        total = sum(counts)
        if total == 0 or (ctx.effect.get("choose_one") and total > 1):
            continue
        inputs, food, energy = _line_cost(lines, counts, flat)
        rest = list(ctx.have)
        for i, k in inputs:
            rest[i] -= k
        if min(rest) < 0:
            continue
        choice: Choice = {"counts": counts}
        if food:
            food_pay = canonical_payment(ctx.cat, tuple(rest), food, FOOD)
            if food_pay is None:
                continue
            rest = list(minus(tuple(rest), food_pay))
            choice["food"] = named(ctx.cat, food_pay)
        if energy:
            energy_pay = energy_choice(ctx.cat, ctx.player, tuple(rest), energy)
            if energy_pay is None:
                continue
            choice["energy"] = named(ctx.cat, energy_pay)
        yield choice


def convert_resolve(ctx: Ctx, move: Move) -> State:
    lines = ctx.building.lines
    counts = move.counts
    if len(counts) != len(lines):
        raise illegal("wrong_counts", building=ctx.building.id, lines=len(lines))
    for line, n in zip(lines, counts, strict=True):
        if line.max is not None and n > line.max:
            raise illegal("too_many_times", building=ctx.building.id, most=line.max)
    total = sum(counts)
    if total == 0 or (ctx.effect.get("choose_one") and total > 1):
        raise illegal("wrong_counts", building=ctx.building.id, lines=len(lines))
    inputs, food, energy = _line_cost(lines, counts, ctx.effect.get("energy_flat", 0))
    if not holds(ctx.have, inputs):
        raise illegal("cannot_afford", building=ctx.building.id)
    have = minus(ctx.have, add((0,) * ctx.cat.size, inputs))
    food_pay = vec(ctx.cat, move.food)
    code = payment_error(ctx.cat, have, food_pay, food, FOOD)
    if code:
        raise illegal(f"food_{code}", due=food)
    have = pay_energy(ctx.cat, ctx.player, minus(have, food_pay), move.energy, energy)
    return ctx.done(_line_gain(have, lines, counts))


Options = Callable[[Ctx], Iterator[Choice]]
Resolve = Callable[[Ctx, Move], State]
