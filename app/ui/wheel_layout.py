"""Where the building tiles sit on a wheel: inside their sector's wedge, never on each other.

The wheel is drawn in a square of `SIZE` units centred on (`CENTRE`, `CENTRE`). Sector i's wedge
spans 60° around `sector_angle(i)` (sector 0 at the top, clockwise). Tiles go between
`HUB_RADIUS` and `TILE_RADIUS`; the sector badges sit by the centre, inside the hub, where a wedge is
too narrow for a tile, so no tile ever covers one.

A tile is a box (x, y, width, height) holding one or two lines of text. `layout_sector` gives each
tile its roomiest label — the full name on one line, then on two lines, then the short name, then
the initials — shrinking the widest tiles first until every tile fits. Tiles are placed one
by one on the free spot nearest the middle of the wedge (a greedy packing over a grid of
candidate spots); every box is checked whole against the wedge and the boxes before it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

SIZE = 400.0
CENTRE = SIZE / 2
SECTORS = 6
RIM_RADIUS = 196.0
"""The disc's edge."""
TILE_RADIUS = 192.0
"""Tiles stay inside this radius (less `MARGIN`)."""
BADGE_RADIUS = 30.0
"""The sector badges' centres, around the wheel's centre."""
BADGE_SIZE = 13.0
HUB_RADIUS = BADGE_RADIUS + BADGE_SIZE + 3.0
"""Tiles stay outside this radius (plus `MARGIN`): clear of the badges."""
MARGIN = 2.0
"""The least gap between a tile and its wedge's edges, and between two tiles."""
FONT = 14.0
"""Tile text size in wheel units: 12 CSS px on a wheel drawn 343 px wide (a 390 px phone)."""
LINE = 16.0
PAD_X = 4.0
PAD_Y = 2.5
MULTIPLIER_GAP = 4.0
STRIPE = 4.0
"""The seat-coloured edge on a tile's left."""
STEP = 4.0
"""The grid of candidate tile spots, in units."""


def sector_angle(index: int) -> float:
    """Centre angle of a sector in degrees (screen coordinates, y down; sector 0 at the top)."""
    return -90.0 + index * 360.0 / SECTORS


# Advance widths of DejaVu Sans Bold (the tile font) in ems, by character class; other fonts
# are squeezed into the measured box by the SVG text's textLength.
_NARROW = set("ijlI.,:;'!|ítrfĺľ")
_SEMI = set("fJ()[]-– ")
_WIDE = set("mwMWŽž")
_UPPER_WIDTH = 0.77
_LOWER_WIDTH = 0.69


def text_width(text: str, font: float = FONT) -> float:
    """The estimated width of a line of tile text in wheel units."""
    total = 0.0
    for ch in text:
        if ch in _NARROW:
            total += 0.38
        elif ch in _SEMI:
            total += 0.45
        elif ch in _WIDE:
            total += 1.04
        elif ch.isupper() or ch.isdigit():
            total += _UPPER_WIDTH
        else:
            total += _LOWER_WIDTH
    return total * font


def two_lines(name: str) -> tuple[str, ...]:
    """A name broken at the space that best balances its two lines (one line if it has none)."""
    words = name.split()
    if len(words) < 2:
        return (name,)
    best = min(
        range(1, len(words)),
        key=lambda k: max(text_width(" ".join(words[:k])), text_width(" ".join(words[k:]))),
    )
    return (" ".join(words[:best]), " ".join(words[best:]))


def short_name(name: str) -> str:
    """A name cut short for a crowded sector: "Hardware Store" -> "Hardw. S.", "Kiln" -> "Kiln"."""
    words = name.replace("'", "").split()
    head = words[0] if len(words[0]) <= 6 else words[0][:5] + "."
    tail = [w for w in words[1:] if len(w) > 2]
    return head + (" " + tail[-1][0].upper() + "." if tail else "")


def initials(name: str) -> str:
    """The last resort of a crowded sector: "Hardware Store" -> "HS", "Kiln" -> "Ki"."""
    words = [w for w in name.replace("'", "").split() if len(w) > 2 or w[0].isupper()]
    if len(words) >= 2:
        return (words[0][0] + words[-1][0]).upper()
    return name[:2]


