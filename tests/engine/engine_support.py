"""Shared helpers for the engine tests: positions built from SPEC §8 summaries.

Every position starts from the rulebook's opening warehouse (4 fish, 3 clay, 2 wood, 1 grain on
the catalog's start cells) and 3 francs; a test overrides only what its rule needs, so the expected
values in a test can be read off the position it writes down.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from engine import GameState, apply, from_summary, legal_moves, summary

GOODS = ("clay", "fish", "grain", "wood")

START_GOODS: dict[str, tuple[int, int]] = {
    "fish": (0, 4),
    "clay": (0, 3),
    "wood": (0, 2),
    "grain": (0, 1),
}

# Turn 64 is the second action of round L (turns 63..71): every building has entered play,
# seat 0 is to move and 8 actions are left, so one action never ends the round.
LATE_TURN = 64


def player(
    francs: int = 3,
    goods: Mapping[str, tuple[int, int]] | None = None,
    buildings: Mapping[str, int | None] | None = None,
) -> dict[str, Any]:
    """One player's part of a summary: start goods unless overridden good by good."""
    cells = dict(START_GOODS)
    cells.update(goods or {})
    return {
        "francs": francs,
        "goods": {good: list(cells[good]) for good in sorted(cells)},
        "buildings": dict(buildings or {}),
    }


def position(
    *players: dict[str, Any],
    turn: int = LATE_TURN,
) -> GameState:
    """A position at `turn` with the two given players (default: fresh players)."""
    seats = list(players) + [player() for _ in range(2 - len(players))]
    return from_summary({"turn": turn, "players": seats})


def canonical_text(move: Mapping[str, Any]) -> str:
    """SPEC §5 canonical form of a move written as a dict in a test."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def legal_texts(state: GameState) -> list[str]:
    """The legal moves of a position as canonical strings, in the engine's order."""
    return [move.canonical for move in legal_moves(state)]


def moves_for(state: GameState, kind: str, building: str) -> set[str]:
    """Canonical strings of the legal moves of one type for one building."""
    return {
        move.canonical
        for move in legal_moves(state)
        if move.type == kind and move.building == building
    }


def use(building: str, **choice: Any) -> dict[str, Any]:
    """A `use` move as a dict."""
    return {"type": "use", "building": building, **choice}


def build(building: str, payment: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A `build` move as a dict."""
    return {"type": "build", "building": building, "payment": dict(payment or {})}


def texts(moves: Iterable[Mapping[str, Any]]) -> set[str]:
    """Canonical strings of moves written as dicts."""
    return {canonical_text(move) for move in moves}


def players_after(state: GameState, move: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The players' part of the summary after applying `move`."""
    result: list[dict[str, Any]] = summary(apply(state, move))["players"]
    return result
