"""The rules of *Le Havre: The Inland Port* as a pure, data-driven package (see docs/engine-api.md).

Standard library only; never imports the web application. States are immutable and
``apply(state, move)`` returns a new state.
"""

from .canonical import canonical_json
from .catalog import GOODS, Building, Catalog, default_catalog
from .effects import USE_FEE, has_action, use_fee
from .errors import SENTENCES, IllegalMove, MalformedMove
from .events import Event, gains_nothing
from .forecast import RoundForecast, round_forecast
from .loader import load_catalog
from .moves import Move, canonical, parse_move
from .rules import apply, apply_with_events, legal_moves, replay
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
    winner,
)
from .warehouse import paid_amounts
from .wheel import sector_label, sector_labels, sector_multipliers

__all__ = [
    "GOODS",
    "SENTENCES",
    "USE_FEE",
    "Building",
    "Catalog",
    "Event",
    "GameState",
    "IllegalMove",
    "MalformedMove",
    "Move",
    "PlayerState",
    "RoundForecast",
    "apply",
    "apply_with_events",
    "building_value",
    "canonical",
    "canonical_json",
    "default_catalog",
    "from_summary",
    "gains_nothing",
    "has_action",
    "is_finished",
    "legal_moves",
    "load_catalog",
    "new_game",
    "paid_amounts",
    "parse_move",
    "replay",
    "round_forecast",
    "score_breakdown",
    "scores",
    "sector_label",
    "sector_labels",
    "sector_multipliers",
    "summary",
    "summary_json",
    "use_fee",
    "winner",
]
