"""Effects that move cards or offers: construction, shipbuilding, shipping, trading, the court.

Each kind has an options function (the choices ``legal_moves`` lists) and a resolve function
(the state after the effect, or :class:`IllegalMove`), as in effects.py.
"""

from __future__ import annotations

from collections.abc import Iterator

from .catalog import FRANC
from .effects import Choice, Ctx
from .errors import illegal
from .goods import Vec, add, covers, minus
from .moves import Move
from .payments import construction_cost, energy_choice, material_payment, named, pay_energy, vec
from .state import State, replace

# --- build: construct from the tops of the proposal stacks ---


_DISCOUNTS: dict[tuple[int, str], tuple[tuple[int, int], ...]] = {}


def _discount(ctx: Ctx) -> tuple[tuple[int, int], ...]:
    key = (id(ctx.cat), ctx.building.id)
    found = _DISCOUNTS.get(key)
    if found is None:
        discount = ctx.effect.get("discount", {})
        found = _DISCOUNTS[key] = tuple((ctx.cat.index[g], n) for g, n in discount.items())
    return found


def _buildable(ctx: Ctx, bid: str, have: Vec) -> Vec | None:
    """What constructing ``bid`` takes from ``have``, or ``None`` if it cannot be built here."""
    b = ctx.cat.buildings[bid]
    if b.materials is None:
        return None
    need = ctx.effect.get("needs_material")
    if need and not any(ctx.cat.names[i] == need for i, _ in b.materials):
        return None
    cost = construction_cost(ctx.cat, ctx.player, b, _discount(ctx))
    return material_payment(ctx.cat, have, cost)


def _take_top(stacks: tuple[tuple[str, ...], ...], bid: str) -> tuple[tuple[str, ...], ...] | None:
    for k, stack in enumerate(stacks):
        if stack and stack[0] == bid:
            return (*stacks[:k], stack[1:], *stacks[k + 1 :])
    return None


def build_options(ctx: Ctx) -> Iterator[Choice]:
    stacks = ctx.state.proposals
    for k, stack in enumerate(stacks):
        if not stack:
            continue
        first = stack[0]
        pay = _buildable(ctx, first, ctx.have)
        if pay is None:
            continue
        yield {"build": (first,)}
        if ctx.effect["max"] < 2:
            continue
        have = minus(ctx.have, pay)
        after = _take_top(stacks, first) or stacks
        for j, other in enumerate(after):
            if other and j >= k and _buildable(ctx, other[0], have) is not None:
                yield {"build": (first, other[0])}


def build_resolve(ctx: Ctx, move: Move) -> State:
    if not 1 <= len(move.build) <= ctx.effect["max"]:
        raise illegal("wrong_build_count", building=ctx.building.id, most=ctx.effect["max"])
    have, stacks, owned = ctx.have, ctx.state.proposals, ctx.player.buildings
    for bid in move.build:
        after = _take_top(stacks, bid)
        if after is None:
            raise illegal("not_a_proposal_top", building=bid)
        pay = _buildable(ctx, bid, have)
        if pay is None:
            raise illegal("cannot_construct", building=bid)
        have, stacks, owned = minus(have, pay), after, (*owned, bid)
    return replace(ctx.done(have, buildings=owned), proposals=stacks)


# --- wharf: build the top ship of a pile ---


def _ship_cost(ctx: Ctx, sid: str) -> tuple[tuple[tuple[int, int], ...], int]:
    t = ctx.cat.ship_type(ctx.cat.ships[sid].type)
    cost = t.materials
    if t.needs_modernised_wharf and ctx.building.id not in ctx.state.modernised:
        merged = dict(cost)
        for i, n in ctx.cat.modernise:
            merged[i] = merged.get(i, 0) + n
        cost = tuple(sorted(merged.items()))
    return cost, t.energy


def _exchanges(ctx: Ctx) -> Iterator[tuple[str, str]]:
    """(town card, ship) pairs: a card in the town that a ship of its type can be traded for."""
    for bid in ctx.state.town:
        rule = ctx.cat.buildings[bid].passive.get("ship_exchange")
        if rule:
            for sid in sorted(ctx.player.ships):
                if ctx.cat.ships[sid].type == rule["gives_type"]:
                    yield bid, sid


