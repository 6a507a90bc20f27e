"""Paying for buildings: valid, minimal payments (SPEC §2 "Paying", §5 `build`).

A payment moves a counter down a rows and left b columns and pays 3a + b; it is valid when the
final cell exists, the goods paid cover the cost and no step can be left out. The expected sets
below are worked by hand; the last test checks the engine against the rule as spec_model.py reads it
on random warehouses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from engine_support import (
    build,
    canonical_text,
    legal_texts,
    moves_for,
    player,
    position,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from spec_model import build_payments, text

from engine import IllegalMove, apply, new_game, summary


def test_new_game_legal_moves() -> None:
    """Start: 3 francs, fish (0,4), clay (0,3), wood (0,2), grain (0,1); supply = the A buildings.

    - clay_mound (3 francs), farmland (1 franc): francs costs, payment {}.
    - grocery_store (food 2): fish L2, or fish L1 + grain L1 (nothing can step down from row 0,
      grain L2 needs column 2).
    - hardware_store (wood 1, clay 2): wood L1 and clay L2.
    - wood_company (clay 1): clay L1.
    Sorted by canonical string.
    """
    assert legal_texts(new_game()) == [
        '{"building":"clay_mound","payment":{},"type":"build"}',
        '{"building":"farmland","payment":{},"type":"build"}',
        '{"building":"grocery_store","payment":{"fish":{"left":1},"grain":{"left":1}},"type":"build"}',
        '{"building":"grocery_store","payment":{"fish":{"left":2}},"type":"build"}',
        '{"building":"hardware_store","payment":{"clay":{"left":2},"wood":{"left":1}},"type":"build"}',
        '{"building":"wood_company","payment":{"clay":{"left":1}},"type":"build"}',
    ]


def payment_texts(building: str, payments: list[dict[str, Any]]) -> set[str]:
    return {canonical_text(build(building, p)) for p in payments}


L = "left"
D = "down"

HAND_WORKED = [
    # kiln costs 2 wood. Rulebook: wood on the 6 in the second column (2,1) = 7, pay 2 -> only
    # D (two L steps would leave the board).
    ("kiln", {"wood": (2, 1)}, [{"wood": {D: 1}}]),
    # (2,2): L2 pays exactly 2, D1 pays 3; neither is below the other. DL (4) contains D1.
    ("kiln", {"wood": (2, 2)}, [{"wood": {L: 2}}, {"wood": {D: 1}}]),
    ("kiln", {"wood": (0, 2)}, [{"wood": {L: 2}}]),
    ("kiln", {"wood": (0, 1)}, []),  # 1 wood cannot pay 2
    ("kiln", {"wood": (1, 0)}, [{"wood": {D: 1}}]),  # 3 wood in column 0: overpay with D
    ("kiln", {"wood": (5, 5)}, [{"wood": {L: 2}}, {"wood": {D: 1}}]),
    # brick_factory costs 4 wood: L4, DL (3+1) and D2 (6) are the minimal shapes.
    (
        "brick_factory",
        {"wood": (2, 4)},
        [{"wood": {L: 4}}, {"wood": {D: 1, L: 1}}, {"wood": {D: 2}}],
    ),
    ("brick_factory", {"wood": (1, 3)}, [{"wood": {D: 1, L: 1}}]),
    ("brick_factory", {"wood": (2, 0)}, [{"wood": {D: 2}}]),
    ("brick_factory", {"wood": (1, 0)}, []),
    # wood_company costs 1 clay: paying 1 with D is valid (bigger step), DL is not (D alone pays).
    ("wood_company", {"clay": (1, 2)}, [{"clay": {L: 1}}, {"clay": {D: 1}}]),
    ("wood_company", {"clay": (1, 0)}, [{"clay": {D: 1}}]),
    ("wood_company", {"clay": (0, 0)}, []),
    # sawmill costs 3 clay: L3 or D1.
    ("sawmill", {"clay": (1, 3)}, [{"clay": {L: 3}}, {"clay": {D: 1}}]),
    ("sawmill", {"clay": (0, 3)}, [{"clay": {L: 3}}]),
    # hardware_store costs 1 wood and 2 clay, each good paid on its own: wood L1 or D1, clay L2.
    (
        "hardware_store",
        {"wood": (1, 1), "clay": (0, 2)},
        [{"wood": {L: 1}, "clay": {L: 2}}, {"wood": {D: 1}, "clay": {L: 2}}],
    ),
    # town_hall costs 4 wood and 4 clay: wood (1,1) = 4 only by DL; clay (1,4) = 7 by L4 or DL.
    (
        "town_hall",
        {"wood": (1, 1), "clay": (1, 4)},
        [{"wood": {D: 1, L: 1}, "clay": {L: 4}}, {"wood": {D: 1, L: 1}, "clay": {D: 1, L: 1}}],
    ),
    # Food = fish and/or grain. grocery_store costs 2 food.
    # Fish (1,1), grain (1,0): fish D1 or grain D1 (fish L2 and grain L leave the board; fish L1
    # + grain D1 pays 4 but grain D1 alone covers).
    ("grocery_store", {"fish": (1, 1), "grain": (1, 0)}, [{"fish": {D: 1}}, {"grain": {D: 1}}]),
    ("grocery_store", {"fish": (0, 0), "grain": (0, 2)}, [{"grain": {L: 2}}]),
    ("grocery_store", {"fish": (0, 1), "grain": (0, 0)}, []),  # 1 food
    # bakehouse costs 3 food: same warehouse, fish D1 or grain D1 (each exactly 3).
    ("bakehouse", {"fish": (1, 1), "grain": (1, 0)}, [{"fish": {D: 1}}, {"grain": {D: 1}}]),
    # bakehouse: fish (0,2), grain (0,2): fish L2 + grain L1, fish L1 + grain L2.
    (
        "bakehouse",
        {"fish": (0, 2), "grain": (0, 2)},
        [{"fish": {L: 2}, "grain": {L: 1}}, {"fish": {L: 1}, "grain": {L: 2}}],
    ),
    # weekly_market costs 6 food. Fish (1,2) = 5, grain (0,2) = 2:
    #   fish D1L2 (5) + grain L1 (1) = 6, fish D1L1 (4) + grain L2 (2) = 6; every other cover
    #   contains one of these or falls short (fish D1 + grain L2 = 5).
    (
        "weekly_market",
        {"fish": (1, 2), "grain": (0, 2)},
        [
            {"fish": {D: 1, L: 1}, "grain": {L: 2}},
            {"fish": {D: 1, L: 2}, "grain": {L: 1}},
        ],
    ),
    # zoo costs 10 food: fish (3,1) = 10 exactly, grain 0 -> only fish D3L1.
    ("zoo", {"fish": (3, 1), "grain": (0, 0)}, [{"fish": {D: 3, L: 1}}]),
]


@pytest.mark.parametrize(
    ("building", "goods", "payments"),
    HAND_WORKED,
    ids=[f"{b}-{json.dumps(g, sort_keys=True)}" for b, g, _ in HAND_WORKED],
)
def test_build_payments(
    building: str, goods: dict[str, tuple[int, int]], payments: list[dict[str, Any]]
) -> None:
    state = position(player(0, goods))
    assert moves_for(state, "build", building) == payment_texts(building, payments)


def test_build_pays_and_places_the_building_at_age_0() -> None:
    """Rulebook example paid: wood (2,1) -> D -> (1,1); the kiln is owned at age 0."""
    state = position(player(0, {"wood": (2, 1)}))
    after = summary(apply(state, build("kiln", {"wood": {"down": 1}})))
    assert after["players"][0]["goods"]["wood"] == [1, 1]
    assert after["players"][0]["buildings"] == {"kiln": 0}
    assert "kiln" not in after["supply"]
    assert after["turn"] == 65


def test_build_a_locked_building_owns_it_off_the_wheel() -> None:
    state = position(player(0, {"wood": (1, 1), "clay": (1, 4)}))
    after = summary(
        apply(state, build("town_hall", {"wood": {"down": 1, "left": 1}, "clay": {"left": 4}}))
    )
    assert after["players"][0]["buildings"] == {"town_hall": None}
    assert after["players"][0]["goods"]["wood"] == [0, 0]
    assert after["players"][0]["goods"]["clay"] == [1, 0]


@pytest.mark.parametrize(
    ("building", "francs", "legal"),
    [
        ("farmland", 1, True),
        ("farmland", 0, False),
        ("clay_mound", 3, True),
        ("clay_mound", 2, False),
        ("restaurant", 4, True),
        ("shipping_line", 7, False),
        ("pont_de_normandie", 25, True),
        ("pont_de_normandie", 24, False),
    ],
)
def test_francs_costs(building: str, francs: int, legal: bool) -> None:
    """Francs costs come from francs and are written `"payment": {}`."""
    state = position(player(francs))
    expected = {canonical_text(build(building))} if legal else set()
    assert moves_for(state, "build", building) == expected
    if legal:
        cost = {"farmland": 1, "clay_mound": 3, "restaurant": 4, "pont_de_normandie": 25}
        after = summary(apply(state, build(building)))
        assert after["players"][0]["francs"] == francs - cost[building]


@pytest.mark.parametrize(
    ("goods", "francs", "move"),
    [
        # DL pays 4 for 1 clay: D alone covers, so a step too many.
        ({"clay": (1, 2)}, 0, build("wood_company", {"clay": {"down": 1, "left": 1}})),
        # L3 for 2 wood: a step too many.
        ({"wood": (2, 2)}, 0, build("kiln", {"wood": {"left": 3}})),
        # L2 from column 1 leaves the board.
        ({"wood": (2, 1)}, 0, build("kiln", {"wood": {"left": 2}})),
        # Too little: L1 pays 1 of 2.
        ({"wood": (2, 2)}, 0, build("kiln", {"wood": {"left": 1}})),
        # Paying the wrong good.
        ({"clay": (2, 2)}, 0, build("kiln", {"clay": {"down": 1}})),
        # Goods given for a francs cost.
        ({}, 5, build("farmland", {"wood": {"left": 1}})),
        # Not enough francs.
        ({}, 2, build("clay_mound")),
        # A goods cost cannot be paid with an empty payment.
        ({}, 5, build("wood_company")),
        # Food paid with a good that is not food.
        ({}, 0, build("grocery_store", {"clay": {"left": 2}})),
        # Food paid with more than needed: fish L2 + grain L1 for 2.
        ({}, 0, build("grocery_store", {"fish": {"left": 2}, "grain": {"left": 1}})),
    ],
)
def test_invalid_payments_are_illegal_and_change_nothing(
    goods: dict[str, tuple[int, int]], francs: int, move: dict[str, Any]
) -> None:
    state = position(player(francs, goods))
    before = summary(state)
    with pytest.raises(IllegalMove) as refused:
        apply(state, move)
    assert isinstance(refused.value, ValueError)
    assert str(refused.value)
    assert summary(state) == before


def test_cannot_build_what_is_not_in_the_supply() -> None:
    """Owned by the opponent, or not yet in play (round A: the kiln enters in round B)."""
    owned = position(player(0, {"wood": (2, 2)}), player(3, {}, {"kiln": 0}))
    assert moves_for(owned, "build", "kiln") == set()
    with pytest.raises(IllegalMove):
        apply(owned, build("kiln", {"wood": {"left": 2}}))
    with pytest.raises(IllegalMove):
        apply(new_game(), build("kiln", {"wood": {"left": 2}}))


# A literal reading of SPEC §2 "Paying", used as an oracle on random warehouses.

COSTS: dict[str, dict[str, int]] = {}


def goods_costs() -> dict[str, dict[str, int]]:
    """Goods costs of every building, read from the catalog JSON (not from the engine)."""
    if not COSTS:
        data = json.loads(
            (Path(__file__).resolve().parents[2] / "engine" / "catalog.json").read_text()
        )
        for entry in data["buildings"]:
            cost = entry["cost"]
            if "francs" not in cost:
                COSTS[entry["id"]] = dict(cost)
    return COSTS


cells = st.tuples(st.integers(0, 5), st.integers(0, 5))


@settings(max_examples=40, deadline=None)
@given(fish=cells, clay=cells, wood=cells, grain=cells)
def test_build_payments_match_the_rule_on_random_warehouses(
    fish: tuple[int, int], clay: tuple[int, int], wood: tuple[int, int], grain: tuple[int, int]
) -> None:
    """Round L, nothing owned, 0 francs: every goods-cost building's build moves."""
    warehouse = {"fish": fish, "clay": clay, "wood": wood, "grain": grain}
    state = position(player(0, warehouse))
    for building, cost in goods_costs().items():
        expected = {
            f'{{"building":"{building}","payment":{text(p)},"type":"build"}}'
            for p in build_payments({g: list(c) for g, c in warehouse.items()}, cost)
        }
        assert moves_for(state, "build", building) == expected, building
