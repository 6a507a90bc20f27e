"""The production wheel: its six sectors, the wedges drawn for them, and the building tiles on it.

A player's buildings sit on their wheel by age: "The printed wheel has six sectors: 0, 2, 3, 4, 4+
and '!'" (ages 0..5; a building reaching "!" is sold at the end of the round). A `Tile` is a
building's card as the table draws it — on a wheel, among the locked ones, or in the overview —
with who owns it and what a screen reader says. Whether the viewer can act on it is not part of
it: the board element lists the buildings the viewer may act on (``data-playable``), and
static/js/marks.js marks their tiles and cards, so the tiles stay the same from turn to turn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from engine import Catalog, default_catalog, has_action, sector_label, sector_labels

from .cards import Card, card_of
from .wheel_layout import BADGE_RADIUS, CENTRE, RIM_RADIUS, Box, Label, sector_angle
from .words import Words, words_for

SECTOR_LABELS: tuple[str, ...] = sector_labels(default_catalog())
"""The wheel's sector labels by building age, from the catalog's wheel: "0", "2", "3", "4", "4+",
"!" (a building reaching "!" is sold at the end of the round)."""

WHEEL_SECTORS = len(SECTOR_LABELS)
"""The printed wheel has six sectors (ages 0..5)."""


def multiplier_text(catalog: Catalog, building_id: str, age: int) -> str:
    """What a tile on the wheel shows of its strength: "×3" where it can be used, else ""."""
    multipliers = catalog.multiplier_by_age
    if not has_action(building_id) or age >= len(multipliers) or not multipliers[age]:
        return ""
    return f"×{multipliers[age]}"


@dataclass(frozen=True)
class Wedge:
    """A sector of the disc: its outline and its label on a badge by the hub."""

    label: str
    path: str
    label_x: float
    label_y: float
    danger: bool


def _polar(radius: float, degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    return (CENTRE + radius * math.cos(angle), CENTRE + radius * math.sin(angle))


def wedges() -> tuple[Wedge, ...]:
    """The six sector wedges of a wheel, each labelled on a badge near the hub, where no tile
    goes (app/ui/wheel_layout.py keeps tiles between the hub and the rim)."""
    result = []
    half = 180.0 / WHEEL_SECTORS
    r = RIM_RADIUS
    for i, label in enumerate(SECTOR_LABELS):
        centre = sector_angle(i)
        x1, y1 = _polar(r, centre - half)
        x2, y2 = _polar(r, centre + half)
        path = f"M{CENTRE:g},{CENTRE:g} L{x1:.2f},{y1:.2f} A{r:g},{r:g} 0 0,1 {x2:.2f},{y2:.2f} Z"
        lx, ly = _polar(BADGE_RADIUS, centre)
        result.append(Wedge(label, path, lx, ly, i == len(SECTOR_LABELS) - 1))
    return tuple(result)


WEDGES = wedges()


@dataclass(frozen=True)
class Tile(Card):
    """A building drawn on the table: on a wheel, among the locked ones, or in the overview."""

    id: str
    status: str  # "supply" | "owned" | "future"
    owner: int | None
    sector: str | None
    reason: str | None
    """A supply card's: why the viewer could not build it (shown, and added to `aria`, by the
    page while the viewer may move and may not build it: static/js/marks.js)."""
    aria: str
    """What a screen reader says: name, sector, owner, cost or arrival."""
    label: Label | None = None
    """On a wheel: the tile's text lines and multiplier ("×3" where it can be used)."""
    box: Box | None = None
    """On a wheel: the tile's box in wheel units (app/ui/wheel_layout.py)."""


@lru_cache(maxsize=16384)
def tile(
    catalog: Catalog,
    building_id: str,
    lang: str,
    *,
    status: str,
    owner: int | None,
    age: int | None,
    reason: str | None,
    place: tuple[Label, Box] | None = None,
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
        reason=reason,
        aria=_aria(words_for(lang), card, status=status, sector=sector, owner=owner),
        label=place[0] if place else None,
        box=place[1] if place else None,
    )


def _aria(
    words: Words,
    card: Card,
    *,
    status: str,
    sector: str | None,
    owner: int | None,
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
    return ", ".join(parts)