@dataclass(frozen=True)
class Label:
    """What a tile says: its lines of text and, for a usable building, its multiplier ("×3")."""

    lines: tuple[str, ...]
    multiplier: str = ""


class Box(NamedTuple):
    """A tile's box on the wheel, in wheel units: top-left corner, width and height (a named
    tuple: the packing makes thousands of candidates per new tile size)."""

    x: float
    y: float
    width: float
    height: float

    def overlaps(self, other: Box, gap: float = 0.0) -> bool:
        return not (
            self.x + self.width + gap <= other.x
            or other.x + other.width + gap <= self.x
            or self.y + self.height + gap <= other.y
            or other.y + other.height + gap <= self.y
        )

    def corners(self) -> tuple[tuple[float, float], ...]:
        right, bottom = self.x + self.width, self.y + self.height
        return ((self.x, self.y), (right, self.y), (self.x, bottom), (right, bottom))


@lru_cache(maxsize=8192)
def label_size(label: Label) -> tuple[float, float]:
    """The width and height of a tile holding `label`."""
    width = max(text_width(line) for line in label.lines)
    if label.multiplier:
        width += MULTIPLIER_GAP + text_width(label.multiplier)
    # Rounded up to the candidate grid, so that alike tiles share their candidate boxes.
    return (
        STEP * math.ceil((width + 2 * PAD_X + STRIPE) / STEP),
        len(label.lines) * LINE + 2 * PAD_Y,
    )


@lru_cache(maxsize=SECTORS)
def _edges(sector: int) -> tuple[tuple[float, float], ...]:
    """A wedge's two edge lines as (a, b): a·dy + b·dx is the signed distance of the point
    (CENTRE + dx, CENTRE + dy) from the edge, positive towards the wedge's inside."""
    half = math.pi / SECTORS
    centre = math.radians(sector_angle(sector))
    return tuple(
        (sign * math.cos(angle), -sign * math.sin(angle))
        for angle, sign in ((centre - half, 1.0), (centre + half, -1.0))
    )


def inside_wedge(sector: int, x: float, y: float, margin: float = MARGIN) -> bool:
    """Whether a point lies in a sector's wedge, at least `margin` from its edges and the rim."""
    px, py = x - CENTRE, y - CENTRE
    if px * px + py * py > (TILE_RADIUS - margin) ** 2:
        return False
    (a1, b1), (a2, b2) = _edges(sector)
    return a1 * py + b1 * px >= margin and a2 * py + b2 * px >= margin


def box_inside_wedge(sector: int, box: Box, margin: float = MARGIN) -> bool:
    """A box lies in a wedge when its four corners do (a 60° wedge is convex); the hub stays clear.

    Each test needs one corner only: the one farthest from the centre for the rim, and for each
    edge the one nearest it (where the edge's linear distance is least: rounding keeps that order,
    so the answer is the same as testing all four corners with `inside_wedge`)."""
    left, top = box.x - CENTRE, box.y - CENTRE
    right, bottom = box.x + box.width - CENTRE, box.y + box.height - CENTRE
    if (
        max(left * left, right * right) + max(top * top, bottom * bottom)
        > (TILE_RADIUS - margin) ** 2
    ):
        return False
    for a, b in _edges(sector):
        if a * (top if a >= 0 else bottom) + b * (left if b >= 0 else right) < margin:
            return False
    nearest_x = min(max(CENTRE, box.x), box.x + box.width)
    nearest_y = min(max(CENTRE, box.y), box.y + box.height)
    return math.hypot(nearest_x - CENTRE, nearest_y - CENTRE) >= HUB_RADIUS + margin


ORDERS = ("outer", "rows", "middle", "down-right", "down-left", "up-right", "up-left")
"""How a sector's candidate spots are ranked, tried in turn until every tile fits: the outermost
first; in rings from the rim inwards, the middle of each ring first; nearest the wedge's middle;
then in horizontal shelves, top to bottom or bottom to top, each filled from one side."""


@lru_cache(maxsize=64)
def _spots(sector: int, order: str) -> tuple[tuple[float, float], ...]:
    """Candidate tile centres in a sector, the best first by `order`."""
    grid = _grid(sector)
    return tuple(grid[index] for index in _ranks(sector, order))


