"""Le Havre's analysis (engine/lehavre/analysis.py): a game splits into its players' turns, and
each turn is weighed the same way on every run against the strong player's plan."""

from __future__ import annotations

import random

from engine.lehavre import apply, new_game, random_setup
from engine.lehavre.ai import choose
from engine.lehavre.analysis import ACTION_PHASES, review_turn, turns_of


def test_every_main_action_begins_one_turn_of_its_mover() -> None:
    setup = random_setup(3, "short", 8)
    state, rng, moves, starts = new_game(setup), random.Random(8), [], []
    while state.phase != "over" and len(moves) < 80:
        if state.phase in ACTION_PHASES:
            starts.append(len(moves))
        move = choose(state, "heuristic", rng)
        moves.append(move)
        state = apply(state, move)
    turns = turns_of(setup, [m.text() for m in moves])
    assert [t.start for t in turns] == starts
    for turn, after in zip(turns, [*turns[1:], None], strict=True):
        assert turn.played == tuple(moves[turn.start : turn.start + len(turn.played)])
        assert after is None or turn.start + len(turn.played) <= after.start


def test_a_turn_is_weighed_alike_every_time_and_never_gains_points() -> None:
    setup = random_setup(2, "short", 4)
    state, rng, moves = new_game(setup), random.Random(4), []
    for _ in range(30):
        move = choose(state, "heuristic", rng)
        moves.append(move)
        state = apply(state, move)
    turns = turns_of(setup, [m.text() for m in moves])
    for turn in turns[:4]:
        review = review_turn(turn)
        assert review == review_turn(turn)
        assert review.seat == turn.state.current and review.loss >= 0
        assert review.best and review.played == tuple(m.text() for m in turn.played)
        if review.best == review.played:
            assert review.loss == 0
