"""A player's side of the table (a mat): the warehouse with its goods counters, francs, score,
and the buildings on the player's wheel.

The engine keeps each good as a cell of the warehouse grid; a `Counter` is that cell as drawn,
with the amount the cell is worth.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from app.reads.roomview import RoomView
from engine import Catalog, GameState, new_game, score_breakdown
from engine.catalog import GOODS as CELL_ORDER
from engine.catalog import Cell
from engine.state import Buildings

from .wheel import WHEEL_SECTORS, Tile, multiplier_text, tile
from .wheel_layout import Box, Label, layout_sector
from .words import GOODS, Words, words_for

ROLES = ("you", "opponent", "first player", "second player")
"""The role keys of `seat_role` (the templates compare them; they are never shown)."""


@dataclass(frozen=True)
class Counter:
    """One good's counter on the warehouse grid: the cell it sits on and the amount it holds."""

    good: str
    name: str
    letter: str
    amount: int
    row: int
    col: int


def have(state: GameState, seat: int) -> dict[str, int]:
    """A player's goods amounts and francs, as the reasons and previews count them."""
    player = state.players[seat]
    amount = state.catalog.warehouse.amount
    cells = dict(zip(CELL_ORDER, player.cells, strict=True))
    result = {good: amount(cells[good]) for good in GOODS}
    result["francs"] = player.francs
    return result


def counters(state: GameState, seat: int, words: Words) -> tuple[Counter, ...]:
    """A player's four goods counters, as the warehouse picture draws them."""
    amount = state.catalog.warehouse.amount
    cells = state.players[seat].cells
    return tuple(
        Counter(good, name, letter, amount(cells[i]), cells[i][0], cells[i][1])
        for good, name, letter, i in _good_labels(words.code)
    )


@cache
def _good_labels(lang: str) -> tuple[tuple[str, str, str, int], ...]:
    """Each good in the order the counters are drawn: its name, its counter's letter and where
    the engine keeps its cell among a player's."""
    words = words_for(lang)
    return tuple(
        (good, words.good_name(good), words.good_letter(good), CELL_ORDER.index(good))
        for good in GOODS
    )


def start_counters(words: Words, catalog: Catalog) -> tuple[Counter, ...]:
    """The goods counters every player starts with (the rules page draws them)."""
    return counters(new_game(catalog), 0, words)


def seat_role(seat: int, viewer_seat: int | None) -> str:
    """Who this seat is for the person looking: one of `ROLES` (a key, not a text)."""
    if viewer_seat is None:
        return "first player" if seat == 0 else "second player"
    return "you" if seat == viewer_seat else "opponent"


def wheel_sectors(catalog: Catalog, buildings: Buildings) -> list[tuple[int, list[str]]]:
    """The buildings on a wheel by sector, in the sectors' order, each sector's by name."""
    by_sector: dict[int, list[str]] = {}
    for building_id, age in _by_name(catalog, buildings):
        if age is not None:
            by_sector.setdefault(age, []).append(building_id)
    return sorted(by_sector.items())


def _by_name(catalog: Catalog, buildings: Buildings) -> list[tuple[str, int | None]]:
    """The buildings with their ages, by name."""
    return sorted(buildings, key=lambda pair: catalog.building(pair[0]).name)


def sector_texts(
    catalog: Catalog, age: int, ids: list[str], lang: str
) -> tuple[tuple[str, str], ...]:
    """What a sector's tiles say (name, multiplier), as its layout is asked for."""
    return tuple((catalog.building(b).name_in(lang), multiplier_text(catalog, b, age)) for b in ids)


def every_tile_text(catalogs: Iterable[Catalog], langs: Iterable[str]) -> set[tuple[str, str]]:
    """Every text a tile on a wheel can show with these catalogs in these languages: what
    `sector_texts` gives for any building in any sector."""
    languages = tuple(langs)
    return {
        text
        for catalog in catalogs
        for lang in languages
        for age in range(WHEEL_SECTORS)
        for text in sector_texts(catalog, age, [b.id for b in catalog.buildings], lang)
    }


class Mat:
    """One player's side of the table as the viewer sees it.

    What is cheap (seat, role, francs, to move) is set at once; the rest (the score, the tiles
    on the wheel, the counters) is worked out when a drawn part first reads it, so a board that
    draws only a few parts (`app.ui.parts`) pays only for those.
    """

    def __init__(self, view: RoomView, seat: int, words: Words) -> None:
        state = view.state
        self.seat = seat
        self.name = words.seat_name(seat)
        self.role = seat_role(seat, view.viewer_seat)
        self.francs = state.players[seat].francs
        self.online = view.facts.online[seat]
        self.claimed = view.facts.seats_claimed[seat]
        self._state = state
        self._words = words

    @cached_property
    def _breakdown(self) -> dict[str, Any]:
        return score_breakdown(self._state, self.seat)

    @cached_property
    def score(self) -> int:
        return int(self._breakdown["total"])

    @cached_property
    def breakdown(self) -> tuple[tuple[str, int], ...]:
        catalog = self._state.catalog
        return tuple(
            (catalog.building(b).name_in(self._words.code), int(v))
            for b, v in sorted(self._breakdown["buildings"].items(), key=lambda kv: -kv[1])
        )

    @cached_property
    def counters(self) -> tuple[Counter, ...]:
        return counters(self._state, self.seat, self._words)

    @cached_property
    def warehouse_label(self) -> str:
        """What a screen reader says for the warehouse grid."""
        words = self._words
        return words.lang.gettext(
            "Warehouse of %(player)s: %(goods)s",
            player=self.name,
            goods=", ".join(f"{c.name} {words.number(c.amount)}" for c in self.counters),
        )

    @property
    def buildings(self) -> Buildings:
        """The player's buildings with their ages, as the engine keeps them."""
        return self._state.players[self.seat].buildings

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The goods' counter cells, as the engine keeps them."""
        return self._state.players[self.seat].cells

    def _tile(self, building_id: str, age: int | None, place: tuple[Label, Box] | None) -> Tile:
        return tile(
            self._state.catalog,
            building_id,
            self._words.code,
            status="owned",
            owner=self.seat,
            age=age,
            reason=None,
            place=place,
        )

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        """The buildings on the wheel, sector by sector."""
        catalog = self._state.catalog
        code = self._words.code
        return tuple(
            self._tile(building_id, age, place)
            for age, ids in wheel_sectors(catalog, self.buildings)
            for building_id, place in zip(
                ids, layout_sector(age, sector_texts(catalog, age, ids, code)), strict=True
            )
        )

    @cached_property
    def locked(self) -> tuple[Tile, ...]:
        """The buildings off the wheel (no action)."""
        by_name = _by_name(self._state.catalog, self.buildings)
        return tuple(self._tile(b, None, None) for b, age in by_name if age is None)


def mat(view: RoomView, seat: int, words: Words) -> Mat:
    """One player's side of the table as the viewer sees it."""
    return Mat(view, seat, words)
