"""Random complete games for 1-5 players, full and short: the invariants of every position."""

from __future__ import annotations

import pytest
from lehavre_support import play, random_game

from engine.lehavre import (
    apply,
    canonical,
    current_player,
    is_finished,
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
