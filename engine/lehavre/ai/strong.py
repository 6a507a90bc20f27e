"""The ``strong`` player: the heuristic's best few main actions, each tried by a short playout.

At a main action (phases ``main`` and ``final``) with more than one candidate, the heuristic's
``CANDIDATES`` best moves are each played out ``PLAYOUTS`` times: every player, the mover included,
then plays the heuristic's move until the mover's next turn has ended (or the game is over, or
``MAX_STEPS`` decisions have passed), and the position reached is judged with the evaluation. The
candidate with the best mean is played. Hidden information is redrawn for each playout (the supply
tiles still face down in round 1, the order of the special buildings), from the generator, so the
player does not look at what a player cannot see. Every other decision (buying after the action,
feeding, selling) is the heuristic's. The work is counted in playouts, never in seconds, so a seed
always gives the same game.
"""

from __future__ import annotations

import random
from dataclasses import replace as replace_record

from ..moves import Move
from ..state import State, replace
from .evaluation import worth
from .heuristic import best, ranked

CANDIDATES = 6
PLAYOUTS = 1
TURNS_AHEAD = 2
MAX_STEPS = 60
LOOKAHEAD_PHASES = ("main", "final")


def redraw_hidden(st: State, rng: random.Random) -> State:
    """``st`` with what no player can see shuffled: the round-1 supply tiles not yet turned and the
    face-down special buildings."""
    setup = st.setup
    tiles = setup.supply_tiles
    if st.round == 1 and st.turn < len(tiles):
        hidden = list(tiles[st.turn :])
        rng.shuffle(hidden)
        setup = replace_record(setup, supply_tiles=(*tiles[: st.turn], *hidden))
    specials = list(st.specials)
    rng.shuffle(specials)
    return replace(st, setup=setup, specials=tuple(specials))


def playout(st: State, seat: int, rng: random.Random) -> float:
    """The worth to ``seat`` once ``TURNS_AHEAD`` more of its turns after ``st`` have ended (or
    the game is over, or ``MAX_STEPS`` decisions have passed), every player playing the heuristic."""
    turns, was_other = 0, st.current != seat
    for _ in range(MAX_STEPS):
        if st.phase == "over":
            break
        mine = st.current == seat and st.phase in LOOKAHEAD_PHASES
        if mine and was_other:
            turns += 1
        if turns > TURNS_AHEAD or (turns == TURNS_AHEAD and not mine and st.current != seat):
            break
        was_other = st.current != seat
        st = best(ranked(st), rng)[2]
    return worth(st, seat)


def choose(st: State, rng: random.Random) -> Move:
    """The strong player's move for the player to move in ``st``."""
    scored = ranked(st)
    if st.phase not in LOOKAHEAD_PHASES or len(scored) < 2:
        return best(scored, rng)[1]
    seat = st.current
    results = []
    for _, move, after in scored[:CANDIDATES]:
        total = 0.0
        for _ in range(PLAYOUTS):
            total += playout(redraw_hidden(after, rng), seat, rng)
        results.append((total / PLAYOUTS, move))
    top = max(value for value, _ in results)
    return next(move for value, move in results if value == top)
