"""The engine against spec_model.py, an independent plain reading of SPEC.md.

At every compared position the two must list exactly the same legal moves (canonical strings,
same order) and agree on the summary after each move.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import spec_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import apply, from_summary, legal_moves, new_game, summary

GOLDEN = sorted((Path(__file__).resolve().parent / "golden").glob("game-*.json"))


def engine_legal(state: Any) -> list[str]:
    return [m.canonical for m in legal_moves(state)]


def compare_moves(state: Any, moves: list[str]) -> None:
    """Apply each move in both; the summaries must agree."""
    data = summary(state)
    for move in moves:
        expected = spec_model.apply(data, move)
        assert summary(apply(state, move)) == expected, move


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_games_follow_the_model(path: Path) -> None:
    game = json.loads(path.read_text())
    state = new_game()
    model = spec_model.derive(summary(new_game()))
    assert model == summary(state)
    for index, move in enumerate(game["moves"]):
        assert engine_legal(state) == spec_model.legal_moves(model), f"position {index}"
        state = apply(state, move)
        model = spec_model.apply(model, move)
        assert summary(state) == model, f"after move {index}: {move}"


cells = st.tuples(st.integers(0, 5), st.integers(0, 5))


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    """Any turn, any warehouse, 0..12 francs, buildings in play owned at random ages."""
    turn = draw(st.integers(0, 71))
    index, _ = spec_model.clock(turn)
    players: list[dict[str, Any]] = [
        {
            "francs": draw(st.integers(0, 12)),
            "goods": {g: list(draw(cells)) for g in spec_model.GOODS},
            "buildings": {},
        }
        for _ in range(2)
    ]
    for building, entry in sorted(spec_model.BUILDINGS.items()):
        if spec_model.LETTERS.index(entry["letter"]) > index:
            continue
        owner = draw(st.sampled_from([None, None, 0, 0, 1]))
        if owner is not None:
            age = None if building in spec_model.LOCKED else draw(st.integers(0, 4))
            players[owner]["buildings"][building] = age
    return spec_model.derive({"turn": turn, "players": players})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=positions(), seed=st.integers(0, 2**32 - 1))
def test_random_positions_follow_the_model(data: dict[str, Any], seed: int) -> None:
    state = from_summary(data)
    assert summary(state) == data
    listed = engine_legal(state)
    assert listed == spec_model.legal_moves(data)
    sample = random.Random(seed).sample(listed, min(len(listed), 40))
    compare_moves(state, sample)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_follow_the_model(seed: int) -> None:
    """Whole games; at every position up to 20 listed moves are applied in both."""
    rng = random.Random(seed)
    state = new_game()
    model = summary(state)
    while not model["finished"]:
        listed = engine_legal(state)
        assert listed == spec_model.legal_moves(model)
        compare_moves(state, listed if len(listed) <= 20 else rng.sample(listed, 20))
        sells = [m for m in listed if '"type":"sell"' in m]
        actions = [m for m in listed if m not in sells]
        move = rng.choice(sells) if sells and rng.randrange(8) == 0 else rng.choice(actions)
        state = apply(state, move)
        model = spec_model.apply(model, move)
        assert summary(state) == model, move
