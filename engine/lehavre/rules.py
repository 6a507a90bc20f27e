"""``legal_moves`` and ``apply``: who may do what, when (docs/le-havre/spec.md).

``legal_moves`` lists, in a fixed order, one move per distinct choice, with the canonical payment
(goods.py) for each; ``apply`` accepts any valid payment. Order: take (offer-space order), enter
(catalog order of buildings, then the effect's options), buy (buildings in catalog order, then
ships by pile), sell (the same order), repay, end, feed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import effects, market, trades, works
from .catalog import FRANC, Building
from .effects import Ctx
from .errors import illegal
from .flow import end_turn, food_owed, next_feed
from .goods import FOOD, add, canonical_payment, minus, payment_error, values, worth
from .moves import Move, Named, parse_move
from .payments import named, vec
from .state import Player, State, replace

EFFECTS: dict[str, tuple[effects.Options, effects.Resolve, tuple[str, ...]]] = {
    "gain": (effects.gain_options, effects.gain_resolve, ("extra", "energy")),
    "choose": (effects.choose_options, effects.choose_resolve, ("goods", "reorder")),
    "convert": (effects.convert_options, effects.convert_resolve, ("counts", "food", "energy")),
    "build": (works.build_options, works.build_resolve, ("build",)),
    "wharf": (works.wharf_options, works.wharf_resolve, ("ship", "energy", "exchange")),
    "shipping": (works.shipping_options, works.shipping_resolve, ("give", "energy")),
    "trade_any": (trades.trade_options, trades.trade_resolve, ("give", "get")),
    "bridge": (trades.bridge_options, trades.bridge_resolve, ("give",)),
    "black_market": (trades.black_market_options, trades.black_market_resolve, ()),
    "local_court": (trades.court_options, trades.court_resolve, ()),
    "arts_centre": (trades.arts_options, trades.arts_resolve, ()),
    "haulage": (trades.haulage_options, trades.haulage_resolve, ("offers",)),
    "zoo": (trades.zoo_options, trades.zoo_resolve, ()),
}
"""Effect kind -> (options, resolve, the choice fields its move may carry)."""

WATCH = "harbour_watch"
"""The effect kind that uses a building another player's disc stands in."""

CHOICE_FIELDS = (
    "energy",
    "food",
    "give",
    "counts",
    "goods",
    "build",
    "ship",
    "get",
    "offers",
    "extra",
    "reorder",
    "exchange",
)
MAIN = ("main", "final")
OWN_TURN = ("main", "after", "final", "final_after")


def _built(st: State) -> list[tuple[Building, int]]:
    """Every built building with its owner (-1 the town), in catalog order."""
    owners = dict.fromkeys(st.town, -1)
    for seat, p in enumerate(st.players):
        owners.update(dict.fromkeys(p.buildings, seat))
    cat = st.catalog
    return [(cat.buildings[bid], owners[bid]) for bid in sorted(owners, key=cat.order.__getitem__)]


def _fee_due(b: Building, owner: int, seat: int) -> tuple[int | None, int | None]:
    if owner == seat or b.fee is None:
        return None, None
    return b.fee.food, b.fee.franc


_FRANCS: dict[tuple[int, int], tuple[int, ...]] = {}


def _francs(size: int, n: int) -> tuple[int, ...]:
    """A goods tuple of ``n`` francs (remembered)."""
    found = _FRANCS.get((size, n))
    if found is None:
        found = _FRANCS[(size, n)] = (n,) + (0,) * (size - 1)
    return found


def _fee_choice(st: State, b: Building, owner: int, seat: int) -> Any:
    food, franc = _fee_due(b, owner, seat)
    have = st.players[seat].goods
    if food is None and franc is None:
        return _francs(st.catalog.size, 0)
    if franc is not None and have[FRANC] >= franc:
        return _francs(st.catalog.size, franc)
    if food is not None:
        return canonical_payment(st.catalog, have, food, FOOD)
    return None if franc is not None else (0,) * st.catalog.size


