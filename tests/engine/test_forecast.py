"""The round forecast against the engine itself, at every position of random games: each seat
takes exactly the actions forecast before the round's end, and the buildings sold at that end are
exactly the forecast ones nobody used or sold in between."""

from __future__ import annotations

import random

import pytest

import engine


def rest_of_round(
    state: engine.GameState, rng: random.Random
) -> tuple[list[int], set[str], set[tuple[int, str]]]:
    """Play the round out at random: who acted, which buildings were used or sold, what the
    round's end sold (seat, building)."""
    acted: list[int] = []
    touched: set[str] = set()
    while True:
        move = rng.choice(engine.legal_moves(state))
        seat = state.to_move
        assert seat is not None
        state, events = engine.apply_with_events(state, move)
        if move.type != "sell":
            acted.append(seat)
        for event in events:
            if event.kind in ("use", "sell"):
                touched.add(event["building"])
            if event.kind == "round_end":
                sold = {(e["seat"], e["building"]) for e in events if e.kind == "forced_sale"}
                return acted, touched, sold


@pytest.mark.parametrize("seed", range(3))
def test_the_forecast_matches_the_engine_at_every_position(seed: int) -> None:
    rng = random.Random(seed)
    state = engine.new_game()
    doomed_seen = 0
    while state.to_move is not None:
        forecast = engine.round_forecast(state)
        assert forecast is not None
        assert forecast.round == state.round_letter
        assert sum(forecast.actions_left) == state.actions_left
        acted, touched, sold = rest_of_round(state, random.Random(rng.random()))
        assert (acted.count(0), acted.count(1)) == forecast.actions_left
        expected = {
            (seat, b) for seat in (0, 1) for b in forecast.sold_at_end[seat] if b not in touched
        }
        assert sold == expected
        doomed_seen += sum(map(len, forecast.sold_at_end))
        state = engine.apply(state, rng.choice(engine.legal_moves(state)))
    assert engine.round_forecast(state) is None
    assert doomed_seen > 0
