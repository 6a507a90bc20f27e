"""The wheel layout (app/ui/wheel_layout.py): every tile inside its sector's wedge, clear of the
hub's sector badges, never on another tile — with up to 8 buildings in a sector, all 31 on one
wheel, in every language, and at every position of random games."""

from __future__ import annotations

import itertools
import random

import pytest

import engine
from app.i18n import LANGUAGES
from app.ui import wheel_layout as layout
from app.ui.warehouse import mat
from app.ui.words import words_for
from bench.games import positions, room_view

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
    lines, multiplier = layout.text_runs(label, box)
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
        view = room_view("r", state, log, 0)
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
    html = render_board(room_view("r", state, log, seat), lang="en")
    owned = [b for b, age in state.players[seat].buildings if age is not None]
    assert owned
    for building_id in owned:
        assert f'role="button" tabindex="0"\n   data-building="{building_id}"' in html
    spectator = render_board(room_view("r", state, log, None), lang="en")
    assert 'role="button"' not in spectator
    assert spectator.count('class="wedge-label') == 2 * layout.SECTORS
