"""Ships: prices, the food each type supplies per player count, building them, every standard
building covered by a scenario."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from lehavre_support import enter, goods_of, position

from engine.lehavre import IllegalMove, apply, default_catalog, legal_moves
from engine.lehavre.flow import food_owed

FOOD = {  # ship type: food for 1, 2, 3, 4, 5 players (the catalog's numbers)
    "wooden": [5, 4, 3, 2, 1],
    "iron": [7, 5, 4, 3, 2],
    "steel": [10, 7, 6, 5, 3],
    "luxury_liner": [0, 0, 0, 0, 0],
}
SHIP = {"wooden": "S01", "iron": "S06", "steel": "S12", "luxury_liner": "S20"}


@pytest.mark.parametrize("kind", sorted(FOOD))
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_each_ship_feeds_by_player_count(kind: str, players: int) -> None:
    state = position(players, ships=[[SHIP[kind]]] + [[] for _ in range(players - 1)])
    card = replace(state.cards[0], food=20)
    assert food_owed(state, state.players[0], card) == 20 - FOOD[kind][players - 1]


@pytest.mark.parametrize(("kind", "price"), [("wooden", 14), ("iron", 20), ("steel", 30)])
def test_ships_are_bought_at_their_price(kind: str, price: int) -> None:
    k = [t.id for t in default_catalog().ship_types].index(kind)
    piles = tuple((SHIP[kind],) if i == k else () for i in range(4))
    state = replace(position(goods=[{"franc": price}, {}]), piles=piles)
    after = apply(state, {"type": "buy", "ship": SHIP[kind]})
    assert after.players[0].ships == (SHIP[kind],) and goods_of(after, 0) == {}
    sold = apply(after, {"type": "sell", "ship": SHIP[kind]})
    assert sold.piles[k][0] == SHIP[kind]
    assert sold.players[0].goods[0] == default_catalog().ships[SHIP[kind]].value // 2


def test_a_luxury_liner_is_built_not_bought() -> None:
    state = position(
        goods=[{"franc": 99, "steel": 3, "brick": 1, "coke": 1}, {}], buildings=[["wharf_2"], []]
    )
    state = replace(state, piles=((), (), (), ("S20",)))
    assert not [m for m in legal_moves(state) if m.type == "buy" and m.ship]
    with pytest.raises(IllegalMove):
        apply(state, {"type": "buy", "ship": "S20"})
    after = enter(state, "wharf_2", ship="S20", energy={"coke": 1})
    assert after.players[0].ships == ("S20",) and after.modernised == ("wharf_2",)
    assert goods_of(after, 0) == {"franc": 99}


def test_a_steel_ship_at_a_modernised_wharf() -> None:
    state = position(goods=[{"steel": 2, "wood": 3}, {}], buildings=[["wharf_1"], []])
    state = replace(state, piles=((), (), ("S12",), ()), modernised=("wharf_1",))
    after = enter(state, "wharf_1", ship="S12", energy={"wood": 3})
    assert after.players[0].ships == ("S12",) and goods_of(after, 0) == {}


def test_building_firm_two_charges_a_food() -> None:
    state = position(goods=[{"fish": 1, "clay": 2}, {}])
    state = replace(state, proposals=(("bakehouse",), (), ()))
    after = enter(state, "building_firm_2", fee={"fish": 1}, build=["bakehouse"])
    assert after.players[0].buildings == ("bakehouse",) and goods_of(after, 0) == {}


def test_dock_is_worth_four_per_ship() -> None:
    from engine.lehavre import scores

    state = position(buildings=[["dock"], []], ships=[["S01", "S06"], []])
    assert scores(state)[0] == 10 + 4 * 2 + 2 + 2


def test_every_standard_building_has_a_scenario() -> None:
    here = Path(__file__).parent
    text = " ".join(p.read_text() for p in here.glob("test_lehavre_*.py"))
    standard = [b.id for b in default_catalog().buildings.values() if b.group != "special"]
    assert [b for b in standard if f'"{b}"' not in text] == []
