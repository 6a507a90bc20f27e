"""Rule facts the web app shows, asked of the engine instead of written again: the fee, buildings
without an action, the wheel's labels and multipliers, the winner, what a payment pays, canonical JSON.
"""

from __future__ import annotations

import json

from engine_support import player, position

import engine
from engine import (
    USE_FEE,
    canonical_json,
    default_catalog,
    has_action,
    paid_amounts,
    sector_label,
    sector_labels,
    sector_multipliers,
    summary,
    summary_json,
    use_fee,
    winner,
)


def test_using_the_opponents_building_costs_one_franc() -> None:
    """SPEC §6: "on the opponent's wheel the user first pays its owner 1 franc"."""
    assert USE_FEE == 1
    assert use_fee(owner=1, seat=0) == 1
    assert use_fee(owner=0, seat=0) == 0


def test_the_buildings_without_an_action_are_the_locked_ones() -> None:
    without = sorted(b.id for b in default_catalog().buildings if not has_action(b.id))
    assert without == [
        "brick_factory",
        "dock",
        "fish_factory",
        "grain_silo",
        "pont_de_normandie",
        "town_hall",
        "wood_factory",
        "zoo",
    ]


def test_the_wheel_labels_and_multipliers() -> None:
    catalog = default_catalog()
    assert sector_labels(catalog) == ("0", "2", "3", "4", "4+", "!")
    assert sector_multipliers(catalog) == (0, 2, 3, 4, 4)
    assert [sector_label(catalog, age) for age in range(6)] == list(sector_labels(catalog))


def test_the_winner_is_the_higher_score_and_none_for_a_draw() -> None:
    level = position(player(francs=5), player(francs=5), turn=72)
    assert winner(level) is None
    assert winner(position(player(francs=6), player(francs=5), turn=72)) == 0
    assert winner(position(player(francs=4), player(francs=5), turn=72)) == 1


def test_what_a_payment_pays() -> None:
    warehouse = default_catalog().warehouse
    assert paid_amounts(warehouse, (("clay", 1, 2), ("wood", 0, 1))) == {"clay": 5, "wood": 1}
    notation = {"clay": {"down": 1, "left": 2}, "wood": {"left": 1}}
    assert paid_amounts(warehouse, notation) == {"clay": 5, "wood": 1}


def test_canonical_json_is_the_summary_and_move_form() -> None:
    state = engine.new_game()
    assert canonical_json(summary(state)) == summary_json(state)
    move = engine.legal_moves(state)[0]
    assert canonical_json(move.to_json()) == move.canonical
    assert canonical_json({"b": [1, {"d": 2, "c": 3}], "a": "é"}) == json.dumps(
        {"a": "é", "b": [1, {"c": 3, "d": 2}]}, sort_keys=True, separators=(",", ":")
    )
