"""Goods tuples and payments of food and energy.

A holder's goods are one tuple of counts (index 0 francs, see catalog.py). A *payment* of ``amount``
food (or energy) is a goods tuple that the payer holds, made only of goods with a food (energy) value
(francs count 1 food each, never energy), whose value covers ``amount``, and from which no single
token could be left out with the rest still covering it: no change is given, and nothing is paid for
nothing. :func:`canonical_payment` picks the one payment ``legal_moves`` lists; ``apply`` accepts any.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence

from .catalog import Amounts, Catalog

Vec = tuple[int, ...]

FOOD = "food"
ENERGY = "energy"


def values(cat: Catalog, what: str) -> tuple[tuple[int, int], ...]:
    """(index, value) of every good that pays ``what``, cheapest first; francs last for food."""
    return cat.food_values if what == FOOD else cat.energy_values


def zero(cat: Catalog) -> Vec:
    return (0,) * cat.size


def add(vec: Vec, amounts: Amounts, times: int = 1) -> Vec:
    out = list(vec)
    for i, n in amounts:
        out[i] += n * times
    return tuple(out)


def plus(a: Vec, b: Vec) -> Vec:
    return tuple(map(operator.add, a, b))


def minus(a: Vec, b: Vec) -> Vec:
    return tuple(map(operator.sub, a, b))


def covers(have: Vec, need: Vec) -> bool:
    return all(map(operator.ge, have, need))


def holds(have: Vec, amounts: Amounts, times: int = 1) -> bool:
    return all(have[i] >= n * times for i, n in amounts)


def worth(vec: Vec, table: Iterable[tuple[int, int]]) -> int:
    return sum(vec[i] * v for i, v in table)


def canonical_payment(
    cat: Catalog,
    have: Vec,
    amount: int,
    what: str,
    order: Sequence[tuple[int, int]] | None = None,
) -> Vec | None:
    """The listed payment of ``amount``: cheapest tokens first, then tokens left out while the
    rest still covers (dearest first); ``None`` if ``have`` cannot pay. ``order`` (the (index,
    value) pairs of the goods that pay, in the order to take them) replaces the canonical order."""
    table = values(cat, what) if order is None else order
    if amount <= 0:
        return zero(cat)
    pay = [0] * cat.size
    rest = amount
    for i, v in table:
        if rest <= 0:
            break
        take = min(have[i], -(-rest // v))
        pay[i] = take
        rest -= take * v
    if rest > 0:
        return None
    total = amount - rest
    for i, v in reversed(table):
        while pay[i] and total - v >= amount:
            pay[i] -= 1
            total -= v
    return tuple(pay)


def payment_error(cat: Catalog, have: Vec, pay: Vec, amount: int, what: str) -> str | None:
    """Why ``pay`` is not a payment of ``amount`` from ``have``, or ``None``: ``not_payable`` (a
    good without that value), ``cannot_afford``, ``too_little`` or ``overpaid``."""
    table = dict(values(cat, what))
    if any(n and i not in table for i, n in enumerate(pay)):
        return "not_payable"
    if not covers(have, pay):
        return "cannot_afford"
    total = sum(n * table[i] for i, n in enumerate(pay) if n)
    if total < max(amount, 0):
        return "too_little"
    if any(n and total - table[i] >= amount for i, n in enumerate(pay)):
        return "overpaid"
    return None
