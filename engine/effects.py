"""What each building does when used (SPEC §6), and which choices a use can make.

The formulas of the effect table (+2 francs per food, 3N, N+1 steps, +5 francs per good, ...) are
rules and live here; the catalog holds costs, values, rates, rounds, the board and the wheel.

``N`` is the multiplier of the building's sector (2, 3, 4; 4 in sector "4+", where the user also gets
1 franc before the effect). Every use is legal whatever its effect achieves: steps lost at an edge and
zero repetitions of an optional effect are allowed. Paid repetitions must each be payable when made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement

from .catalog import FOOD, GOODS, Cell, Warehouse
from .moves import Move, make_move, payment_sort_key
from .warehouse import GOOD_INDEX, STEPS, Payment, can_pay, gain, minimal_payments, pay

LOCKED: frozenset[str] = frozenset(
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
"""Buildings with no usable function: owned, never on the wheel, never used, never force-sold."""


USE_FEE = 1
"""Using a building on the opponent's wheel: "the user first pays its owner 1 franc" (SPEC §6)."""


def is_locked(building_id: str) -> bool:
    return building_id in LOCKED


def has_action(building_id: str) -> bool:
    """Whether a building has a function to use; the :data:`LOCKED` ones are only worth points."""
    return building_id not in LOCKED


def use_fee(owner: int, seat: int) -> int:
    """Francs the player in ``seat`` pays ``owner`` to use their building: 1, or 0 for one's own."""
    return 0 if owner == seat else USE_FEE


@dataclass
class Use:
    """The user's side of one use while it happens: counters, francs and what happened to them."""

    warehouse: Warehouse
    cells: list[Cell]
    francs: int
    effect_francs: int = 0
    paid: dict[str, int] = field(default_factory=dict)
    gained: dict[str, int] = field(default_factory=dict)
    lost_steps: dict[str, int] = field(default_factory=dict)

    def gain(self, good: str, step: str, count: int) -> None:
        i = GOOD_INDEX[good]
        before = self.warehouse.amount(self.cells[i])
        self.cells[i], lost = gain(self.warehouse, self.cells[i], step, count)
        moved = self.warehouse.amount(self.cells[i]) - before
        if moved > 0:
            self.gained[good] = self.gained.get(good, 0) + moved
        elif moved < 0:
            self.paid[good] = self.paid.get(good, 0) - moved
        if lost:
            self.lost_steps[good] = self.lost_steps.get(good, 0) + lost

    def pay_goods(self, payment: Payment) -> None:
        for good, down, left in payment:
            amount = self.warehouse.row_value * down + self.warehouse.column_value * left
            self.paid[good] = self.paid.get(good, 0) + amount
        pay(self.cells, payment)

    def earn(self, francs: int) -> None:
        self.francs += francs
        self.effect_francs += francs


Effect = Callable[[Use, int, Move], None]
Choices = Callable[[str, int, Warehouse, tuple[Cell, ...], int], tuple[Move, ...]]


# --- effects without choices ------------------------------------------------------------------


def _wood_company(use: Use, n: int, move: Move) -> None:
    """Wood ``R`` ×N."""
    use.gain("wood", "R", n)


def _farmland(use: Use, n: int, move: Move) -> None:
    """Grain ``R`` ×N, then wood ``R`` 1, clay ``R`` 1."""
    use.gain("grain", "R", n)
    use.gain("wood", "R", 1)
    use.gain("clay", "R", 1)


def _clay_mound(use: Use, n: int, move: Move) -> None:
    """Clay ``R`` ×(N+1)."""
    use.gain("clay", "R", n + 1)


def _grocery_store(use: Use, n: int, move: Move) -> None:
    """+N francs, then grain ``R`` 1, fish ``R`` 1."""
    use.earn(n)
    use.gain("grain", "R", 1)
    use.gain("fish", "R", 1)


def _farm(use: Use, n: int, move: Move) -> None:
    """Grain ``UR`` ×(N−1): the rulebook's net result of N up-right and 1 down-left."""
    use.gain("grain", "UR", n - 1)


def _diagonal_up_left(good: str) -> Effect:
    def effect(use: Use, n: int, move: Move) -> None:
        use.gain(good, "UL", n)

    effect.__doc__ = f"{good.capitalize()} ``UL`` ×N."
    return effect


