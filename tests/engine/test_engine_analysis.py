"""The analysis of a played game (engine/analysis.py): deterministic, every turn weighed, and a
planted blunder — a turn that throws its action away where a good one was at hand — is the
biggest loss."""

from __future__ import annotations

import random

from test_engine_cli import opening_moves

from engine import apply, new_game
from engine.ai import choose_move
from engine.analysis import analyse, turning_points, turns_of
from engine.moves import Move


def planted_blunder(length: int = 20, at: int = 9, seed: int = 1) -> tuple[list[str], int]:
    """A game of ``length`` actions by the normal bot in which action ``at`` is a Wood Trader used
    to trade nothing (the action thrown away); returns the moves and the blunder's index."""
    state, moves, rng = new_game(), [], random.Random(seed)
    blunder = -1
    while state.turn < length:
        if state.turn == at and blunder < 0:
            blunder = len(moves)
            move: Move | str = '{"building":"wood_trader","payments":[],"type":"use"}'
        else:
            move = choose_move(state, "normal", rng)
        state = apply(state, move)
        moves.append(move if isinstance(move, str) else move.canonical)
    return moves, blunder


def test_the_planted_blunder_is_the_biggest_loss() -> None:
    moves, blunder = planted_blunder()
    seen: list[tuple[int, int]] = []
    reviews = analyse(moves, on_progress=lambda done, total: seen.append((done, total)))
    assert seen == [(n, 20) for n in range(1, 21)]
    assert [r.start for r in reviews] == [t.start for t in turns_of(moves)]
    top = turning_points(reviews)
    assert top[0].start == blunder
    assert top[0].loss >= 2 * top[1].loss
    assert top[0].best != top[0].played
    assert reviews == analyse(moves)  # a fixed work budget: the same every time


def test_turns_group_sells_with_their_action() -> None:
    moves = [*opening_moves()[:6], '{"building":"wood_company","type":"sell"}']
    turns = turns_of(moves)
    assert [t.start for t in turns] == [0, 1, 2, 3, 4]
    assert [len(t.played) for t in turns] == [1, 1, 1, 1, 2]
