"""The round forecast on the table: each player's actions left and the buildings sold at the
round's end unless used, as `engine.round_forecast` says, at positions of a random game."""

from __future__ import annotations

import random
import re

import engine
from app.ui.board import render_board
from bench.games import positions, sample_view


def test_the_table_shows_the_engines_forecast() -> None:
    shown_doomed = 0
    for state, log in positions(300, random.Random(16).choice)[::5]:
        html = render_board(sample_view("r", state, log, 1), lang="en")
        forecast = engine.round_forecast(state)
        if forecast is None:
            assert 'id="forecast-actions"' not in html
            continue
        actions = re.search(r'<p class="forecast-actions"[^>]*>(.*?)</p>', html, re.S)
        assert actions is not None
        text = re.sub(r"<[^>]+>", "", actions.group(1))
        for seat, n in enumerate(forecast.actions_left):
            plural = "action" if n == 1 else "actions"
            assert f"Player {seat + 1}: {n} {plural} left" in text
        doomed = re.findall(r'class="doomed seat-(\d)" data-building="(\w+)"', html)
        expected = [(str(s), b) for s in (0, 1) for b in forecast.sold_at_end[s]]
        assert doomed == expected
        shown_doomed += len(doomed)
    assert shown_doomed > 0
