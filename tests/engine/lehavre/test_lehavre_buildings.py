"""A scenario per standard building: a position built by hand, the numbers from the catalog."""

from __future__ import annotations

import pytest
from lehavre_support import enter, goods_of, position

from engine.lehavre import legal_moves

GAINS = [
    # building, the visitor's goods, the owned buildings, choices, the goods afterwards
    ("fishery", {}, ["fishery"], {}, {"fish": 4}),
    ("fishery", {}, ["fishery", "hardware_store"], {}, {"fish": 5}),
    ("clay_mound", {}, [], {}, {"clay": 3}),
    ("clay_mound", {}, ["joinery", "hardware_store"], {}, {"clay": 5}),
    ("colliery", {}, ["colliery"], {}, {"coal": 3}),
    ("colliery", {}, ["colliery", "joinery"], {}, {"coal": 4}),
    ("hardware_store", {}, ["hardware_store"], {}, {"wood": 1, "brick": 1, "iron": 1}),
    (
        "grocery_market",
        {},
        ["grocery_market"],
        {},
        {"cattle": 1, "meat": 1, "fish": 1, "smoked_fish": 1, "grain": 1, "bread": 1},
    ),
    ("ironworks", {}, ["ironworks"], {}, {"iron": 3}),
    ("ironworks", {"wood": 6}, ["ironworks"], {"extra": True, "energy": {"wood": 6}}, {"iron": 4}),
    ("church", {"bread": 5, "fish": 2}, ["church"], {}, {"bread": 10, "fish": 5}),
    ("joinery", {"wood": 3}, ["joinery"], {"counts": [0, 0, 1]}, {"franc": 7}),
    ("joinery", {"wood": 3}, ["joinery"], {"counts": [1, 0, 0]}, {"franc": 5, "wood": 2}),
    (
        "bakehouse",
        {"grain": 3, "wood": 2},
        ["bakehouse"],
        {"counts": [3], "energy": {"wood": 2}},
        {"bread": 3, "franc": 1},
    ),
    ("charcoal_kiln", {"wood": 4}, ["charcoal_kiln"], {"counts": [4]}, {"charcoal": 4}),
    (
        "smokehouse",
        {"fish": 7, "wood": 1},
        ["smokehouse"],
        {"counts": [6], "energy": {"wood": 1}},
        {"fish": 1, "smoked_fish": 6, "franc": 3},
    ),
    ("abattoir", {"cattle": 5}, ["abattoir"], {"counts": [5]}, {"meat": 5, "hides": 2}),
    (
        "brickworks",
        {"clay": 4, "coal": 1},
        ["brickworks"],
        {"counts": [4], "energy": {"coal": 1}},
        {"brick": 4, "franc": 2},
    ),
    ("tannery", {"hides": 5}, ["tannery"], {"counts": [4]}, {"hides": 1, "leather": 4, "franc": 4}),
    (
        "steel_mill",
        {"iron": 2, "coke": 1},
        ["steel_mill"],
        {"counts": [2], "energy": {"coke": 1}},
        {"steel": 2},
    ),
    ("cokery", {"coal": 3}, ["cokery"], {"counts": [3]}, {"coke": 3, "franc": 3}),
    (
        "business_office",
        {"fish": 5},
        ["business_office"],
        {"give": {"fish": 5}, "get": ["steel", "leather"]},
        {"steel": 1, "leather": 1},
    ),
    (
        "bridge_over_the_seine",
        {"fish": 7, "meat": 2},
        ["bridge_over_the_seine"],
        {"give": {"fish": 6, "meat": 2}},
        {"fish": 1, "franc": 4},
    ),
    (
        "marketplace",
        {},
        ["marketplace", "joinery"],
        {"goods": ["fish", "iron", "hides"]},
        {"fish": 1, "iron": 1, "hides": 1},
    ),
]


@pytest.mark.parametrize(("building", "have", "owned", "choices", "after"), GAINS)
def test_building_effect(
    building: str,
    have: dict[str, int],
    owned: list[str],
    choices: dict[str, object],
    after: dict[str, int],
) -> None:
    owned = owned if building in owned else [building, *owned]
    state = position(goods=[have, {}], buildings=[owned, []])
    result = enter(state, building, **choices)
    assert goods_of(result, 0) == after
    assert result.players[0].disc == building
    assert result.phase == "after"
    listed = [m for m in legal_moves(state) if m.type == "enter" and m.building == building]
    assert listed, "the building is listed as enterable"
