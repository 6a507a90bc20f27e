"""The ``heuristic`` player: one ply, the position after each move judged by the evaluation.

Every listed move (and each food payment's thrifty variant, payments.py) is applied, and the
position after it is scored with :func:`evaluation.worth` from the mover's seat; the best one is
played, exact ties broken by the generator. Buying, selling and repaying are moves like any other,
so the player buys a building when the building's worth beats the francs it costs.
"""

from __future__ import annotations

import random

from ..errors import IllegalMove
from ..moves import Move
from ..rules import apply, legal_moves
from ..state import State
from .evaluation import rounds_left, worth
from .payments import variants

Scored = tuple[float, Move, State]


def ranked(st: State) -> list[Scored]:
    """Every candidate move with its worth to the mover and the position after it, best first
    (stable: equal worths keep the listing order)."""
    seat, clock = st.current, rounds_left(st)
    out: list[Scored] = []
    for move in variants(st, legal_moves(st)):
        try:
            after = apply(st, move)
        except IllegalMove:
            continue  # a thrifty fee can leave too little for the effect chosen with the listed one
        out.append((worth(after, seat, clock), move, after))
    out.sort(key=lambda scored: -scored[0])
    return out


def best(scored: list[Scored], rng: random.Random) -> Scored:
    """The best of ``scored`` (sorted best first); a tie is broken by ``rng``."""
    top = scored[0][0]
    tied = [s for s in scored if s[0] >= top - 1e-9]
    return tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]


def choose(st: State, rng: random.Random) -> Move:
    """The heuristic's move for the player to move in ``st``."""
    return best(ranked(st), rng)[1]
