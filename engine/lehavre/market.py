"""Buying and selling buildings and ships, and repaying loans, at any time of one's own turn.

Buying (not in the final stage): a town building or the top of a proposal stack at its price; the
top ship of a pile whose type has a price. Selling: to the town for half the value rounded down; a
building joins the town, a ship goes back on top of its pile. A card sold this turn cannot be bought
back in the same turn. A building changing hands sends any person disc in it back to its owner.
"""

from __future__ import annotations

from collections.abc import Iterator

from .catalog import FRANC
from .errors import illegal
from .goods import add
from .moves import Move
from .state import Player, State, replace


def _free_discs(st: State, building: str) -> State:
    players = tuple(replace(p, disc=None) if p.disc == building else p for p in st.players)
    return replace(st, players=players)


def _pay(p: Player, francs: int) -> Player:
    return replace(p, goods=add(p.goods, ((FRANC, -francs),)))


def buy_moves(st: State) -> Iterator[Move]:
    cat, p = st.catalog, st.players[st.current]
    francs = p.goods[FRANC]
    offered = list(st.town) + [s[0] for s in st.proposals if s]
    for bid in sorted(offered, key=cat.order.__getitem__):
        price = cat.buildings[bid].price
        if price is not None and price <= francs and bid not in st.sold:
            yield Move("buy", building=bid)
    for t, pile in zip(cat.ship_types, st.piles, strict=True):
        if pile and t.price is not None and t.price <= francs and pile[0] not in st.sold:
            yield Move("buy", ship=pile[0])


def buy(st: State, move: Move) -> State:
    cat, seat = st.catalog, st.current
    p = st.players[seat]
    if move.building is not None:
        bid = move.building
        price = cat.buildings[bid].price
        in_town = bid in st.town
        stack = next((k for k, s in enumerate(st.proposals) if s and s[0] == bid), None)
        if not in_town and stack is None:
            raise illegal("not_for_sale", building=bid)
        if price is None:
            raise illegal("cannot_be_bought", building=bid)
        if bid in st.sold:
            raise illegal("sold_this_turn", building=bid)
        if p.goods[FRANC] < price:
            raise illegal("cannot_afford", building=bid, price=price)
        if in_town:
            st = replace(st, town=tuple(b for b in st.town if b != bid))
        else:
            assert stack is not None
            st = replace(
                st,
                proposals=(
                    *st.proposals[:stack],
                    st.proposals[stack][1:],
                    *st.proposals[stack + 1 :],
                ),
            )
        st = _free_discs(st, bid)
        p = st.players[seat]
        return st.with_player(seat, replace(_pay(p, price), buildings=(*p.buildings, bid)))
    sid = move.ship or ""
    k = next((k for k, pile in enumerate(st.piles) if pile and pile[0] == sid), None)
    if k is None:
        raise illegal("not_for_sale", ship=sid)
    price = cat.ship_types[k].price
    if price is None:
        raise illegal("cannot_be_bought", ship=sid)
    if sid in st.sold:
        raise illegal("sold_this_turn", ship=sid)
    if p.goods[FRANC] < price:
        raise illegal("cannot_afford", ship=sid, price=price)
    st = replace(st, piles=(*st.piles[:k], st.piles[k][1:], *st.piles[k + 1 :]))
    return st.with_player(seat, replace(_pay(p, price), ships=(*p.ships, sid)))


def sell_moves(st: State) -> Iterator[Move]:
    cat, p = st.catalog, st.players[st.current]
    for bid in sorted(p.buildings, key=cat.order.__getitem__):
        yield Move("sell", building=bid)
    for sid in sorted(p.ships):
        yield Move("sell", ship=sid)


def sell(st: State, move: Move) -> State:
    cat, seat = st.catalog, st.current
    p = st.players[seat]
    if move.building is not None:
        bid = move.building
        if bid not in p.buildings:
            raise illegal("not_yours", building=bid)
        p = replace(p, buildings=tuple(b for b in p.buildings if b != bid))
        p = _pay(p, -(cat.buildings[bid].value // 2))
        st = _free_discs(replace(st.with_player(seat, p), town=(*st.town, bid)), bid)
        return replace(st, sold=(*st.sold, bid))
    sid = move.ship or ""
    if sid not in p.ships:
        raise illegal("not_yours", ship=sid)
    ship = cat.ships[sid]
    k = next(k for k, t in enumerate(cat.ship_types) if t.id == ship.type)
    p = _pay(replace(p, ships=tuple(s for s in p.ships if s != sid)), -(ship.value // 2))
    st = replace(
        st.with_player(seat, p), piles=(*st.piles[:k], (sid, *st.piles[k]), *st.piles[k + 1 :])
    )
    return replace(st, sold=(*st.sold, sid))


def can_repay(st: State) -> bool:
    p = st.players[st.current]
    return p.loans > 0 and p.goods[FRANC] >= st.catalog.loans.repay


def repay(st: State) -> State:
    if not can_repay(st):
        raise illegal("cannot_repay", cost=st.catalog.loans.repay)
    p = st.players[st.current]
    p = replace(_pay(p, st.catalog.loans.repay), loans=p.loans - 1)
    return st.with_player(st.current, p)