@lru_cache(maxsize=64)
def _ranks(sector: int, order: str) -> tuple[int, ...]:
    """The candidate centres of `_grid(sector)` by their index there, the best first by `order`."""
    centre_angle = math.radians(sector_angle(sector))
    grid = _grid(sector)

    def rank(index: int) -> tuple[float, ...]:
        spot = grid[index]
        dx, dy = spot[0] - CENTRE, spot[1] - CENTRE
        radius = math.hypot(dx, dy)
        off = abs((math.atan2(dy, dx) - centre_angle + math.pi) % (2 * math.pi) - math.pi)
        if order == "outer":
            return (-radius, off)
        if order == "rows":
            return (-round(radius / 8), off)
        if order != "middle":
            vertical, horizontal = order.split("-")
            return (
                spot[1] if vertical == "down" else -spot[1],
                spot[0] if horizontal == "right" else -spot[0],
            )
        return (abs(radius - 0.6 * TILE_RADIUS) + 100 * off,)

    return tuple(sorted(range(len(grid)), key=rank))


@lru_cache(maxsize=SECTORS)
def _grid(sector: int) -> tuple[tuple[float, float], ...]:
    """The points of the candidate grid inside a sector's wedge (in no particular order)."""
    steps = int(SIZE / STEP) + 1
    return tuple(
        (i * STEP, j * STEP)
        for i in range(steps)
        for j in range(steps)
        if inside_wedge(sector, i * STEP, j * STEP, 0.0)
    )


@lru_cache(maxsize=4096)
def _fitting_centres(sector: int, width: float, height: float) -> bytes:
    """For each candidate centre of `_grid(sector)`, 1 where a box of this size lies inside the
    sector, else 0 (`box_inside_wedge` over every candidate, its tests written out: one per new
    tile size). By index, not by point: a point's float pair costs more to hash than to test."""
    (a1, b1), (a2, b2) = _edges(sector)
    rim = (TILE_RADIUS - MARGIN) ** 2
    hub = HUB_RADIUS + MARGIN
    fitting = bytearray(len(_grid(sector)))
    for index, (cx, cy) in enumerate(_grid(sector)):
        x, y = cx - width / 2, cy - height / 2
        left, top = x - CENTRE, y - CENTRE
        right, bottom = x + width - CENTRE, y + height - CENTRE
        if (
            max(left * left, right * right) + max(top * top, bottom * bottom) > rim
            or a1 * (top if a1 >= 0 else bottom) + b1 * (left if b1 >= 0 else right) < MARGIN
            or a2 * (top if a2 >= 0 else bottom) + b2 * (left if b2 >= 0 else right) < MARGIN
        ):
            continue
        nearest_x = min(max(CENTRE, x), x + width)
        nearest_y = min(max(CENTRE, y), y + height)
        if math.hypot(nearest_x - CENTRE, nearest_y - CENTRE) >= hub:
            fitting[index] = 1
    return bytes(fitting)


#: A candidate box as the packing reads it: left, top, and right and bottom grown by the gap.
Candidate = tuple[float, float, float, float]


@lru_cache(maxsize=8192)
def _fitting(sector: int, order: str, width: float, height: float) -> tuple[Candidate, ...]:
    """Every box of this size that lies inside the sector, in the order's preference."""
    inside, grid = _fitting_centres(sector, width, height), _grid(sector)
    half_width, half_height = width / 2, height / 2
    return tuple(
        (
            cx - half_width,
            cy - half_height,
            cx - half_width + width + MARGIN,
            cy - half_height + height + MARGIN,
        )
        for cx, cy in (grid[index] for index in _ranks(sector, order) if inside[index])
    )


WEDGE_AREA = math.pi * (TILE_RADIUS**2 - HUB_RADIUS**2) / SECTORS
FILL = 0.6
"""Tiles covering more than this share of a wedge are not tried: the packing never gets there."""


