"""Golden games: recorded complete games replayed position by position.

Each file in golden/ (written by make_golden.py) holds a move list and, for the start and after
every move, the legal-move count, a SHA-1 of the legal moves' canonical strings and the summary.
Like a perft table, a changed count points at the first position where the rules as played
changed.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from engine import apply, legal_moves, new_game, summary

GOLDEN = sorted((Path(__file__).resolve().parent / "golden").glob("game-*.json"))


def test_golden_games_exist() -> None:
    assert len(GOLDEN) >= 3


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game(path: Path) -> None:
    game = json.loads(path.read_text())
    moves, positions = game["moves"], game["positions"]
    assert len(positions) == len(moves) + 1
    state = new_game()
    for index, record in enumerate(positions):
        texts = [m.canonical for m in legal_moves(state)]
        where = f"{path.name} position {index}"
        assert len(texts) == record["legal"], where
        assert hashlib.sha1("\n".join(texts).encode()).hexdigest() == record["legal_sha1"], where
        assert summary(state) == record["summary"], where
        if index < len(moves):
            state = apply(state, moves[index])
    final = positions[-1]["summary"]
    assert final["finished"] is True
    assert final["turn"] == 72
