"""Uses that gain nothing (decided from the engine's events) are not highlighted on the table and
carry a warning in the panel; a use that gains something has no warning."""

from __future__ import annotations

import random
import re

import engine
from app.ui.board import render_board
from app.ui.panel import build_panel, moves_by_building
from bench.games import positions, sample_view


def futile_positions() -> list[tuple[engine.GameState, tuple, str]]:
    """Positions of random games where every use of some building gains nothing."""
    found = []
    for seed in range(6):
        for state, log in positions(300, random.Random(seed).choice):
            if state.to_move is None:
                continue
            for building, moves in moves_by_building(state).items():
                uses = [m for m in moves if m.type == "use"]
                if (
                    uses
                    and len(uses) == len(moves)
                    and all(
                        engine.gains_nothing(engine.apply_with_events(state, m)[1]) for m in uses
                    )
                ):
                    found.append((state, log, building))
        if len(found) >= 3:
            break
    return found


def test_a_building_that_can_only_gain_nothing_is_not_highlighted_and_warns() -> None:
    found = futile_positions()
    assert found
    for state, log, building in found[:3]:
        seat = state.to_move
        html = render_board(sample_view("r", state, log, seat), lang="en")
        tile = re.search(rf'<g class="tile [^"]*"[^>]*data-building="{building}"', html)
        playable = re.search(r'<div id="board"[^>]*data-playable="([^"]*)"', html)
        assert tile is not None and "can-act" not in tile.group(0)
        assert playable is not None and building not in playable.group(1).split()
        panel = build_panel(state, seat, building, lang="en")
        assert panel.choice is not None and panel.choice.preview is not None
        assert (panel.choice.preview.warning or "").startswith("This gains you nothing")


def test_a_use_that_gains_something_carries_no_warning() -> None:
    for state, _ in positions(120, random.Random(9).choice):
        if state.to_move is None:
            continue
        for building, moves in moves_by_building(state).items():
            use = next((m for m in moves if m.type == "use"), None)
            if use is None:
                continue
            panel = build_panel(state, state.to_move, building, lang="en")
            if panel.choice is None or panel.choice.move is None:
                continue
            chosen = engine.apply_with_events(state, panel.choice.move)[1]
            assert panel.choice.preview is not None
            assert (panel.choice.preview.warning is None) == (not engine.gains_nothing(chosen))
