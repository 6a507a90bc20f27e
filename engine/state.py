"""Immutable game state, building values and the state summary of SPEC §8.

A position is the catalog, the number of actions taken so far and the two players. Everything else —
the round, whose turn it is, the actions left, the supply — follows from those:

- Turns strictly alternate over the whole game, seat 0 first, across round ends too.
- The supply is every building whose letter is at or before the current round and that nobody owns.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .canonical import canonical_json
from .catalog import GOODS, Catalog, Cell, ComputedValue, default_catalog
from .effects import is_locked

Buildings = tuple[tuple[str, int | None], ...]
"""Owned buildings as ``(id, age)`` sorted by id; age ``None`` for locked buildings (off the wheel)."""


@dataclass(frozen=True, slots=True)
class PlayerState:
    francs: int
    cells: tuple[Cell, ...]
    """Each good's counter cell, in :data:`GOODS` order."""
    buildings: Buildings

    @property
    def goods(self) -> dict[str, Cell]:
        return dict(zip(GOODS, self.cells, strict=True))

    def cell(self, good: str) -> Cell:
        return self.cells[GOODS.index(good)]

    def owns(self, building_id: str) -> bool:
        return any(b == building_id for b, _ in self.buildings)

    def age(self, building_id: str) -> int | None:
        for b, age in self.buildings:
            if b == building_id:
                return age
        raise KeyError(building_id)


@dataclass(frozen=True, slots=True)
class GameState:
    catalog: Catalog
    turn: int
    """Actions (build, use, pass) taken so far; sells are not counted."""
    players: tuple[PlayerState, PlayerState]

    @property
    def finished(self) -> bool:
        return self.turn >= self.catalog.total_actions

    @property
    def to_move(self) -> int | None:
        return None if self.finished else self.turn % 2

    @property
    def round_index(self) -> int:
        ends = self.catalog.round_ends
        return min(bisect_right(ends, self.turn), len(ends) - 1)

    @property
    def round_letter(self) -> str:
        return self.catalog.rounds[self.round_index][0]

    @property
    def actions_left(self) -> int:
        if self.finished:
            return 0
        return self.catalog.round_ends[self.round_index] - self.turn

    @property
    def supply(self) -> tuple[str, ...]:
        letter = self.round_letter
        owned = {b for p in self.players for b, _ in p.buildings}
        return tuple(
            sorted(b.id for b in self.catalog.buildings if b.letter <= letter and b.id not in owned)
        )

    def owner(self, building_id: str) -> int | None:
        for seat, player in enumerate(self.players):
            if player.owns(building_id):
                return seat
        return None

    def amount(self, seat: int, good: str) -> int:
        return self.catalog.warehouse.amount(self.players[seat].cell(good))


def new_game(catalog: Catalog | None = None) -> GameState:
    """The start position: each player with the catalog's start francs and goods, no buildings."""
    catalog = catalog or default_catalog()
    player = PlayerState(francs=catalog.start_francs, cells=catalog.warehouse.start, buildings=())
    return GameState(catalog=catalog, turn=0, players=(player, player))


def building_value(catalog: Catalog, player: PlayerState, building_id: str) -> int:
    """A building's value for its owner now: fixed, per good in the warehouse, or per dock symbol."""
    value = catalog.building(building_id).value
    if not isinstance(value, ComputedValue):
        return value
    if value.per == "dock_symbol":
        count = sum(1 for b, _ in player.buildings if catalog.building(b).dock_symbol)
        return value.rate * count
    return value.rate * catalog.warehouse.amount(player.cell(value.per))


def player_score(catalog: Catalog, player: PlayerState) -> int:
    return player.francs + sum(building_value(catalog, player, b) for b, _ in player.buildings)


def scores(state: GameState) -> tuple[int, int]:
    """Score = francs + the value of every owned building, at any position."""
    first, second = state.players
    return (player_score(state.catalog, first), player_score(state.catalog, second))


