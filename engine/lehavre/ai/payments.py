"""Food payments a computer player may choose beyond the listed (canonical) one.

``legal_moves`` lists each feeding and each food fee with the canonical payment (fish first, then
smoked fish, bread, meat, francs), and a fee that takes food or francs paid in francs when they
suffice. ``apply`` accepts any minimal payment: :func:`variants` adds the same move paid with the
goods that cost least per unit of food (by the evaluation's values) first, where that differs.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..catalog import Catalog
from ..flow import food_owed
from ..goods import FOOD, Vec, canonical_payment
from ..moves import Move
from ..payments import named, vec
from ..state import State
from .evaluation import tables


def thrifty_payment(cat: Catalog, have: Vec, amount: int) -> Vec | None:
    """A minimal food payment of ``amount`` from ``have``, cheapest food per franc first."""
    t = tables(cat)
    order = sorted(cat.food_values, key=lambda iv: (t.goods_value[iv[0]] or 1.0) / iv[1])
    return canonical_payment(cat, have, amount, FOOD, order)


def _food_due(st: State, move: Move) -> int | None:
    """The food ``move`` pays for, when its payment is a food payment that may be chosen."""
    if move.type == "feed":
        p = st.players[st.current]
        return food_owed(st, p, st.cards[st.round - 1])
    if move.type == "enter" and move.fee and move.building and move.target is None:
        fee = st.catalog.buildings[move.building].fee
        if fee is not None and fee.food is not None:
            return fee.food
    return None


def variants(st: State, moves: list[Move]) -> Iterator[Move]:
    """``moves``, each followed by the same move with the thrifty payment where that differs."""
    cat = st.catalog
    have = st.players[st.current].goods
    for move in moves:
        yield move
        due = _food_due(st, move)
        if not due:
            continue
        pay = thrifty_payment(cat, have, due)
        if pay is None:
            continue
        form = named(cat, pay)
        listed = move.payment if move.type == "feed" else move.fee
        if form != listed and vec(cat, listed) != pay:
            yield move._replace(payment=form) if move.type == "feed" else move._replace(fee=form)