def _enterable(st: State, b: Building, seat: int) -> str | None:
    """Why ``seat`` may not enter ``b`` now (a code), or ``None``."""
    if b.fee is None or (b.effect_kind not in EFFECTS and b.effect_kind != WATCH):
        return "not_enterable"
    if st.players[seat].disc == b.id:
        return "already_there"
    if st.phase != "final" and any(p.disc == b.id for p in st.players):
        return "occupied"
    return None


def _pay_fee(st: State, b: Building, owner: int, seat: int, move: Move) -> State:
    food, franc = _fee_due(b, owner, seat)
    pay = vec(st.catalog, move.fee)
    have = st.players[seat].goods
    if food is None and franc is None:
        if any(pay):
            raise illegal("fee_not_due", building=b.id)
        return st
    exact = franc is not None and pay == add((0,) * len(pay), ((FRANC, franc),))
    if exact and franc is not None and have[FRANC] < franc:
        raise illegal("fee_cannot_afford", building=b.id)
    if not exact:
        code = "not_payable" if food is None else payment_error(st.catalog, have, pay, food, FOOD)
        if code:
            raise illegal(f"fee_{code}", building=b.id, food=food, francs=franc)
    st = st.with_player(seat, replace(st.players[seat], goods=minus(have, pay)))
    if owner >= 0:
        host = st.players[owner]
        st = st.with_player(
            owner, replace(host, goods=tuple(a + c for a, c in zip(host.goods, pay, strict=True)))
        )
    return st


def _enter_moves(st: State, seat: int) -> Iterator[Move]:
    """The listed entries; an effect's options read the visitor's goods after the fee."""
    me, cat = st.players[seat], st.catalog
    blocked = {me.disc} if st.phase == "final" else {p.disc for p in st.players}
    visitors: dict[Any, tuple[Any, Named, Player]] = {}  # fee due -> (payment, its form, visitor)
    for b, owner in _built(st):
        kind = b.effect_kind
        if b.fee is None or b.id in blocked or (kind not in EFFECTS and kind != WATCH):
            continue
        if kind == "convert" and not effects.may_convert(b, me.goods):
            continue
        due = _fee_due(b, owner, seat)
        if due not in visitors:
            fee = _fee_choice(st, b, owner, seat)
            paid = () if fee is None else named(cat, fee)
            visitor = (
                me
                if fee is None or not paid
                else Player(minus(me.goods, fee), me.loans, me.buildings, me.ships, me.disc)
            )
            visitors[due] = (fee, paid, visitor)
        fee, paid, visitor = visitors[due]
        if fee is None:
            continue
        if kind == WATCH:
            yield from _watch_moves(st, seat, b, owner, fee)
            continue
        for choice in EFFECTS[kind][0](Ctx(st, seat, b, visitor, cat)):
            yield Move("enter", building=b.id, fee=paid, **choice)


def _enter(st: State, move: Move) -> State:
    seat, cat = st.current, st.catalog
    b = cat.buildings[move.building or ""]
    owner = st.owner(b.id)
    if owner is None:
        raise illegal("not_built", building=b.id)
    code = _enterable(st, b, seat)
    if code:
        raise illegal(code, building=b.id)
    if b.effect_kind == WATCH:
        return _watch(st, move, b, owner)
    if move.target is not None or move.target_fee:
        raise illegal("unexpected_choice", building=b.id, field="target")
    _, resolve, allowed = EFFECTS[b.effect_kind]
    for name in CHOICE_FIELDS:
        if name not in allowed and getattr(move, name) not in ((), False, None):
            raise illegal("unexpected_choice", building=b.id, field=name)
    paid = _pay_fee(st, b, owner, seat, move)
    after = resolve(Ctx(paid, seat, b, paid.players[seat], cat), move)
    if after == paid:
        raise illegal("no_effect", building=b.id)
    player = replace(after.players[seat], disc=b.id)
    return replace(
        after.with_player(seat, player), phase="after" if st.phase == "main" else "final_after"
    )


