"""The buildings by round letter: in the supply, built (and by whom), or still to come.

A building can be built while it is in the supply, paid from the warehouse (food is fish and grain
together) or in francs; a supply card that the player to move cannot build says why. The round
track shows the same rounds: past, current or still to come.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from app.roomview import RoomView
from engine import GameState

from .warehouse import have
from .wheel import Tile, tile
from .words import AMOUNT_ORDER, Words


def cost_of(state: GameState, building_id: str) -> dict[str, int]:
    """A building's printed cost, good -> amount."""
    return dict(state.catalog.building(building_id).cost)


def shortfall(words: Words, cost: Mapping[str, int], owned: Mapping[str, int]) -> str | None:
    """Why a cost cannot be paid, e.g. 'needs 2 clay, you have 1'; None when it can be covered.

    Food is fish and grain together; francs come from the player's francs. Several missing
    goods read 'needs 2 wood and 2 clay, you have 1 wood and 1 clay'.
    """
    needs: list[str] = []
    owns: list[str] = []
    counts: list[int] = []
    food = owned.get("fish", 0) + owned.get("grain", 0)
    for good in AMOUNT_ORDER:
        need = cost.get(good, 0)
        count = food if good == "food" else owned.get(good, 0)
        if need <= count:
            continue
        needs.append(words.amount(good, need))
        owns.append(words.amount(good, count) if good != "francs" else words.number(count))
        counts.append(count)
    if not needs:
        return None
    t = words.lang
    if len(needs) == 1:
        return t.gettext(
            "needs %(need)s, you have %(have)s", need=needs[0], have=words.number(counts[0])
        )
    return t.gettext("needs %(need)s, you have %(have)s", need=t.join(needs), have=t.join(owns))


def _status(state: GameState, building_id: str, owner: int | None) -> str:
    if owner is not None:
        return "owned"
    return "supply" if building_id in state.supply else "future"


def rounds(state: GameState) -> tuple[tuple[str, int, str], ...]:
    """Each round's letter, its number of actions, and "past", "current" or "future"."""
    return tuple(
        (
            letter,
            actions,
            "past" if i < state.round_index else "current" if i == state.round_index else "future",
        )
        for i, (letter, actions) in enumerate(state.catalog.rounds)
    )


def overview(
    view: RoomView, actionable: Collection[str], words: Words, *, acting: bool
) -> list[tuple[str, str, list[Tile]]]:
    """Every building by round letter (with "past", "current" or "future" for the round).

    ``acting`` is whether the viewer may move now: then a supply card it cannot build says why.
    """
    state = view.state
    wallet = have(state, view.viewer_seat) if view.viewer_seat is not None else {}
    letters: list[tuple[str, str, list[Tile]]] = []
    for letter, _actions, when in rounds(state):
        tiles = []
        for building in state.catalog.buildings:
            if building.letter != letter:
                continue
            owner = state.owner(building.id)
            status = _status(state, building.id, owner)
            reason = None
            if status == "supply" and acting and building.id not in actionable:
                reason = shortfall(
                    words, cost_of(state, building.id), wallet
                ) or words.lang.gettext("no valid payment")
            tiles.append(
                tile(
                    state.catalog,
                    building.id,
                    words.code,
                    status=status,
                    owner=owner,
                    age=None,
                    actionable=status == "supply" and building.id in actionable,
                    reason=reason,
                )
            )
        letters.append((letter, when, tiles))
    return letters
