"""What the end of the current round holds: the actions each player still has in it, and the
buildings that will reach "!" and be sold at its end unless someone uses (or sells) them first.

Players act in turn, one action (build, use or pass) each; sells take no action. At a round's
end every building on a wheel moves on one sector, and one that reaches the "!" sector is sold at
once for half its value (`rules._end_action`)."""

from __future__ import annotations

from dataclasses import dataclass

from .state import GameState


@dataclass(frozen=True)
class RoundForecast:
    """The rest of the current round, as things stand."""

    round: str
    """The round's letter."""
    actions_left: tuple[int, int]
    """Actions each seat still takes in this round."""
    sold_at_end: tuple[tuple[str, ...], tuple[str, ...]]
    """Per seat, the buildings (ids, sorted) sold at the round's end unless used or sold first."""


def round_forecast(state: GameState) -> RoundForecast | None:
    """The forecast of the current round; None once the game is over."""
    if state.finished:
        return None
    catalog = state.catalog
    end = catalog.round_ends[state.round_index]
    actions = tuple(
        sum(1 for turn in range(state.turn, end) if turn % 2 == seat) for seat in (0, 1)
    )
    doomed = tuple(
        tuple(
            sorted(
                building_id
                for building_id, age in player.buildings
                if age is not None and age + 1 >= catalog.sold_at_age
            )
        )
        for player in state.players
    )
    return RoundForecast(
        round=state.round_letter,
        actions_left=(actions[0], actions[1]),
        sold_at_end=(doomed[0], doomed[1]),
    )