def _occupants(st: State, seat: int, target: str) -> list[int]:
    return [s for s, p in enumerate(st.players) if s != seat and p.disc == target]


def _watch_moves(st: State, seat: int, b: Building, owner: int, fee: Any) -> Iterator[Move]:
    """The Harbour Watch: for each building another player's disc stands in, its entry."""
    cat = st.catalog
    compensation = b.effect["compensation"]
    paid = _pay_fee(st, b, owner, seat, Move("enter", fee=named(cat, fee)))
    for t, owner in _built(st):
        guests = _occupants(st, seat, t.id)
        if not guests or t.effect_kind not in EFFECTS or t.fee is None or t.id == b.id:
            continue
        if st.players[seat].disc == t.id:
            continue
        t_fee = _fee_choice(paid, t, owner, seat)
        me = paid.players[seat]
        if t_fee is None:
            continue
        goods = add(minus(me.goods, t_fee), ((FRANC, -compensation * len(guests)),))
        if min(goods) < 0:
            continue
        visitor = Player(goods, me.loans, me.buildings, me.ships, me.disc)
        for choice in EFFECTS[t.effect_kind][0](Ctx(paid, seat, t, visitor, cat)):
            yield Move(
                "enter",
                building=b.id,
                fee=named(cat, fee),
                target=t.id,
                target_fee=named(cat, t_fee),
                **choice,
            )


def _watch(st: State, move: Move, b: Building, owner: int) -> State:
    """Harbour Watch: pay its fee, the target's fee and each displaced player's compensation;
    the displaced discs go home and the visitor's disc takes the target's effect and place."""
    seat, cat = st.current, st.catalog
    target = cat.buildings.get(move.target or "")
    t_owner = None if target is None else st.owner(target.id)
    if target is None or t_owner is None or target.effect_kind not in EFFECTS:
        raise illegal("not_a_watch_target", building=b.id, target=move.target)
    guests = _occupants(st, seat, target.id)
    if not guests or st.players[seat].disc == target.id or target.fee is None:
        raise illegal("not_a_watch_target", building=b.id, target=target.id)
    st = _pay_fee(st, b, owner, seat, move)
    st = _pay_fee(st, target, t_owner, seat, Move("enter", fee=move.target_fee))
    compensation = b.effect["compensation"]
    for guest in guests:
        me = st.players[seat]
        if me.goods[FRANC] < compensation:
            raise illegal("cannot_compensate", building=b.id, francs=compensation)
        st = st.with_player(seat, replace(me, goods=add(me.goods, ((FRANC, -compensation),))))
        host = st.players[guest]
        st = st.with_player(
            guest, replace(host, goods=add(host.goods, ((FRANC, compensation),)), disc=None)
        )
    _, resolve, allowed = EFFECTS[target.effect_kind]
    for name in CHOICE_FIELDS:
        if name not in allowed and getattr(move, name) not in ((), False, None):
            raise illegal("unexpected_choice", building=target.id, field=name)
    after = resolve(Ctx(st, seat, target, st.players[seat], cat), move)
    if after == st:
        raise illegal("no_effect", building=target.id)
    player = replace(after.players[seat], disc=target.id)
    return replace(
        after.with_player(seat, player), phase="after" if after.phase == "main" else "final_after"
    )


def _take(st: State, move: Move) -> State:
    cat = st.catalog
    good = cat.index.get(move.offer or "", -1)
    if good not in cat.offer_spaces:
        raise illegal("not_an_offer_space", offer=move.offer)
    k = cat.offer_spaces.index(good)
    if not st.offers[k]:
        raise illegal("empty_offer", offer=move.offer)
    p = st.players[st.current]
    offers = (*st.offers[:k], 0, *st.offers[k + 1 :])
    st = st.with_player(st.current, replace(p, goods=add(p.goods, ((good, st.offers[k]),))))
    return replace(st, offers=offers, phase="after" if st.phase == "main" else "final_after")


