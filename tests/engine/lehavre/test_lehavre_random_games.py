"""Random complete games for 1-5 players, full and short: the invariants of every position."""

from __future__ import annotations

import os
import random

import pytest
from lehavre_support import play, random_game

from engine.lehavre import (
    apply,
    canonical,
    current_player,
    is_finished,
    legal_moves,
    new_game,
    parse_move,
    random_setup,
    replay,
    summary,
    winners,
)

GAMES = [(n, v) for n in range(1, 6) for v in ("full", "short")]


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_every_listed_move_applies_and_goods_stay_non_negative(players: int, variant: str) -> None:
    for state, moves, _ in random_game(players, variant, seed=players * 7 + len(variant)):
        assert moves, summary(state)
        assert current_player(state) == state.current
        for move in moves:
            assert parse_move(canonical(move)) == move
            after = apply(state, move)
            for p in after.players:
                assert min(p.goods) >= 0
                assert p.loans >= 0


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_games_end_and_replay_to_the_same_summaries(players: int, variant: str) -> None:
    setup = random_setup(players, variant, seed=100 + players)
    final, moves = play(setup, seed=players)
    assert is_finished(final)
    assert current_player(final) is None
    assert winners(final)
    again = replay(setup, [canonical(m) for m in moves])
    assert summary(again) == summary(final)
    assert final.round == len(final.cards) + 1


RANDOM_GAMES = int(os.environ.get("LEHAVRE_RANDOM_GAMES", "2"))
"""Games per player count and variant; ``LEHAVRE_RANDOM_GAMES=100`` plays a thousand in all."""


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_many_random_games(players: int, variant: str) -> None:
    for number in range(RANDOM_GAMES):
        seed = 1000 * players + number
        rng = random.Random(seed)
        setup = random_setup(players, variant, seed)
        state, moves = new_game(setup), []
        while not is_finished(state):
            options = legal_moves(state)
            for move in rng.sample(options, min(3, len(options))):
                after = apply(state, move)
                assert all(min(p.goods) >= 0 and p.loans >= 0 for p in after.players)
            move = rng.choice(options)
            moves.append(canonical(move))
            state = apply(state, move)
        assert winners(state)
        assert summary(replay(setup, moves)) == summary(state)
