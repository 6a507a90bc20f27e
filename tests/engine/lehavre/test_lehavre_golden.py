"""Golden games: the listed-move count at every position and the final summary are pinned."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.lehavre import Setup, apply, legal_moves, new_game, summary

FILES = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_game(path: Path) -> None:
    game = json.loads(path.read_text())
    state = new_game(Setup.from_json(game["setup"]))
    for move, count in zip(game["moves"], game["legal_counts"], strict=True):
        assert len(legal_moves(state)) == count
        state = apply(state, move)
    assert legal_moves(state) == []
    assert summary(state) == game["final"]


def test_there_are_golden_games() -> None:
    assert len(FILES) >= 4