def winner(state: GameState) -> int | None:
    """The seat with the higher score, ``None`` for a draw: the winner once the game is finished."""
    first, second = scores(state)
    if first == second:
        return None
    return 0 if first > second else 1


def score_breakdown(state: GameState, seat: int) -> dict[str, Any]:
    player = state.players[seat]
    buildings = {b: building_value(state.catalog, player, b) for b, _ in player.buildings}
    return {
        "francs": player.francs,
        "buildings": buildings,
        "total": player.francs + sum(buildings.values()),
    }


def is_finished(state: GameState) -> bool:
    return state.finished


def summary(state: GameState) -> dict[str, Any]:
    """The state summary of SPEC §8 (a JSON-ready dict)."""
    return {
        "finished": state.finished,
        "round": state.round_letter,
        "turn": state.turn,
        "to_move": state.to_move,
        "actions_left": state.actions_left,
        "supply": list(state.supply),
        "players": [
            {
                "francs": p.francs,
                "goods": {g: list(c) for g, c in zip(GOODS, p.cells, strict=True)},
                "buildings": dict(p.buildings),
            }
            for p in state.players
        ],
        "scores": list(scores(state)),
    }


def summary_json(state: GameState) -> str:
    """The summary in canonical form: sorted keys, no spaces."""
    return canonical_json(summary(state))


def from_summary(data: Mapping[str, Any], catalog: Catalog | None = None) -> GameState:
    """The inverse of :func:`summary`: build a position from a SPEC §8 dict.

    ``turn`` and ``players`` are required; derived fields may be left out and must agree when given.
    """
    catalog = catalog or default_catalog()
    try:
        turn = data["turn"]
        raw_players = data["players"]
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise ValueError("turn must be a whole number")
        if not 0 <= turn <= catalog.total_actions:
            raise ValueError(f"turn must be between 0 and {catalog.total_actions}")
        if len(raw_players) != 2:
            raise ValueError("a position has two players")
        players = tuple(_player(p, catalog) for p in raw_players)
    except (KeyError, TypeError, AttributeError) as err:
        raise ValueError(f"not a state summary: {err}") from err
    state = GameState(catalog=catalog, turn=turn, players=(players[0], players[1]))
    owned = [b for p in players for b, _ in p.buildings]
    if len(owned) != len(set(owned)):
        raise ValueError("a building can have only one owner")
    derived = summary(state)
    for key in ("finished", "round", "to_move", "actions_left", "supply", "scores"):
        if key in data and data[key] != derived[key]:
            raise ValueError(f"{key} is {data[key]!r}, but the position gives {derived[key]!r}")
    return state


def _player(data: Mapping[str, Any], catalog: Catalog) -> PlayerState:
    francs = data["francs"]
    if isinstance(francs, bool) or not isinstance(francs, int) or francs < 0:
        raise ValueError("francs must be a whole number ≥ 0")
    goods = data["goods"]
    cells = []
    for good in GOODS:
        row, col = goods[good]
        if not catalog.warehouse.exists(row, col):
            raise ValueError(f"{good} is on ({row}, {col}), which is not on the warehouse board")
        cells.append((int(row), int(col)))
    buildings: list[tuple[str, int | None]] = []
    for building_id, age in data["buildings"].items():
        if building_id not in catalog.by_id:
            raise ValueError(f"unknown building {building_id!r}")
        if is_locked(building_id):
            if age is not None:
                raise ValueError(f"{building_id} is locked and has no age")
        elif (
            isinstance(age, bool) or not isinstance(age, int) or not 0 <= age < catalog.sold_at_age
        ):
            raise ValueError(f"{building_id} needs an age from 0 to {catalog.sold_at_age - 1}")
        buildings.append((building_id, age))
    return PlayerState(francs=francs, cells=tuple(cells), buildings=tuple(sorted(buildings)))
