"""Paying for things a player holds: building materials (with substitutes) and energy.

Materials are paid without a choice: each basic good first, and its substitute (brick for clay,
steel for iron) only for what the basic good cannot cover. Energy is an explicit payment in the
move (goods.py); a Wind Farm covers part of each energy payment of its owner.
"""

from __future__ import annotations

from .catalog import Amounts, Building, Catalog
from .errors import illegal
from .goods import ENERGY, Vec, canonical_payment, covers, minus, payment_error
from .moves import Named
from .state import Player


def material_payment(cat: Catalog, have: Vec, cost: Amounts) -> Vec | None:
    """What paying ``cost`` takes from ``have`` (basic goods first), or ``None``."""
    need = [0] * cat.size
    for i, n in cost:
        need[i] += n
    for sub, basic in cat.substitutes:
        short = need[basic] - have[basic]
        if short > 0:
            need[basic] -= short
            need[sub] += short
    pay = tuple(need)
    return pay if covers(have, pay) else None


def passive_total(cat: Catalog, player: Player, key: str) -> int:
    """The sum of a passive rule's number over the player's buildings (e.g. Wind Farm energy)."""
    total = 0
    for bid in player.buildings:
        value = cat.buildings[bid].passive.get(key)
        if isinstance(value, int):
            total += value
    return total


def energy_due(cat: Catalog, player: Player, amount: int) -> int:
    if amount <= 0:
        return 0
    return max(0, amount - passive_total(cat, player, "energy_per_payment"))


def vec(cat: Catalog, named: Named) -> Vec:
    out = [0] * cat.size
    for name, n in named:
        out[cat.index[name]] = n
    return tuple(out)


_NAMED: dict[tuple[int, Vec], Named] = {}


def named(cat: Catalog, v: Vec) -> Named:
    """The move form of a goods tuple (remembered: the same few payments recur)."""
    key = (id(cat), v)
    found = _NAMED.get(key)
    if found is None:
        found = tuple((cat.names[i], n) for i, n in enumerate(v) if n)
        if len(_NAMED) < 100_000:
            _NAMED[key] = found
    return found


def pay_energy(cat: Catalog, player: Player, have: Vec, given: Named, amount: int) -> Vec:
    """``have`` after the move's energy payment of ``amount``; refuses a wrong payment."""
    due = energy_due(cat, player, amount)
    pay = vec(cat, given)
    code = payment_error(cat, have, pay, due, ENERGY)
    if code:
        raise illegal(f"energy_{code}", due=due)
    return minus(have, pay)


def energy_choice(cat: Catalog, player: Player, have: Vec, amount: int) -> Vec | None:
    """The listed energy payment of ``amount`` from ``have``, or ``None``."""
    return canonical_payment(cat, have, energy_due(cat, player, amount), ENERGY)


def construction_cost(
    cat: Catalog, player: Player, building: Building, discount: Amounts
) -> Amounts:
    """A building's materials less a firm's discount and the player's passive discounts."""
    cuts = list(discount)
    for bid in player.buildings:
        for name, n in cat.buildings[bid].passive.get("construction_discount", {}).items():
            cuts.append((cat.index[name], n))
    key = (id(cat), building.id, tuple(cuts))
    found = _COSTS.get(key)
    if found is None:
        found = _COSTS[key] = _less(cat, building, cuts)
    return found


_COSTS: dict[tuple[int, str, Amounts], Amounts] = {}


def _less(cat: Catalog, building: Building, cuts: list[tuple[int, int]]) -> Amounts:
    need = dict(building.materials or ())
    for i, n in cuts:
        target = i
        if need.get(i, 0) == 0:
            target = next((s for s, b in cat.substitutes if b == i), i)
        if need.get(target, 0):
            need[target] = max(0, need[target] - n)
    return tuple(sorted((i, n) for i, n in need.items() if n))
