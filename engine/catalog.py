"""The printed numbers of the game, loaded from one JSON file and validated.

No cost, value, rate, round length or board size is written into code: they all come from here.
The bundled file is ``engine/catalog.json``; a player who owns the printed game can load another file
with the same shape through :func:`engine.loader.load_catalog`, which also checks that the rules know
every building. This module reads and validates data only: it imports nothing of the rules.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

GOODS: tuple[str, ...] = ("clay", "fish", "grain", "wood")
"""The four goods, in canonical (alphabetical) order; a good's index in this tuple is used throughout."""

FOOD: tuple[str, ...] = ("fish", "grain")
BUILDING_MATERIALS: tuple[str, ...] = ("clay", "wood")
LETTERS = "ABCDEFGHIJKL"

Cell = tuple[int, int]

_DEFAULT_PATH = Path(__file__).with_name("catalog.json")


@dataclass(frozen=True)
class ComputedValue:
    """A value worth ``rate`` per good ``per`` in the owner's warehouse, or per ``dock_symbol`` building."""

    per: str
    rate: int


@dataclass(frozen=True)
class Building:
    id: str
    letter: str
    name: str
    cost_kind: str
    """``"francs"``, ``"food"`` or ``"materials"`` (wood and/or clay)."""
    cost: tuple[tuple[str, int], ...]
    """Cost entries in canonical order: ``(("francs", 3),)``, ``(("food", 6),)``, ``(("clay", 2), ("wood", 1))``."""
    value: int | ComputedValue
    dock_symbol: bool
    name_cs: str
    names: tuple[tuple[str, str], ...] = ()
    """The printed name in other languages, as sorted ``(language, name)`` pairs (``"cs"``, ``"pt"``)."""

    def cost_of(self, key: str) -> int:
        return dict(self.cost).get(key, 0)

    def name_in(self, language: str) -> str:
        """The name in ``language`` (``"cs"``, ``"pt"``; ``"pt_BR"`` reads as ``"pt"``), else English."""
        wanted = language.replace("-", "_").split("_")[0]
        return dict(self.names).get(wanted, self.name)


@dataclass(frozen=True, eq=False)
class Warehouse:
    rows: int
    columns: int
    row_value: int
    column_value: int
    missing_cells: frozenset[Cell]
    start: tuple[Cell, ...]
    """Start cell of each good, in :data:`GOODS` order."""

    def exists(self, row: int, col: int) -> bool:
        return (
            0 <= row < self.rows
            and 0 <= col < self.columns
            and (not self.missing_cells or (row, col) not in self.missing_cells)
        )

    def amount(self, cell: Cell) -> int:
        return self.row_value * cell[0] + self.column_value * cell[1]


@dataclass(frozen=True, eq=False)
class Catalog:
    """All numbers of one edition of the game. Compared and hashed by identity."""

    name: str
    warehouse: Warehouse
    start_francs: int
    rounds: tuple[tuple[str, int], ...]
    multiplier_by_age: tuple[int, ...]
    bonus_francs_by_age: tuple[int, ...]
    sold_at_age: int
    buildings: tuple[Building, ...]
    by_id: Mapping[str, Building] = field(repr=False)
    round_ends: tuple[int, ...] = field(repr=False)
    """Cumulative action count at the end of each round."""
    sha256: str = field(default="", repr=False)
    """The SHA-256 of the catalog's data (:func:`content_hash`): which numbers a game was played with."""

    @property
    def total_actions(self) -> int:
        return self.round_ends[-1]

    def building(self, building_id: str) -> Building:
        return self.by_id[building_id]


def read_catalog(path: str | Path) -> Catalog:
    """Read and validate a catalog file's data. Raises ``ValueError`` naming what is wrong."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise ValueError(f"cannot read catalog {path}: {err}") from err
    return catalog_from_data(data)


def content_hash(data: Any) -> str:
    """The SHA-256 (hex) of ``data``'s canonical JSON: sorted keys, no spaces, UTF-8."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def default_catalog() -> Catalog:
    """The catalog bundled with the engine (``engine/catalog.json``)."""
    return read_catalog(_DEFAULT_PATH)


def catalog_from_data(data: Any) -> Catalog:
    """Build a :class:`Catalog` from parsed JSON, checking the shape and counts the engine relies on."""
    if not isinstance(data, dict):
        raise ValueError("catalog: the top level must be an object")
    try:
        warehouse = _warehouse(data["warehouse"])
        rounds = tuple(
            (str(r["letter"]), _int(r["actions"], "round actions")) for r in data["rounds"]
        )
        wheel = data["wheel"]
        multiplier = tuple(_int(x, "multiplier") for x in wheel["multiplier_by_age"])
        bonus = tuple(_int(x, "bonus") for x in wheel["bonus_francs_by_age"])
        sold_at_age = _int(wheel["sold_at_age"], "sold_at_age")
        names = _names_by_language(data)
        buildings = tuple(_building(b, names) for b in data["buildings"])
        start_francs = _int(data["start_francs"], "start_francs")
    except (KeyError, TypeError) as err:
        raise ValueError(f"catalog: missing or malformed entry {err}") from err

    _check_counts(rounds, multiplier, bonus, sold_at_age, buildings, names)
    round_ends: list[int] = []
    total = 0
    for _, actions in rounds:
        total += actions
        round_ends.append(total)
    return Catalog(
        name=str(data.get("name", "")),
        warehouse=warehouse,
        start_francs=start_francs,
        rounds=rounds,
        multiplier_by_age=multiplier,
        bonus_francs_by_age=bonus,
        sold_at_age=sold_at_age,
        buildings=buildings,
        by_id={b.id: b for b in buildings},
        round_ends=tuple(round_ends),
        sha256=content_hash(data),
    )