def _building_firm(use: Use, n: int, move: Move) -> None:
    """Wood ``R`` ×N and clay ``R`` ×N."""
    use.gain("wood", "R", n)
    use.gain("clay", "R", n)


def _church_square(use: Use, n: int, move: Move) -> None:
    """Grain ``R`` ×N and fish ``R`` ×N."""
    use.gain("grain", "R", n)
    use.gain("fish", "R", n)


def _shipping_line(use: Use, n: int, move: Move) -> None:
    """+3N francs."""
    use.earn(3 * n)


# --- effects with choices ---------------------------------------------------------------------


def _hardware_store(use: Use, n: int, move: Move) -> None:
    """One good of wood/clay: ``R`` ×N."""
    assert move.good is not None
    use.gain(move.good, "R", n)


def _wood_trader(use: Use, n: int, move: Move) -> None:
    """Up to N times: pay 1 franc and a food payment covering 2, then wood ``U`` 1."""
    for payment in move.payments or ():
        use.francs -= 1
        use.effect_francs -= 1
        use.pay_goods(payment)
        use.gain("wood", "U", 1)


def _restaurant(use: Use, n: int, move: Move) -> None:
    """Up to N times: a food payment covering 1, then +2 francs."""
    for payment in move.payments or ():
        use.pay_goods(payment)
        use.earn(2)


def _spread_steps(step: str) -> Effect:
    def effect(use: Use, n: int, move: Move) -> None:
        for good, count in move.steps or ():
            use.gain(good, step, count)

    return effect


def _fish_market(use: Use, n: int, move: Move) -> None:
    """Up to N times: pay 1 franc, then fish ``UR`` 1."""
    for _ in range(move.times or 0):
        use.francs -= 1
        use.effect_francs -= 1
        use.gain("fish", "UR", 1)


def _weekly_market(use: Use, n: int, move: Move) -> None:
    """Up to N times, one good (grain or fish) for all: that good ``D`` 1, then +4 francs."""
    for _ in range(move.times or 0):
        assert move.good is not None
        use.gain(move.good, "D", 1)
        use.earn(4)


def _one_step_each(step: str, francs: int = 0) -> Effect:
    def effect(use: Use, n: int, move: Move) -> None:
        for good in move.goods or ():
            use.gain(good, step, 1)
            if francs:
                use.earn(francs)

    return effect


EFFECTS: dict[str, Effect] = {
    "wood_company": _wood_company,
    "farmland": _farmland,
    "clay_mound": _clay_mound,
    "grocery_store": _grocery_store,
    "hardware_store": _hardware_store,
    "farm": _farm,
    "kiln": _diagonal_up_left("clay"),
    "smokehouse": _diagonal_up_left("fish"),
    "bakehouse": _diagonal_up_left("grain"),
    "sawmill": _diagonal_up_left("wood"),
    "wood_trader": _wood_trader,
    "restaurant": _restaurant,
    "marketplace": _spread_steps("R"),
    "fish_market": _fish_market,
    "building_firm": _building_firm,
    "church_square": _church_square,
    "weekly_market": _weekly_market,
    "masons_guild": _one_step_each("UL"),
    "business_office": _one_step_each("DL", francs=5),
    "shipping_line": _shipping_line,
    "guild_hall": _one_step_each("UR"),
    "pier": _spread_steps("R"),
    "craftsmens_yard": _spread_steps("UL"),
}
"""The effect of every building with a function; the rest are :data:`LOCKED`."""

STEP_COUNT: dict[str, Callable[[int], int]] = {
    "marketplace": lambda n: n,
    "pier": lambda n: n + 2,
    "craftsmens_yard": lambda n: n + 1,
}
"""How many steps the buildings with a ``"steps"`` choice spread over the goods."""


# --- the choices a use can make -----------------------------------------------------------------


def use_moves(
    building: str, n: int, warehouse: Warehouse, cells: tuple[Cell, ...], francs: int
) -> tuple[Move, ...]:
    """Every legal ``use`` move of ``building`` at multiplier ``n``, sorted by canonical string.

    ``cells`` are the user's counters and ``francs`` the user's francs once the fee is paid and the
    4+ franc collected — what the paid repetitions can spend.
    """
    if building in _POSITION_FREE:
        return _fixed_use_moves(building, n)
    return _DEPENDENT[building](building, n, warehouse, cells, francs)


