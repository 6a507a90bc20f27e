"""The ``strong`` player: the heuristic's best few main actions, each tried by a short playout.

At a main action (phases ``main`` and ``final``) with more than one candidate, the heuristic's
``CANDIDATES`` best moves (6 with one or two players, 4 with more) are each played out
``PLAYOUTS`` times: every player, the mover included, then plays the heuristic's move until
``TURNS_AHEAD`` more of the mover's turns have ended (2 with one or two players, 1 with more; or
the game is over, or ``MAX_STEPS`` decisions have passed), and the position reached is judged with
the evaluation. The candidate with the best mean is played. Hidden information is redrawn for each playout (the supply
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

CANDIDATES = {1: 6, 2: 6}
"""Candidates tried, by player count (``OTHERWISE`` for more players)."""
TURNS_AHEAD = {1: 2, 2: 2}
"""The mover's turns played out after the candidate's, by player count."""
OTHERWISE = (4, 1)
PLAYOUTS = 1
MAX_STEPS = 40
"""Decisions a playout makes at most (bounds the time of a move whatever the position)."""
LOOKAHEAD_PHASES = ("main", "final")
OWN_TURN = ("main", "after", "final", "final_after")


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


def _turn(st: State) -> tuple[int, int, int]:
    """Which turn of the game ``st`` is in (a final turn by the final turns still due)."""
    return st.round, st.turn, len(st.finals)


def playout(st: State, seat: int, turns_ahead: int, rng: random.Random) -> float:
    """The worth to ``seat`` once ``turns_ahead`` more of its turns after the one of ``st`` have
    ended (or the game is over, or ``MAX_STEPS`` decisions have passed), everyone playing the
    heuristic."""
    last, turns = _turn(st), 0
    for _ in range(MAX_STEPS):
        if st.phase == "over":
            break
        key = _turn(st)
        on_turn = st.current == seat and st.phase in OWN_TURN
        if on_turn and key != last:
            turns, last = turns + 1, key
        if turns >= turns_ahead and not (on_turn and key == last):
            break
        st = best(ranked(st), rng)[2]
    return worth(st, seat)


def choose(st: State, rng: random.Random) -> Move:
    """The strong player's move for the player to move in ``st``."""
    scored = ranked(st)
    if st.phase not in LOOKAHEAD_PHASES or len(scored) < 2:
        return best(scored, rng)[1]
    seat, players = st.current, st.setup.players
    candidates = CANDIDATES.get(players, OTHERWISE[0])
    turns_ahead = TURNS_AHEAD.get(players, OTHERWISE[1])
    results = []
    for _, move, after in scored[:candidates]:
        total = 0.0
        for _ in range(PLAYOUTS):
            total += playout(redraw_hidden(after, rng), seat, turns_ahead, rng)
        results.append((total / PLAYOUTS, move))
    top = max(value for value, _ in results)
    return next(move for value, move in results if value == top)
