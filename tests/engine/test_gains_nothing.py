"""`gains_nothing`: a use whose events show no goods and no francs gained leaves its player no
richer — at most poorer by the fee and what it paid — checked against the position itself at
every use of random games; any other use changes the player's goods or francs."""

from __future__ import annotations

import random

import pytest

import engine

WAREHOUSE = engine.default_catalog().warehouse


def amounts(player: engine.PlayerState) -> dict[str, int]:
    return {
        good: WAREHOUSE.row_value * row + WAREHOUSE.column_value * column
        for good, (row, column) in player.goods.items()
    }


@pytest.mark.parametrize("seed", range(4))
def test_gains_nothing_matches_what_the_use_did(seed: int) -> None:
    rng = random.Random(seed)
    state = engine.new_game()
    found = 0
    while state.to_move is not None:
        moves = engine.legal_moves(state)
        seat = state.to_move
        me = state.players[seat]
        for move in moves:
            if move.type != "use":
                continue
            after, events = engine.apply_with_events(state, move)
            fee = next(e["fee"] for e in events if e.kind == "use")
            # A round's end may sell buildings at once: those francs are not the use's.
            sold = sum(e["francs"] for e in events if e.kind == "forced_sale" and e["seat"] == seat)
            mine = after.players[seat]
            unchanged = mine.goods == me.goods and mine.francs == me.francs - fee + sold
            if engine.gains_nothing(events):
                found += 1
                assert all(amounts(mine)[g] <= amounts(me)[g] for g in engine.GOODS), move
                assert mine.francs <= me.francs - fee + sold, move
            else:
                assert not unchanged, move
        state = engine.apply(state, rng.choice(moves))
    assert found > 0


def test_only_uses_can_gain_nothing() -> None:
    state = engine.new_game()
    for move in engine.legal_moves(state):
        assert not engine.gains_nothing(engine.apply_with_events(state, move)[1])
