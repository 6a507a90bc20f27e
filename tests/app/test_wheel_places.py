"""The wheel tiles' places as classes (static/css/wheel.css), so the CSP needs no inline style.

`python tests/app/test_wheel_places.py` writes the stylesheet; the test checks it is current and
that every place a tile can take on a wheel has its classes, within a quarter percent.
"""

from __future__ import annotations

import re
from pathlib import Path

import engine
from app.roomview import RoomView
from app.ui.board import render_board
from app.ui.wheel import WHEEL_SECTORS, tile_positions

ROOT = Path(__file__).resolve().parents[2]
STYLESHEET = ROOT / "static" / "css" / "wheel.css"
STEPS = 200
"""Half-percent steps from 0 % to 100 %."""


def stylesheet() -> str:
    lines = [
        "/* Where a tile sits on a wheel, in half-percent steps of the wheel box: `at-xN` is left N/2 %,",
        " * `at-yN` top N/2 % (macros.html `tile_button`). Classes, not style attributes, so that the",
        " * Content-Security-Policy can forbid inline styles. Written by tests/app/test_wheel_places.py. */",
    ]
    for axis, prop in (("x", "left"), ("y", "top")):
        lines += [f".at-{axis}{n} {{ {prop}: {n / 2:g}%; }}" for n in range(STEPS + 1)]
    return "\n".join(lines) + "\n"


def test_the_stylesheet_is_current() -> None:
    assert STYLESHEET.read_text() == stylesheet()


def test_every_place_on_a_wheel_has_its_classes() -> None:
    buildings = len(engine.new_game().catalog.by_id)
    for sector in range(WHEEL_SECTORS):
        for count in range(1, buildings + 1):
            for x, y in tile_positions(sector, count):
                for value in (x, y):
                    step = round(value * 2)
                    assert 0 <= step <= STEPS
                    assert abs(step / 2 - value) <= 0.25


def test_a_board_places_its_tiles_by_class() -> None:
    state = engine.new_game()
    for _ in range(6):
        state = engine.apply(state, next(m for m in engine.legal_moves(state) if m.type != "sell"))
    view = RoomView(
        room_id="r",
        version=6,
        state=state,
        viewer_seat=0,
        seats_claimed=(True, True),
        online=(True, True),
        spectators=0,
        log=(),
        invite_link=None,
        spectator_link=None,
        seat_link=None,
        rematch=None,
    )
    html = render_board(view)
    assert "style=" not in html
    assert re.search(r'class="tile [^"]*tile-on-wheel at-x\d+ at-y\d+"', html)


if __name__ == "__main__":
    STYLESHEET.write_text(stylesheet())
