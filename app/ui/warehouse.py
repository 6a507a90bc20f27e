"""A player's side of the table (a mat): the warehouse with its goods counters, francs, score,
and the buildings on the player's wheel.

The engine keeps each good as a cell of the warehouse grid; a `Counter` is that cell as drawn,
with the amount the cell is worth.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from app.roomview import RoomView
from engine import Catalog, GameState, new_game, score_breakdown

from .wheel import Tile, multiplier_text, tile
from .wheel_layout import Box, Label, layout_sector
from .words import GOODS, Words

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


@dataclass(frozen=True)
class Mat:
    """One player's side of the table."""

    seat: int
    name: str
    role: str
    francs: int
    score: int
    breakdown: tuple[tuple[str, int], ...]
    online: bool
    claimed: bool
    to_move: bool
    counters: tuple[Counter, ...]
    tiles: tuple[Tile, ...]
    locked: tuple[Tile, ...]
    warehouse_label: str
    """What a screen reader says for the warehouse grid."""


def have(state: GameState, seat: int) -> dict[str, int]:
    """A player's goods amounts and francs, as the reasons and previews count them."""
    player = state.players[seat]
    warehouse = state.catalog.warehouse
    result = {good: warehouse.amount(player.goods[good]) for good in GOODS}
    result["francs"] = player.francs
    return result


def counters(state: GameState, seat: int, words: Words) -> tuple[Counter, ...]:
    """A player's four goods counters, as the warehouse picture draws them."""
    player = state.players[seat]
    warehouse = state.catalog.warehouse
    return tuple(
        Counter(
            good,
            words.good_name(good),
            words.good_letter(good),
            warehouse.amount(player.goods[good]),
            player.goods[good][0],
            player.goods[good][1],
        )
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


def _places(catalog: Catalog, age: int, ids: list[str], lang: str) -> tuple[tuple[Label, Box], ...]:
    """Where a sector's tiles sit on the wheel, with what each says."""
    return layout_sector(
        age,
        tuple((catalog.building(b).name_in(lang), multiplier_text(catalog, b, age)) for b in ids),
    )


def mat(view: RoomView, seat: int, actionable: Collection[str], words: Words) -> Mat:
    """One player's side of the table as the viewer sees it."""
    state = view.state
    catalog = state.catalog
    ages = dict(state.players[seat].buildings)
    by_sector: dict[int, list[str]] = {}
    locked = []
    for building_id in sorted(ages, key=lambda b: catalog.building(b).name):
        age = ages[building_id]
        if age is None:
            locked.append(building_id)
        else:
            by_sector.setdefault(age, []).append(building_id)

    def owned(building_id: str, age: int | None, place: tuple[Label, Box] | None) -> Tile:
        return tile(
            catalog,
            building_id,
            words.code,
            status="owned",
            owner=seat,
            age=age,
            actionable=building_id in actionable,
            reason=None,
            place=place,
        )

    tiles = tuple(
        owned(building_id, age, place)
        for age, ids in sorted(by_sector.items())
        for building_id, place in zip(ids, _places(catalog, age, ids, words.code), strict=True)
    )
    breakdown = score_breakdown(state, seat)
    goods = counters(state, seat, words)
    name = words.seat_name(seat)
    return Mat(
        seat=seat,
        name=name,
        role=seat_role(seat, view.viewer_seat),
        francs=state.players[seat].francs,
        score=int(breakdown["total"]),
        breakdown=tuple(
            (catalog.building(b).name_in(words.code), int(v))
            for b, v in sorted(breakdown["buildings"].items(), key=lambda kv: -kv[1])
        ),
        online=view.online[seat],
        claimed=view.seats_claimed[seat],
        to_move=state.to_move == seat and view.ending is None,
        counters=goods,
        tiles=tiles,
        locked=tuple(owned(b, None, None) for b in locked),
        warehouse_label=words.lang.gettext(
            "Warehouse of %(player)s: %(goods)s",
            player=name,
            goods=", ".join(f"{c.name} {words.number(c.amount)}" for c in goods),
        ),
    )
