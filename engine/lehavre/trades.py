"""Effects that trade with the town or count what a player has: the Business Office, the Bridge,
the Black Market, the Local Court, the Arts Centre, the Haulage Firm and the Zoo."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from .catalog import FRANC
from .effects import Choice, Ctx
from .errors import illegal
from .goods import Vec, add, covers, minus
from .moves import Move
from .payments import named, vec
from .state import State, replace


def _cheapest(ctx: Ctx, have: Vec, count: int, basic_only: bool = False) -> Vec | None:
    """``count`` goods from ``have``, lowest franc value first (then catalog order)."""
    give = [0] * ctx.cat.size
    for g in sorted(ctx.cat.goods, key=lambda g: (g.franc_value, g.index)):
        if basic_only and g.basic is not None:
            continue
        take = min(have[g.index], count)
        give[g.index], count = take, count - take
    return tuple(give) if count == 0 else None


# --- trade_any (Business Office): any N goods for one good of an option, each option once ---


def trade_options(ctx: Ctx) -> Iterator[Choice]:
    options = ctx.effect["options"]
    for used in itertools.product(*[[None, *o["get"]] for o in options]):
        got = tuple(g for g in used if g is not None)
        if not got:
            continue
        count = sum(o["give"] for o, g in zip(options, used, strict=True) if g is not None)
        give = _cheapest(ctx, ctx.have, count)
        if give is not None and named(ctx.cat, give) != tuple((g, 1) for g in got):
            yield {
                "give": named(ctx.cat, give),
                "get": tuple(sorted(got, key=ctx.cat.index.__getitem__)),
            }


def trade_resolve(ctx: Ctx, move: Move) -> State:
    options = ctx.effect["options"]
    count, left = 0, list(move.get)
    for o in options:
        mine = [g for g in left if g in o["get"]]
        if len(mine) > 1:
            raise illegal("trade_option_twice", building=ctx.building.id)
        if mine:
            left.remove(mine[0])
            count += o["give"]
    give = vec(ctx.cat, move.give)
    if left or not move.get or give[FRANC] or sum(give) != count:
        raise illegal("wrong_trade", building=ctx.building.id, give=count)
    if not covers(ctx.have, give):
        raise illegal("cannot_afford", building=ctx.building.id)
    have = add(minus(ctx.have, give), tuple((ctx.cat.index[g], 1) for g in move.get))
    return ctx.done(have)


# --- bridge: francs for goods, per upgraded good and per N standard goods ---


def _bridge_francs(ctx: Ctx, give: Vec) -> int | None:
    upgraded = sum(give[g.index] for g in ctx.cat.goods if g.basic is not None)
    standard = sum(give[g.index] for g in ctx.cat.goods if g.basic is None)
    per = ctx.effect["standard_per_franc"]
    if standard % per:
        return None
    return int(upgraded * ctx.effect["per_upgraded"] + standard // per)


def bridge_options(ctx: Ctx) -> Iterator[Choice]:
    per = ctx.effect["standard_per_franc"]
    standard = sum(ctx.have[g.index] for g in ctx.cat.goods if g.basic is None)
    basic = (
        _cheapest(ctx, ctx.have, standard - standard % per, basic_only=True) or (0,) * ctx.cat.size
    )
    upgraded = tuple(
        n if i != FRANC and ctx.cat.goods[i - 1].basic is not None else 0
        for i, n in enumerate(ctx.have)
    )
    seen = set()
    for give in (basic, add(basic, tuple(enumerate(upgraded)))):
        if any(give) and give not in seen:
            seen.add(give)
            yield {"give": named(ctx.cat, give)}


def bridge_resolve(ctx: Ctx, move: Move) -> State:
    give = vec(ctx.cat, move.give)
    francs = None if give[FRANC] else _bridge_francs(ctx, give)
    if not francs or not covers(ctx.have, give):
        raise illegal("wrong_sale", building=ctx.building.id, per=ctx.effect["standard_per_franc"])
    return ctx.done(add(minus(ctx.have, give), ((FRANC, francs),)))


# --- black market: from the supply, some of every item whose offer space is empty ---


def _black_market(ctx: Ctx) -> Vec:
    n = ctx.effect["amount"]
    gain = tuple(
        (g, n)
        for g, count in zip(ctx.cat.offer_spaces, ctx.state.offers, strict=True)
        if count == 0
    )
    return add(ctx.have, gain)


def black_market_options(ctx: Ctx) -> Iterator[Choice]:
    if 0 in ctx.state.offers:
        yield {}


def black_market_resolve(ctx: Ctx, move: Move) -> State:
    return ctx.done(_black_market(ctx))


# --- local court: loans returned for free ---


def _court(ctx: Ctx) -> dict[str, int] | None:
    rows = [r for r in ctx.effect["by_loans"] if r["loans"] <= ctx.player.loans]
    return max(rows, key=lambda r: int(r["loans"])) if rows else None


def court_options(ctx: Ctx) -> Iterator[Choice]:
    if _court(ctx):
        yield {}


def court_resolve(ctx: Ctx, move: Move) -> State:
    row = _court(ctx)
    if row is None:
        raise illegal("no_loans", building=ctx.building.id)
    return ctx.done(
        add(ctx.have, ((FRANC, row["francs"]),)), loans=ctx.player.loans - row["cancel"]
    )


# --- arts centre: francs per other player's disc in the visitor's buildings ---


def _guests(ctx: Ctx) -> int:
    mine = set(ctx.player.buildings)
    return sum(1 for s, p in enumerate(ctx.state.players) if s != ctx.seat and p.disc in mine)


def arts_options(ctx: Ctx) -> Iterator[Choice]:
    if _guests(ctx):
        yield {}


def arts_resolve(ctx: Ctx, move: Move) -> State:
    return ctx.done(add(ctx.have, ((FRANC, ctx.effect["francs"] * _guests(ctx)),)))


# --- haulage: pay francs, take two neighbouring goods offer spaces ---


def _pairs(ctx: Ctx) -> list[tuple[int, int]]:
    spaces = [k for k, g in enumerate(ctx.cat.offer_spaces) if g != FRANC]
    return [
        (a, b) for a, b in itertools.pairwise(spaces) if ctx.state.offers[a] and ctx.state.offers[b]
    ]


def haulage_options(ctx: Ctx) -> Iterator[Choice]:
    if ctx.have[FRANC] < ctx.effect["francs"]:
        return
    for a, b in _pairs(ctx):
        yield {
            "offers": (
                ctx.cat.names[ctx.cat.offer_spaces[a]],
                ctx.cat.names[ctx.cat.offer_spaces[b]],
            )
        }


def haulage_resolve(ctx: Ctx, move: Move) -> State:
    spaces = [ctx.cat.offer_spaces.index(ctx.cat.index[g]) for g in move.offers]
    if tuple(sorted(spaces)) not in _pairs(ctx):
        raise illegal("not_neighbouring_offers", building=ctx.building.id)
    if ctx.have[FRANC] < ctx.effect["francs"]:
        raise illegal("cannot_afford", building=ctx.building.id)
    have = add(ctx.have, ((FRANC, -ctx.effect["francs"]),))
    offers = list(ctx.state.offers)
    for k in spaces:
        have = add(have, ((ctx.cat.offer_spaces[k], offers[k]),))
        offers[k] = 0
    return replace(ctx.done(have), offers=tuple(offers))


# --- zoo: francs per N of some goods held (kept) ---


def _zoo(ctx: Ctx) -> int:
    held = sum(ctx.have[ctx.cat.index[g]] for g in ctx.effect["counts"])
    return int(held // ctx.effect["per"] * ctx.effect["francs"])


def zoo_options(ctx: Ctx) -> Iterator[Choice]:
    if _zoo(ctx):
        yield {}


def zoo_resolve(ctx: Ctx, move: Move) -> State:
    return ctx.done(add(ctx.have, ((FRANC, _zoo(ctx)),)))