def _exchange(ctx: Ctx, move: Move) -> State:
    """At a Wharf, instead of building: a ship goes back on its pile for the town's card."""
    pair = next((p for p in _exchanges(ctx) if p[1] == move.exchange), None)
    if pair is None or move.ship is not None or move.energy:
        raise illegal("cannot_exchange", ship=move.exchange)
    bid, sid = pair
    k = next(k for k, t in enumerate(ctx.cat.ship_types) if t.id == ctx.cat.ships[sid].type)
    ships = tuple(s for s in ctx.player.ships if s != sid)
    state = ctx.done(ctx.have, ships=ships, buildings=(*ctx.player.buildings, bid))
    piles = (*state.piles[:k], (sid, *state.piles[k]), *state.piles[k + 1 :])
    return replace(state, piles=piles, town=tuple(b for b in state.town if b != bid))


def wharf_options(ctx: Ctx) -> Iterator[Choice]:
    for _, sid in _exchanges(ctx):
        yield {"exchange": sid}
    for pile in ctx.state.piles:
        if not pile:
            continue
        cost, energy = _ship_cost(ctx, pile[0])
        pay = material_payment(ctx.cat, ctx.have, cost)
        if pay is None:
            continue
        e = energy_choice(ctx.cat, ctx.player, minus(ctx.have, pay), energy)
        if e is not None:
            yield {"ship": pile[0], "energy": named(ctx.cat, e)}


def wharf_resolve(ctx: Ctx, move: Move) -> State:
    if move.exchange is not None:
        return _exchange(ctx, move)
    sid = move.ship
    k = next((k for k, p in enumerate(ctx.state.piles) if p and p[0] == sid), None)
    if sid is None or k is None:
        raise illegal("not_a_pile_top", ship=sid)
    cost, energy = _ship_cost(ctx, sid)
    pay = material_payment(ctx.cat, ctx.have, cost)
    if pay is None:
        raise illegal("cannot_afford", ship=sid)
    have = pay_energy(ctx.cat, ctx.player, minus(ctx.have, pay), move.energy, energy)
    piles = (*ctx.state.piles[:k], ctx.state.piles[k][1:], *ctx.state.piles[k + 1 :])
    state = ctx.done(have, ships=(*ctx.player.ships, sid))
    modernised = ctx.state.modernised
    if (
        ctx.cat.ship_type(ctx.cat.ships[sid].type).needs_modernised_wharf
        and ctx.building.id not in modernised
    ):
        modernised = tuple(sorted((*modernised, ctx.building.id)))
    return replace(state, piles=piles, modernised=modernised)


# --- shipping: goods onto the visitor's ships for their franc value ---


def _capacities(ctx: Ctx) -> list[int]:
    caps = [ctx.cat.ship_type(ctx.cat.ships[s].type).capacity for s in ctx.player.ships]
    return sorted((c for c in caps if c > 0), reverse=True)


def _ships_needed(caps: list[int], count: int) -> int | None:
    total = 0
    for k, cap in enumerate(caps):
        total += cap
        if total >= count:
            return k + 1
    return None


def shipping_options(ctx: Ctx) -> Iterator[Choice]:
    caps = _capacities(ctx)
    per = ctx.effect["energy_per_ship"]
    by_value = sorted(ctx.cat.goods, key=lambda g: (-g.franc_value, g.index))
    for k in range(1, len(caps) + 1):
        e = energy_choice(ctx.cat, ctx.player, ctx.have, per * k)
        if e is None:
            break
        rest, room = minus(ctx.have, e), sum(caps[:k])
        give = [0] * ctx.cat.size
        for g in by_value:
            take = min(rest[g.index], room)
            give[g.index], room = take, room - take
        if _ships_needed(caps, sum(give)) == k:
            yield {"give": named(ctx.cat, tuple(give)), "energy": named(ctx.cat, e)}


def shipping_resolve(ctx: Ctx, move: Move) -> State:
    give = vec(ctx.cat, move.give)
    count = sum(give) - give[FRANC]
    if give[FRANC] or count == 0 or not covers(ctx.have, give):
        raise illegal("cannot_ship", building=ctx.building.id)
    k = _ships_needed(_capacities(ctx), count)
    if k is None:
        raise illegal("too_little_capacity", building=ctx.building.id)
    have = pay_energy(
        ctx.cat, ctx.player, minus(ctx.have, give), move.energy, ctx.effect["energy_per_ship"] * k
    )
    francs = sum(give[g.index] * g.franc_value for g in ctx.cat.goods)
    return ctx.done(add(have, ((FRANC, francs),)))