def _check_counts(
    rounds: tuple[tuple[str, int], ...],
    multiplier: tuple[int, ...],
    bonus: tuple[int, ...],
    sold_at_age: int,
    buildings: tuple[Building, ...],
    names: dict[str, dict[str, str]],
) -> None:
    """The counts the engine relies on: the rounds A to L, the wheel's ages, 31 unique buildings
    with their costs split 21 / 5 / 5."""
    if [letter for letter, _ in rounds] != list(LETTERS):
        raise ValueError("catalog: rounds must be the letters A to L in order")
    if any(actions <= 0 for _, actions in rounds):
        raise ValueError("catalog: every round needs at least one action")
    if len(multiplier) != sold_at_age or len(bonus) != sold_at_age:
        raise ValueError(
            "catalog: the wheel needs one multiplier and one bonus per age below sold_at_age"
        )
    if multiplier[0] != 0:
        raise ValueError("catalog: a building at age 0 cannot be used (multiplier 0)")
    ids = [b.id for b in buildings]
    if len(set(ids)) != len(ids):
        raise ValueError("catalog: building ids must be unique")
    for language, table in names.items():
        strays = sorted(set(table) - set(ids))
        if strays:
            raise ValueError(f"catalog: names_{language} names no building {strays[0]!r}")
    if len(buildings) != 31:
        raise ValueError(f"catalog: 31 buildings expected, found {len(buildings)}")
    kinds = [b.cost_kind for b in buildings]
    counts = (kinds.count("materials"), kinds.count("food"), kinds.count("francs"))
    if counts != (21, 5, 5):
        raise ValueError(
            "catalog: expected 21 wood/clay, 5 food and 5 franc costs, "
            f"found {counts[0]}, {counts[1]} and {counts[2]}"
        )


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"catalog: {what} must be a whole number ≥ 0, not {value!r}")
    return value


def _cell(value: Any, what: str) -> Cell:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"catalog: {what} must be [row, column]")
    return (_int(value[0], what), _int(value[1], what))


def _warehouse(data: Any) -> Warehouse:
    missing = frozenset(_cell(c, "missing cell") for c in data.get("missing_cells", []))
    start = data["start"]
    if sorted(start) != sorted(GOODS):
        raise ValueError("catalog: the warehouse needs a start cell for each of the four goods")
    warehouse = Warehouse(
        rows=_int(data["rows"], "rows"),
        columns=_int(data["columns"], "columns"),
        row_value=_int(data["row_value"], "row_value"),
        column_value=_int(data["column_value"], "column_value"),
        missing_cells=missing,
        start=tuple(_cell(start[g], f"start cell of {g}") for g in GOODS),
    )
    for good, cell in zip(GOODS, warehouse.start, strict=True):
        if not warehouse.exists(*cell):
            raise ValueError(f"catalog: the start cell of {good} is not on the warehouse board")
    return warehouse


def _names_by_language(data: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """The ``names_<language>`` tables: building id -> printed name in that language."""
    result: dict[str, dict[str, str]] = {}
    for key, table in data.items():
        if not key.startswith("names_"):
            continue
        if not isinstance(table, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and v for k, v in table.items()
        ):
            raise ValueError(f"catalog: {key} must map building ids to non-empty names")
        result[key.removeprefix("names_")] = table
    return result


def _building(data: Any, names: Mapping[str, Mapping[str, str]]) -> Building:
    building_id = str(data["id"])
    letter = str(data["letter"])
    if letter not in LETTERS:
        raise ValueError(f"catalog: {building_id} has letter {letter!r}, not one of A to L")
    cost = {str(k): _int(v, f"cost of {building_id}") for k, v in data["cost"].items()}
    cost = {k: v for k, v in cost.items() if v}
    if set(cost) == {"francs"}:
        kind = "francs"
    elif set(cost) == {"food"}:
        kind = "food"
    elif cost and set(cost) <= set(BUILDING_MATERIALS):
        kind = "materials"
    else:
        raise ValueError(f"catalog: {building_id} must cost francs, food, or wood and/or clay")
    raw_value = data["value"]
    value: int | ComputedValue
    if isinstance(raw_value, dict):
        per = str(raw_value["per"])
        if per not in GOODS and per != "dock_symbol":
            raise ValueError(f"catalog: {building_id} is valued per {per!r}")
        value = ComputedValue(per=per, rate=_int(raw_value["rate"], f"rate of {building_id}"))
    else:
        value = _int(raw_value, f"value of {building_id}")
    return Building(
        id=building_id,
        letter=letter,
        name=str(data["name"]),
        cost_kind=kind,
        cost=tuple(sorted(cost.items())),
        value=value,
        dock_symbol=bool(data.get("dock_symbol", False)),
        name_cs=str(names.get("cs", {}).get(building_id, data["name"])),
        names=tuple(
            sorted(
                (language, table[building_id])
                for language, table in names.items()
                if building_id in table
            )
        ),
    )
