"""The rules of *Le Havre: The Inland Port* as a pure, data-driven package (see docs/engine-api.md).

Standard library only; never imports the web application. States are immutable and
``apply(state, move)`` returns a new state.
"""

from .catalog import GOODS, Building, Catalog, default_catalog
from .errors import IllegalMove, MalformedMove
from .events import Event
from .loader import load_catalog
from .moves import Move, canonical, parse_move
from .rules import apply, apply_with_events, legal_moves, replay, sector_label
from .state import (
    GameState,
    PlayerState,
    building_value,
    from_summary,
    is_finished,
    new_game,
    score_breakdown,
    scores,
    summary,
    summary_json,
)

__all__ = [
    "GOODS",
    "Building",
    "Catalog",
    "Event",
    "GameState",
    "IllegalMove",
    "MalformedMove",
    "Move",
    "PlayerState",
    "apply",
    "apply_with_events",
    "building_value",
    "canonical",
    "default_catalog",
    "from_summary",
    "is_finished",
    "legal_moves",
    "load_catalog",
    "new_game",
    "parse_move",
    "replay",
    "score_breakdown",
    "scores",
    "sector_label",
    "summary",
    "summary_json",
]
