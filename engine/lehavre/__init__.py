"""The rules of *Le Havre* (Uwe Rosenberg, 2008; 1-5 players) as a pure, data-driven package.

Standard library only; never imports the web application. The small interface any game offers the
server: a :class:`Setup` (JSON), :func:`new_game`, :func:`legal_moves`, :func:`apply`,
:func:`current_player`, :func:`is_finished`, :func:`scores`, :func:`winners`, :func:`summary`,
:func:`parse_move` / :func:`canonical`, :func:`replay`. The contract is docs/le-havre/spec.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .catalog import Catalog
from .errors import IllegalMove, MalformedMove
from .flow import begin_turn
from .loader import CatalogError, default_catalog, load_catalog
from .moves import Move, canonical, parse_move
from .rules import apply, legal_moves
from .scoring import scores, summary, winners
from .setup import Setup, random_setup
from .state import State, start_state


def new_game(setup: Setup, catalog: Catalog | None = None) -> State:
    """The position at the first player's first main action (the first supply step is done)."""
    st = start_state(setup, catalog)
    return begin_turn(st, setup.first_player)


def current_player(state: State) -> int | None:
    """Whose decision it is, or ``None`` when the game is over."""
    return None if state.phase == "over" else state.current


def is_finished(state: State) -> bool:
    return state.phase == "over"


def replay(setup: Setup, moves: Iterable[Any], catalog: Catalog | None = None) -> State:
    """The position after ``moves`` from ``setup``; raises on the first refused move."""
    state = new_game(setup, catalog)
    for move in moves:
        state = apply(state, move)
    return state


__all__ = [
    "CatalogError",
    "IllegalMove",
    "MalformedMove",
    "Move",
    "Setup",
    "State",
    "apply",
    "canonical",
    "current_player",
    "default_catalog",
    "is_finished",
    "legal_moves",
    "load_catalog",
    "new_game",
    "parse_move",
    "random_setup",
    "replay",
    "scores",
    "summary",
    "winners",
]
