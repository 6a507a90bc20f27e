"""The warehouse: cells, steps, gains with steps lost at the edges, and minimal payments.

A counter on ``(row, col)`` stands for ``row_value*row + column_value*col`` goods.

Gaining moves a counter one step at a time; "a step whose target cell does not exist is lost: that
counter stays where it is, and the rest of the effect goes on. A diagonal step at an edge is lost
whole."

Paying moves counters down and/or left only. For each paying good it is a displacement
``(down a, left b)`` that pays ``row_value*a + column_value*b``. A payment is valid when every target
cell exists, it covers the cost, and it is *minimal*: "no step can be left out" — no other displacement
set that is componentwise smaller or equal also covers the cost ("there is no change").
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from itertools import product

from .catalog import FOOD, GOODS, Cell, Warehouse

STEPS: dict[str, tuple[int, int]] = {
    "R": (0, 1),
    "U": (1, 0),
    "UR": (1, 1),
    "UL": (1, -1),
    "L": (0, -1),
    "D": (-1, 0),
    "DL": (-1, -1),
}

Displacement = tuple[int, int]
"""``(down, left)`` of one good's counter in a payment."""

Payment = tuple[tuple[str, int, int], ...]
"""A payment in canonical form: ``(good, down, left)`` entries sorted by good, no all-zero entries."""

GOOD_INDEX = {good: i for i, good in enumerate(GOODS)}


def gain(warehouse: Warehouse, cell: Cell, step: str, count: int) -> tuple[Cell, int]:
    """Move a counter ``count`` times by ``step``; return the new cell and the number of steps lost."""
    drow, dcol = STEPS[step]
    row, col = cell
    lost = 0
    for _ in range(count):
        if warehouse.exists(row + drow, col + dcol):
            row += drow
            col += dcol
        else:
            lost += 1
    return (row, col), lost


def payment_json(payment: Payment) -> dict[str, dict[str, int]]:
    """The notation of SPEC §2: ``{"clay": {"left": 2}}``; zero fields omitted."""
    result: dict[str, dict[str, int]] = {}
    for good, down, left in payment:
        entry: dict[str, int] = {}
        if down:
            entry["down"] = down
        if left:
            entry["left"] = left
        result[good] = entry
    return result


def paid_amounts(
    warehouse: Warehouse, payment: Payment | Mapping[str, Mapping[str, int]]
) -> dict[str, int]:
    """How many goods of each kind a payment pays: ``row_value*down + column_value*left`` per good.

    ``payment`` is canonical (``(good, down, left)`` entries) or in its JSON notation
    (``{"clay": {"left": 2}}``).
    """
    if isinstance(payment, Mapping):
        payment = tuple(
            (good, int(step.get("down", 0)), int(step.get("left", 0)))
            for good, step in payment.items()
        )
    return {
        good: warehouse.row_value * down + warehouse.column_value * left
        for good, down, left in payment
    }


def can_pay(warehouse: Warehouse, cells: list[Cell] | tuple[Cell, ...], payment: Payment) -> bool:
    """Whether every counter's final cell exists (only the final cell matters)."""
    for good, down, left in payment:
        row, col = cells[GOOD_INDEX[good]]
        if not warehouse.exists(row - down, col - left):
            return False
    return True


def pay(cells: list[Cell], payment: Payment) -> None:
    """Move the counters of ``cells`` (in :data:`GOODS` order) by ``payment``, in place."""
    for good, down, left in payment:
        i = GOOD_INDEX[good]
        row, col = cells[i]
        cells[i] = (row - down, col - left)


@cache
def minimal_payments(
    warehouse: Warehouse, cost: tuple[tuple[str, int], ...]
) -> tuple[Payment, ...]:
    """Every minimal payment of ``cost``, whatever the position (the board bounds the displacements).

    ``cost`` is ``(("food", n),)`` — fish and grain together — or wood/clay entries paid per good.
    Which of them a player can make depends on where the counters are: see :func:`can_pay`.
    """
    if len(cost) == 1 and cost[0][0] == "food":
        return _minimal_food_payments(warehouse, cost[0][1])
    per_good: list[list[tuple[str, int, int]]] = []
    for good, amount in cost:
        options = [
            (good, downs[0], lefts[0])
            for downs, lefts in _minimal_displacements(warehouse, amount, goods=1)
        ]
        per_good.append(options)
    payments = []
    for combination in product(*per_good):
        payments.append(tuple(entry for entry in combination if entry[1] or entry[2]))
    return tuple(sorted(payments))


def _minimal_food_payments(warehouse: Warehouse, amount: int) -> tuple[Payment, ...]:
    payments = []
    for downs, lefts in _minimal_displacements(warehouse, amount, goods=len(FOOD)):
        payment = tuple(
            (good, down, left)
            for good, down, left in zip(FOOD, downs, lefts, strict=True)
            if down or left
        )
        payments.append(payment)
    return tuple(sorted(payments))


def _minimal_displacements(
    warehouse: Warehouse, amount: int, goods: int
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """All ``(downs, lefts)`` over ``goods`` counters that cover ``amount`` and are minimal.

    Minimal means that taking one step away from any component no longer covers the amount; since
    the goods paid grow with every component, that is the same as no smaller displacement set
    covering it.
    """
    rv, cv = warehouse.row_value, warehouse.column_value
    ranges = [range(warehouse.rows)] * goods + [range(warehouse.columns)] * goods
    found = []
    for values in product(*ranges):
        downs, lefts = values[:goods], values[goods:]
        paid = rv * sum(downs) + cv * sum(lefts)
        if paid < amount:
            continue
        if any(d and paid - rv >= amount for d in downs):
            continue
        if any(b and paid - cv >= amount for b in lefts):
            continue
        found.append((tuple(downs), tuple(lefts)))
    return found
