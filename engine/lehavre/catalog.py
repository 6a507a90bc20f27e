"""The Le Havre catalog as typed, immutable records (the data is ``catalog.json``; see loader.py).

Goods are counted in one tuple per holder: index 0 is francs, then every good in the catalog's
order (the eight standard goods, then the eight upgraded ones). No rule number lives in code:
every count, cost, value and effect parameter comes from the catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

FRANC = 0
"""Index of francs in every goods tuple."""

Amounts = tuple[tuple[int, int], ...]
"""(goods index, count) pairs, in goods order, counts positive."""


@dataclass(frozen=True, slots=True)
class Good:
    id: str
    index: int
    basic: str | None
    franc_value: int
    food: int
    energy: int
    on_offer: bool


@dataclass(frozen=True, slots=True)
class Fee:
    """An entry fee: ``food`` (francs may stand in 1:1) and/or ``franc``; both set means either."""

    food: int | None
    franc: int | None

    @property
    def free(self) -> bool:
        return self.food is None and self.franc is None


@dataclass(frozen=True, slots=True)
class Line:
    """One conversion a building offers: per unit, ``inputs`` (and ``food``) in, ``outputs`` out;
    energy ``ceil(units * energy[0] / energy[1])``, bonus francs and by-products rounded down."""

    inputs: Amounts
    outputs: Amounts
    max: int | None
    food: int
    energy: tuple[int, int]
    francs: tuple[int, int]
    byproducts: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class Building:
    id: str
    name: str
    group: str  # "start", "standard" or "special"
    number: int | None  # the sort number of a standard building
    kind: str  # craft, economic, industrial, public, none, ship
    hammer: int
    fishing: int
    value: int
    price: int | None  # None: cannot be bought
    fee: Fee | None  # None: cannot be entered
    materials: Amounts | None  # None: cannot be constructed
    effect_kind: str
    effect: Mapping[str, Any]
    lines: tuple[Line, ...]
    full_players: tuple[int, ...]
    short_players: tuple[int, ...]
    short_town_players: tuple[int, ...]
    solo: bool
    bonus: Mapping[str, Any] | None
    passive: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ShipType:
    id: str
    materials: Amounts
    energy: int
    price: int | None
    food: Mapping[int, int]
    capacity: int
    needs_modernised_wharf: bool


@dataclass(frozen=True, slots=True)
class Ship:
    id: str
    type: str
    value: int


@dataclass(frozen=True, slots=True)
class RoundCard:
    card: str
    harvest: bool
    food: int
    town_builds: str  # "standard", "special" or "none"
    ship: str


@dataclass(frozen=True, slots=True)
class SupplyTile:
    id: str
    goods: tuple[int, int]
    interest: bool


@dataclass(frozen=True, slots=True)
class Start:
    offers: tuple[int, ...]  # per offer space
    per_player: tuple[int, ...]  # a goods tuple
    town: tuple[str, ...]
    extra_town: Mapping[int, tuple[str, ...]]
    specials_dealt: int
    player_ships: Mapping[int, tuple[str, ...]]
    pile_ships: Mapping[int, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Loans:
    francs: int
    repay: int
    penalty: int
    interest: int


@dataclass(frozen=True, slots=True)
class Harvest:
    grain_min: int
    grain_gain: int
    cattle_min: int
    cattle_gain: int


@dataclass(frozen=True, slots=True)
class Catalog:
    goods: tuple[Good, ...]  # goods[i].index == i + 1
    names: tuple[str, ...]  # "franc" then every good id
    index: Mapping[str, int]
    substitutes: tuple[tuple[int, int], ...]  # (substitute, replaced): brick for clay, ...
    offer_spaces: tuple[int, ...]  # goods index of each offer space
    start: Mapping[str, Start]
    tiles: tuple[SupplyTile, ...]
    turns_per_round: int
    rounds: Mapping[tuple[str, int], tuple[RoundCard, ...]]
    harvest: Harvest
    ship_types: tuple[ShipType, ...]
    ships: Mapping[str, Ship]
    modernise: Amounts
    loans: Loans
    buildings: Mapping[str, Building]
    order: Mapping[str, int]  # building id -> position in the catalog

    size: int  # the length of a goods tuple
    food_values: tuple[tuple[int, int], ...]  # (index, food) of what pays food, in paying order
    energy_values: tuple[tuple[int, int], ...]  # (index, energy) of what pays energy

    def ship_type(self, type_id: str) -> ShipType:
        return next(t for t in self.ship_types if t.id == type_id)
