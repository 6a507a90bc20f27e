"""Hypothesis over random positions: refused moves change nothing and name a code; summaries replay."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from lehavre_support import position_after

from engine.lehavre import (
    IllegalMove,
    MalformedMove,
    apply,
    canonical,
    legal_moves,
    new_game,
    parse_move,
    random_setup,
    replay,
    summary,
)

FIELD_VALUES = {
    "fee": [{}, {"franc": 1}, {"fish": 2}, {"meat": 1, "franc": 1}],
    "energy": [{}, {"wood": 1}, {"coal": 1, "wood": 1}, {"coke": 1}],
    "counts": [[], [0], [1], [9], [1, 1]],
    "goods": [[], ["fish"], ["fish", "wood"], ["steel", "coke"]],
    "build": [[], ["church"], ["fishery", "fishery"]],
    "building": ["fishery", "bank", "harbour_watch", "construction_firm", "wharf_1"],
    "give": [{}, {"fish": 1}, {"steel": 3, "franc": 1}],
    "payment": [{}, {"fish": 1}, {"franc": 99}],
}


def _mutate(move: dict[str, object], rng: random.Random) -> dict[str, object]:
    field = rng.choice(sorted(FIELD_VALUES))
    changed = dict(move)
    changed[field] = rng.choice(FIELD_VALUES[field])
    if rng.random() < 0.3:
        changed["type"] = rng.choice(["take", "enter", "buy", "sell", "repay", "end", "feed"])
    return changed


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(1, 5),
    variant=st.sampled_from(["full", "short"]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 300),
)
def test_refused_moves_change_nothing_and_name_a_code(
    players: int, variant: str, seed: int, steps: int
) -> None:
    state = position_after(players, variant, seed, steps)
    before = json.dumps(summary(state), sort_keys=True)
    rng = random.Random(seed)
    for move in legal_moves(state)[:12]:
        tried = _mutate(canonical(move), rng)
        try:
            after = apply(state, tried)
        except (MalformedMove, IllegalMove) as err:
            assert isinstance(err, ValueError)
            assert err.code and isinstance(err.params, dict)
            json.dumps(err.params)
        else:
            assert parse_move(canonical(parse_move(tried))) == parse_move(tried)
            assert all(min(p.goods) >= 0 for p in after.players)
        assert json.dumps(summary(state), sort_keys=True) == before


@settings(max_examples=15, deadline=None)
@given(
    players=st.integers(1, 5),
    variant=st.sampled_from(["full", "short"]),
    seed=st.integers(0, 10_000),
)
def test_replay_gives_the_same_summary_at_every_position(
    players: int, variant: str, seed: int
) -> None:
    setup = random_setup(players, variant, seed)
    rng = random.Random(seed)
    state = new_game(setup)
    moves = []
    for _ in range(150):
        options = legal_moves(state)
        if not options:
            break
        move = rng.choice(options)
        state = apply(state, move)
        moves.append(json.loads(json.dumps(canonical(move))))
        if len(moves) % 25 == 0:
            assert summary(replay(setup, moves)) == summary(state)