_POSITION_FREE = frozenset(EFFECTS) - {
    "wood_trader",
    "restaurant",
    "fish_market",
    "weekly_market",
    "business_office",
}


@cache
def _fixed_use_moves(building: str, n: int) -> tuple[Move, ...]:
    """Use moves whose legality does not depend on the position."""
    if building == "hardware_store":
        moves = [make_move("use", building, good=g) for g in ("clay", "wood")]
    elif building in STEP_COUNT:
        total = STEP_COUNT[building](n)
        moves = [make_move("use", building, steps=s) for s in _distributions(total)]
    elif building in ("masons_guild", "guild_hall"):
        moves = [make_move("use", building, goods=g) for g in combinations(GOODS, n)]
    else:
        moves = [make_move("use", building)]
    return tuple(sorted(moves))


def _distributions(total: int) -> Iterator[tuple[tuple[str, int], ...]]:
    """Every way to spread ``total`` steps over the goods, as sorted ``(good, count > 0)`` pairs."""
    for picks in combinations_with_replacement(GOODS, total):
        yield tuple((g, picks.count(g)) for g in GOODS if g in picks)


@lru_cache(maxsize=1 << 14)
def _business_office_choices(
    building: str, n: int, warehouse: Warehouse, cells: tuple[Cell, ...], francs: int
) -> tuple[Move, ...]:
    """Up to N different goods, each with a possible ``DL`` step."""
    movable = [
        g for g, (row, col) in zip(GOODS, cells, strict=True) if warehouse.exists(row - 1, col - 1)
    ]
    moves = [
        make_move("use", building, goods=subset)
        for size in range(min(n, len(movable)) + 1)
        for subset in combinations(movable, size)
    ]
    return tuple(sorted(moves))


@lru_cache(maxsize=1 << 14)
def _fish_market_choices(
    building: str, n: int, warehouse: Warehouse, cells: tuple[Cell, ...], francs: int
) -> tuple[Move, ...]:
    """Times 0..N, each paid with 1 franc."""
    return tuple(sorted(make_move("use", building, times=t) for t in range(min(n, francs) + 1)))


@lru_cache(maxsize=1 << 14)
def _weekly_market_choices(
    building: str, n: int, warehouse: Warehouse, cells: tuple[Cell, ...], francs: int
) -> tuple[Move, ...]:
    """Times 0..N with one good, each repetition a possible ``D`` step of that good."""
    moves = [make_move("use", building, times=0)]
    drow, dcol = STEPS["D"]
    for good in FOOD:
        row, col = cells[GOOD_INDEX[good]]
        for times in range(1, n + 1):
            if not warehouse.exists(row + drow * times, col + dcol * times):
                break
            moves.append(make_move("use", building, good=good, times=times))
    return tuple(sorted(moves))


def _paid_repetitions(cover: int, franc_each: int) -> Choices:
    """Up to N repetitions, each a food payment covering ``cover`` (and ``franc_each`` francs)."""

    @lru_cache(maxsize=1 << 14)
    def choices(
        building: str, n: int, warehouse: Warehouse, cells: tuple[Cell, ...], francs: int
    ) -> tuple[Move, ...]:
        options = [
            p
            for p in minimal_payments(warehouse, (("food", cover),))
            if can_pay(warehouse, cells, p)
        ]
        most = n if not franc_each else min(n, francs // franc_each)
        moves = []
        for size in range(most + 1):
            for combo in combinations_with_replacement(options, size):
                payments = tuple(sorted(combo, key=payment_sort_key))
                if _payable_in_turn(warehouse, cells, payments):
                    moves.append(make_move("use", building, payments=payments))
        return tuple(sorted(moves))

    return choices


def _payable_in_turn(
    warehouse: Warehouse, cells: tuple[Cell, ...], payments: tuple[Payment, ...]
) -> bool:
    working = list(cells)
    for payment in payments:
        if not can_pay(warehouse, working, payment):
            return False
        pay(working, payment)
    return True


_DEPENDENT: dict[str, Choices] = {
    "business_office": _business_office_choices,
    "fish_market": _fish_market_choices,
    "weekly_market": _weekly_market_choices,
    "restaurant": _paid_repetitions(cover=1, franc_each=0),
    "wood_trader": _paid_repetitions(cover=2, franc_each=1),
}
