"""The production wheel: its six sectors, the wedges drawn for them, and the building tiles on it.

A player's buildings sit on their wheel by age: "The printed wheel has six sectors: 0, 2, 3, 4, 4+
and '!'" (ages 0..5; a building reaching "!" is sold at the end of the round). A `Tile` is a
building's card as the table draws it — on a wheel, among the locked ones, or in the overview —
with who owns it, whether the viewer can act on it, and what a screen reader says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from engine import Catalog, default_catalog, sector_label, sector_labels

from .cards import Card, card_of
from .words import Words, words_for

SECTOR_LABELS: tuple[str, ...] = sector_labels(default_catalog())
"""The wheel's sector labels by building age, from the catalog's wheel: "0", "2", "3", "4", "4+",
"!" (a building reaching "!" is sold at the end of the round)."""

WHEEL_SECTORS = len(SECTOR_LABELS)
"""The printed wheel has six sectors (ages 0..5)."""

WHEEL_RADIUS = 96.0
WHEEL_MARGIN = 16.0
"""The disc is drawn in a 200-unit box centred on (100, 100); its labels sit outside the rim."""
WHEEL_BOX = 200.0 + 2 * WHEEL_MARGIN


@dataclass(frozen=True)
class Wedge:
    label: str
    path: str
    label_x: float
    label_y: float
    danger: bool


def _polar(radius: float, degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    return (radius * math.cos(angle), radius * math.sin(angle))


def sector_angle(index: int) -> float:
    """Centre angle of a wheel sector in degrees (screen coordinates; sector 0 at the top)."""
    return -90.0 + index * 360.0 / WHEEL_SECTORS


def _percent(coordinate: float) -> float:
    return (coordinate + WHEEL_MARGIN) / WHEEL_BOX * 100


def wedges() -> tuple[Wedge, ...]:
    """The six sector wedges of a wheel, with each sector's label on a badge outside the rim."""
    result = []
    half = 180.0 / WHEEL_SECTORS
    r = WHEEL_RADIUS
    for i, label in enumerate(SECTOR_LABELS):
        centre = sector_angle(i)
        x1, y1 = _polar(r, centre - half)
        x2, y2 = _polar(r, centre + half)
        path = (
            f"M100,100 L{100 + x1:.2f},{100 + y1:.2f} "
            f"A{r:.0f},{r:.0f} 0 0,1 {100 + x2:.2f},{100 + y2:.2f} Z"
        )
        lx, ly = _polar(r + 6, centre)
        result.append(Wedge(label, path, 100 + lx, 100 + ly, i == len(SECTOR_LABELS) - 1))
    return tuple(result)


WEDGES = wedges()

_STACKS: dict[int, tuple[tuple[float, float], tuple[float, float]]] = {
    0: ((0.0, -0.8), (0.0, 1.0)),
    1: ((0.47, -0.12), (0.0, -1.0)),
    2: ((0.47, 0.12), (0.0, 1.0)),
    3: ((0.0, 0.8), (0.0, -1.0)),
    4: ((-0.47, 0.12), (0.0, 1.0)),
    5: ((-0.47, -0.12), (0.0, -1.0)),
}
"""Where a sector's tiles start (in wheel radii from the centre) and which way they stack."""


def tile_positions(sector: int, count: int) -> list[tuple[float, float]]:
    """Where ``count`` tiles sit in a sector, as percentages of the wheel box (tile centres).

    Tiles stack upright in a column inside their sector, closer together when there are many.
    """
    (x0, y0), (dx, dy) = _STACKS[sector]
    spacing = min(0.19, 0.62 / max(count - 1, 1))
    result = []
    for k in range(count):
        x = 100 + WHEEL_RADIUS * (x0 + dx * spacing * k)
        y = 100 + WHEEL_RADIUS * (y0 + dy * spacing * k)
        result.append((_percent(x), _percent(y)))
    return result


@dataclass(frozen=True)
class Tile(Card):
    """A building drawn on the table: on a wheel, among the locked ones, or in the overview."""

    id: str
    status: str  # "supply" | "owned" | "future"
    owner: int | None
    sector: str | None
    actionable: bool
    reason: str | None
    aria: str
    """What a screen reader says: name, sector, owner, cost or arrival, and why it cannot act."""
    x: float = 0.0
    y: float = 0.0


@lru_cache(maxsize=16384)
def tile(
    catalog: Catalog,
    building_id: str,
    lang: str,
    *,
    status: str,
    owner: int | None,
    age: int | None,
    actionable: bool,
    reason: str | None,
    position: tuple[float, float] = (0.0, 0.0),
) -> Tile:
    """One `Tile`; the same arguments give the same (shared, immutable) value."""
    card = card_of(catalog, building_id, lang)
    sector = sector_label(catalog, age) if age is not None else None
    return Tile(
        **vars(card),
        id=building_id,
        status=status,
        owner=owner,
        sector=sector,
        actionable=actionable,
        reason=reason,
        aria=_aria(words_for(lang), card, status=status, sector=sector, owner=owner, reason=reason),
        x=position[0],
        y=position[1],
    )


def _aria(
    words: Words,
    card: Card,
    *,
    status: str,
    sector: str | None,
    owner: int | None,
    reason: str | None,
) -> str:
    t = words.lang
    parts = [card.name]
    if sector is not None:
        parts.append(t.gettext("sector %(sector)s", sector=sector))
    if owner is not None:
        parts.append(t.gettext("built by Player %(number)s", number=owner + 1))
    if status == "supply":
        parts.append(t.gettext("cost %(cost)s", cost=card.cost))
    if status == "future":
        parts.append(t.gettext("arrives in round %(letter)s", letter=card.letter))
    if reason:
        parts.append(reason)
    return ", ".join(parts)
