"""The wheel layout (app/ui/wheel_layout.py): every tile inside its sector's wedge, clear of the
hub's sector badges, never on another tile — with up to 8 buildings in a sector, all 31 on one
wheel, in every language, and at every position of random games; and the very layouts of a
plain reading of the packing, without its shortcuts."""

from __future__ import annotations

import itertools
import math
import random
from functools import cache

import pytest

import engine
from app.i18n import LANGUAGES
from app.ui import wheel_layout as layout
from app.ui.tile_text import text_runs
from app.ui.warehouse import every_tile_text, mat, sector_texts, wheel_sectors
from app.ui.words import words_for
from bench.games import positions, sample_view

CATALOG = engine.default_catalog()


def names(lang: str) -> list[str]:
    return [b.name_in(lang) for b in CATALOG.buildings]


def check_sector(sector: int, placed: tuple[tuple[layout.Label, layout.Box], ...]) -> None:
    boxes = [box for _, box in placed]
    for label, box in placed:
        assert layout.box_inside_wedge(sector, box), (sector, label, box)
        width, height = layout.label_size(label)
        assert (box.width, box.height) == pytest.approx((width, height))
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), (sector, a, b)


def test_a_box_leaves_its_wedge_when_a_corner_does() -> None:
    top = layout.Box(layout.CENTRE - 20, 40, 40, 20)
    assert layout.box_inside_wedge(0, top)
    assert not layout.box_inside_wedge(1, top)
    assert not layout.box_inside_wedge(0, layout.Box(layout.CENTRE - 20, 0, 40, 20))  # past the rim
    near_hub = layout.Box(layout.CENTRE - 10, layout.CENTRE - 40, 20, 20)
    assert not layout.box_inside_wedge(0, near_hub)  # over the sector badges


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_eight_of_the_longest_names_fit_in_every_sector(lang: str) -> None:
    longest = sorted(names(lang), key=layout.text_width, reverse=True)
    for sector in range(layout.SECTORS):
        for count in (1, 4, 8):
            tiles = tuple((name, "×4") for name in longest[:count])
            placed = layout.layout_sector(sector, tiles)
            assert len(placed) == count
            check_sector(sector, placed)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_all_31_buildings_fit_on_one_wheel(lang: str) -> None:
    rng = random.Random(lang)
    every = names(lang)
    assert len(every) == 31
    for _ in range(3):
        rng.shuffle(every)
        for sector, chunk in enumerate((every[0:8], every[8:16], every[16:24], every[24:31])):
            check_sector(sector, layout.layout_sector(sector, tuple((n, "×3") for n in chunk)))


def test_few_tiles_show_their_whole_name_and_multiplier() -> None:
    placed = layout.layout_sector(2, (("Hardware Store", "×3"), ("Kiln", "×3")))
    assert [(" ".join(label.lines), label.multiplier) for label, _ in placed] == [
        ("Hardware Store", "×3"),
        ("Kiln", "×3"),
    ]


