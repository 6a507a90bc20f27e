"""Random complete games for the Le Havre tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.lehavre import Move, State, apply, is_finished, legal_moves, new_game, random_setup
from engine.lehavre.setup import Setup


def random_game(players: int, variant: str, seed: int) -> Iterator[tuple[State, list[Move], Move]]:
    """Each position of a random game, its legal moves and the move chosen."""
    rng = random.Random(seed)
    state = new_game(random_setup(players, variant, seed))
    while not is_finished(state):
        moves = legal_moves(state)
        move = rng.choice(moves)
        yield state, moves, move
        state = apply(state, move)


def play(setup: Setup, seed: int) -> tuple[State, list[Move]]:
    rng = random.Random(seed)
    state = new_game(setup)
    played = []
    while not is_finished(state):
        move = rng.choice(legal_moves(state))
        played.append(move)
        state = apply(state, move)
    return state, played