def _feed(st: State, move: Move) -> State:
    cat = st.catalog
    p = st.players[st.current]
    owed = food_owed(st, p, st.cards[st.round - 1])
    pay = vec(cat, move.payment)
    table = values(cat, FOOD)
    have = worth(p.goods, table)
    if have >= owed:
        code = payment_error(cat, p.goods, pay, owed, FOOD)
        if code:
            raise illegal(f"feed_{code}", owed=owed)
        p = replace(p, goods=minus(p.goods, pay))
    else:
        everything = tuple(p.goods[i] if i in dict(table) else 0 for i in range(cat.size))
        if pay != everything:
            raise illegal("feed_must_pay_everything", owed=owed)
        short = owed - have
        loans = -(-short // cat.loans.francs)
        goods = add(minus(p.goods, pay), ((FRANC, loans * cat.loans.francs - short),))
        p = replace(p, goods=goods, loans=p.loans + loans)
    return next_feed(st.with_player(st.current, p))


def feed_choice(st: State) -> Move:
    """The listed feed move of the player to feed."""
    cat = st.catalog
    p = st.players[st.current]
    owed = food_owed(st, p, st.cards[st.round - 1])
    pay = canonical_payment(cat, p.goods, owed, FOOD)
    if pay is None:
        table = dict(values(cat, FOOD))
        pay = tuple(n if i in table else 0 for i, n in enumerate(p.goods))
    return Move("feed", payment=named(cat, pay))


def _take_moves(st: State) -> Iterator[Move]:
    cat = st.catalog
    for good, count in zip(cat.offer_spaces, st.offers, strict=True):
        if count:
            yield Move("take", offer=cat.names[good])


def legal_moves(st: State) -> list[Move]:
    """Every move listed for the player to move, in the fixed order of the spec."""
    phase = st.phase
    if phase == "over":
        return []
    if phase == "feed":
        return [feed_choice(st), *market.sell_moves(st)]
    out: list[Move] = []
    if phase in MAIN:
        out += _take_moves(st)
        out += _enter_moves(st, st.current)
    if phase in ("main", "after"):
        out += market.buy_moves(st)
    out += market.sell_moves(st)
    if market.can_repay(st):
        out.append(Move("repay"))
    if phase not in MAIN or not any(m.type in ("take", "enter") for m in out):
        out.append(Move("end"))
    return out


def _has_main(st: State) -> bool:
    return (
        next(_take_moves(st), None) is not None
        or next(_enter_moves(st, st.current), None) is not None
    )


def apply(st: State, move: Move | Any) -> State:
    """The state after ``move``; :class:`MalformedMove` or :class:`IllegalMove` change nothing."""
    if not isinstance(move, Move):
        move = parse_move(move, st.catalog)
    phase, kind = st.phase, move.type
    if phase == "over":
        raise illegal("game_over")
    if phase == "feed":
        if kind == "feed":
            return _feed(st, move)
        if kind == "sell":
            return market.sell(st, move)
        raise illegal("must_feed", type=kind)
    if kind == "feed":
        raise illegal("not_feeding")
    if kind in ("take", "enter"):
        if phase not in MAIN:
            raise illegal("main_action_done", type=kind)
        return _take(st, move) if kind == "take" else _enter(st, move)
    if kind == "buy":
        if phase not in ("main", "after"):
            raise illegal("no_buying_now")
        return market.buy(st, move)
    if kind == "sell":
        return market.sell(st, move)
    if kind == "repay":
        return market.repay(st)
    if phase in MAIN and _has_main(st):
        raise illegal("main_action_due")
    return end_turn(replace(st, phase="final_after" if phase == "final" else phase))