def test_text_stays_in_its_box() -> None:
    label = layout.Label(("Pont de", "Normandie"), "×2")
    box = layout.Box(100, 100, *layout.label_size(label))
    lines, multiplier = text_runs(label, box)
    assert multiplier is not None
    for run in lines:
        assert box.x < run.x and run.x + run.width <= box.x + box.width
        assert box.y < run.y <= box.y + box.height
    assert (
        multiplier.x <= box.x + box.width
        and multiplier.x - multiplier.width >= lines[-1].x + lines[-1].width
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_tile_of_random_games_sits_in_its_wedge(seed: int) -> None:
    rng = random.Random(seed)
    words = words_for("cs")
    for state, log in positions(400, rng.choice)[::7]:
        view = sample_view("r", state, log, 0)
        for seat in (0, 1):
            tiles = mat(view, seat, words).tiles
            for t in tiles:
                assert t.box is not None and t.label is not None
                age = dict(state.players[seat].buildings)[t.id]
                assert layout.box_inside_wedge(age, t.box)
                assert bool(t.label.multiplier) == bool(
                    engine.has_action(t.id) and CATALOG.multiplier_by_age[age]
                )
            for a, b in itertools.combinations(tiles, 2):
                assert a.box is not None and b.box is not None
                assert not a.box.overlaps(b.box)


def test_the_board_draws_each_tile_in_the_wheel_svg() -> None:
    from app.ui.board import render_board

    rng = random.Random(5)
    state, log = positions(60, rng.choice)[-1]
    seat = state.to_move if state.to_move is not None else 0
    html = render_board(sample_view("r", state, log, seat), lang="en")
    owned = [b for b, age in state.players[seat].buildings if age is not None]
    assert owned
    for building_id in owned:
        assert f'role="button" tabindex="0"\n   data-building="{building_id}"' in html
    spectator = render_board(sample_view("r", state, log, None), lang="en")
    assert 'role="button"' not in spectator
    assert spectator.count('class="wedge-label') == 2 * layout.SECTORS


def corners_inside(sector: int, box: layout.Box) -> bool:
    """`box_inside_wedge` read plainly: each of the four corners in the wedge, the hub clear."""
    if not all(layout.inside_wedge(sector, x, y) for x, y in box.corners()):
        return False
    nearest_x = min(max(layout.CENTRE, box.x), box.x + box.width)
    nearest_y = min(max(layout.CENTRE, box.y), box.y + box.height)
    return (
        math.hypot(nearest_x - layout.CENTRE, nearest_y - layout.CENTRE)
        >= layout.HUB_RADIUS + layout.MARGIN
    )


@cache
def plain_fitting(sector: int, order: str, width: float, height: float) -> list[layout.Box]:
    boxes = (
        layout.Box(cx - width / 2, cy - height / 2, width, height)
        for cx, cy in layout._spots(sector, order)
    )
    return [box for box in boxes if corners_inside(sector, box)]


def plain_pack(
    sector: int, sizes: list[tuple[float, float]], order: str
) -> list[layout.Box] | None:
    """The greedy packing read plainly: the biggest first, each on the first spot in the order
    that stays clear of the boxes before it."""
    result: dict[int, layout.Box] = {}
    for k in sorted(range(len(sizes)), key=lambda k: -sizes[k][0] * sizes[k][1]):
        free = (
            box
            for box in plain_fitting(sector, order, *sizes[k])
            if not any(box.overlaps(other, layout.MARGIN) for other in result.values())
        )
        box = next(free, None)
        if box is None:
            return None
        result[k] = box
    return [result[k] for k in range(len(sizes))]


def plain_layout(
    sector: int, tiles: tuple[tuple[str, str], ...]
) -> list[tuple[layout.Label, layout.Box]]:
    """`layout_sector` read plainly: shrink the widest shrinkable tile until a packing fits."""
    styles = [layout.label_styles(name, multiplier) for name, multiplier in tiles]
    levels = [0] * len(tiles)
    last = len(styles[0]) - 1
    while True:
        labels = [style[level] for style, level in zip(styles, levels, strict=True)]
        sizes = [layout.label_size(label) for label in labels]
        crowded = sum(w * h for w, h in sizes) > layout.FILL * layout.WEDGE_AREA
        if not crowded or all(level == last for level in levels):
            for order in layout.ORDERS:
                boxes = plain_pack(sector, sizes, order)
                if boxes is not None:
                    return list(zip(labels, boxes, strict=True))
        shrinkable = [k for k, level in enumerate(levels) if level < last]
        assert shrinkable
        levels[max(shrinkable, key=lambda k: (sizes[k][0], -k))] += 1


def test_the_packing_lays_out_as_its_plain_reading() -> None:
    """The packing's shortcuts (the boxes that fit each size, remembered placings, the search of
    a tile resumed after an alike tile's spot, one corner per test) change no layout: at the
    positions of random games in every language, and in crowded sectors."""
    sectors: set[tuple[int, tuple[tuple[str, str], ...]]] = set()
    rng = random.Random(11)
    for state, _log in positions(120, rng.choice)[::3]:
        for seat in (0, 1):
            for lang in LANGUAGES:
                for age, ids in wheel_sectors(CATALOG, state.players[seat].buildings):
                    sectors.add((age, sector_texts(CATALOG, age, ids, lang)))
    for lang in sorted(LANGUAGES):
        every = names(lang)
        rng.shuffle(every)
        for sector in range(layout.SECTORS):
            sectors.add((sector, tuple((n, "×4") for n in every[sector * 5 : sector * 5 + 8])))
    for sector, tiles in sorted(sectors):
        assert list(layout.layout_sector(sector, tiles)) == plain_layout(sector, tiles), tiles


def test_a_box_is_inside_when_its_four_corners_are() -> None:
    rng = random.Random(3)
    for _ in range(20000):
        box = layout.Box(
            rng.uniform(0, layout.SIZE),
            rng.uniform(0, layout.SIZE),
            rng.choice([rng.uniform(1, 150), 4.0 * rng.randrange(1, 40)]),
            rng.choice([21.0, 37.0, rng.uniform(1, 60)]),
        )
        sector = rng.randrange(layout.SECTORS)
        assert layout.box_inside_wedge(sector, box) == corners_inside(sector, box), (sector, box)


def test_the_warm_up_leaves_no_wheel_geometry_to_work_out() -> None:
    """After `warm_up` with every tile text (what a server does at start), packing the wheels of
    random games in every language, and crowded sectors, works out no candidate spots and no
    fitting centres anew."""
    for memo in (layout._spots, layout._fitting_centres, layout._fitting, layout._place):
        memo.cache_clear()
    layout.layout_sector.cache_clear()
    layout.warm_up(every_tile_text([CATALOG], LANGUAGES))
    spots, centres = layout._spots.cache_info(), layout._fitting_centres.cache_info()
    asked = 0
    rng = random.Random(5)
    for state, _log in positions(400, rng.choice)[::4]:
        for seat in (0, 1):
            for lang in LANGUAGES:
                for age, ids in wheel_sectors(CATALOG, state.players[seat].buildings):
                    layout.layout_sector(age, sector_texts(CATALOG, age, ids, lang))
                    asked += 1
    for lang in sorted(LANGUAGES):
        every = names(lang)
        for sector in range(layout.SECTORS):
            layout.layout_sector(sector, tuple((n, "") for n in every[sector * 5 : sector * 5 + 8]))
    assert asked > 100
    assert layout._fitting_centres.cache_info().hits > centres.hits
    assert layout._spots.cache_info().misses == spots.misses
    assert layout._fitting_centres.cache_info().misses == centres.misses