def _pack(
    sector: int, sizes: tuple[tuple[float, float], ...], order: str
) -> tuple[Box, ...] | None:
    """Boxes of the given sizes placed in the sector without overlap, or None if they don't fit."""
    # The widest first: they need the roomy middle.
    biggest_first = sorted(range(len(sizes)), key=lambda k: -sizes[k][0] * sizes[k][1])
    placed = _place(sector, order, tuple(sizes[k] for k in biggest_first))
    if placed is None:
        return None
    result = dict(zip(biggest_first, placed, strict=True))
    return tuple(result[k] for k in range(len(sizes)))


@lru_cache(maxsize=8192)
def _place(
    sector: int, order: str, sizes: tuple[tuple[float, float], ...]
) -> tuple[Box, ...] | None:
    """Boxes of the given sizes placed one by one, each on the first candidate spot that keeps
    clear of the boxes before it, or None if one finds none. (Many sectors' tiles come to the
    same sizes, the compact labels above all, so the placing is remembered by the sizes.)"""
    # Each placed box as its candidate (left, top, right, bottom; the last two grown by the gap):
    # a candidate overlaps it unless it lies wholly to one side (`Box.overlaps`, unrolled: this
    # is the hot loop).
    placed: list[Candidate] = []
    boxes: list[Box] = []
    # A box of the same size as one before it cannot go on a spot that box passed over (those
    # overlap a box that is still there) nor on its own: its search starts after them.
    start: dict[tuple[float, float], int] = {}
    for width, height in sizes:
        candidates = _fitting(sector, order, width, height)
        first = start.get((width, height), 0)
        for index in range(first, len(candidates)):
            candidate = candidates[index]
            x, y, right, bottom = candidate
            for left, top, other_right, other_bottom in placed:
                if not (right <= left or other_right <= x or bottom <= top or other_bottom <= y):
                    break
            else:
                placed.append(candidate)
                boxes.append(Box(x, y, width, height))
                start[width, height] = index + 1
                break
        else:
            return None
    return tuple(boxes)


@lru_cache(maxsize=4096)
def label_styles(name: str, multiplier: str) -> tuple[Label, ...]:
    """A tile's labels from the roomiest to the most compact."""
    return (
        Label((name,), multiplier),
        Label(two_lines(name), multiplier),
        Label((short_name(name),), multiplier),
        Label((initials(name),), multiplier),
        Label((initials(name),)),
    )


@lru_cache(maxsize=4096)
def layout_sector(sector: int, tiles: tuple[tuple[str, str], ...]) -> tuple[tuple[Label, Box], ...]:
    """Each tile's label and box in a sector; `tiles` are (name, multiplier) pairs in order.

    Every tile starts with its roomiest label; while they do not all fit, the widest tile that
    can still shrink takes its next, more compact label — so a crowded sector keeps as many whole
    names as it has room for.
    """
    if not tiles:
        return ()
    styles = [label_styles(name, multiplier) for name, multiplier in tiles]
    last = len(styles[0]) - 1
    levels = [0] * len(tiles)
    while True:
        labels = tuple(style[level] for style, level in zip(styles, levels, strict=True))
        sizes = tuple(label_size(label) for label in labels)
        crowded = sum(w * h for w, h in sizes) > FILL * WEDGE_AREA
        if not crowded or all(level == last for level in levels):
            for order in ORDERS:
                boxes = _pack(sector, sizes, order)
                if boxes is not None:
                    return tuple(zip(labels, boxes, strict=True))
        shrinkable = [k for k, level in enumerate(levels) if level < last]
        if not shrinkable:
            raise ValueError(f"{len(tiles)} tiles do not fit in sector {sector}")
        widest = max(shrinkable, key=lambda k: (sizes[k][0], -k))
        levels[widest] += 1


def warm_up(texts: Iterable[tuple[str, str]]) -> None:
    """Work out ahead what packing a sector with these tile texts ((name, multiplier) pairs)
    for the first time would: every sector's candidate spots in every order, and where a tile
    of each size their labels can take fits. A server calls it once at start (~0.3 s for every
    building in three languages), so its first games are not packed cold; a sector's own
    placing still is, the first time its tiles meet."""
    sizes = {
        label_size(label) for name, multiplier in texts for label in label_styles(name, multiplier)
    }
    for sector in range(SECTORS):
        for order in ORDERS:
            _spots(sector, order)
        for width, height in sorted(sizes):
            _fitting_centres(sector, width, height)
