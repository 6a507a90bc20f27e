"""A scenario per base special building, with the numbers of the catalog."""

from __future__ import annotations

from dataclasses import replace

import pytest
from lehavre_support import enter, goods_of, position

from engine.lehavre import IllegalMove, apply, default_catalog, legal_moves, scores
from engine.lehavre.flow import end_turn, finish_round

ACTIONS = [
    # special, the visitor's goods, other buildings owned, choices, goods afterwards
    ("labour_exchange", {}, ["fishery", "hardware_store"], {}, {"fish": 3, "coal": 1}),
    ("bakery", {"bread": 7}, [], {"counts": [6]}, {"bread": 1, "franc": 18}),
    ("baguette_shop", {"bread": 2, "meat": 2}, [], {"counts": [2]}, {"franc": 12}),
    ("farm", {}, [], {}, {"fish": 2, "grain": 2, "wood": 2, "hides": 1, "cattle": 1}),
    ("clothing_industry", {"hides": 2, "leather": 2}, [], {"counts": [2]}, {"franc": 14}),
    ("iron_mine_and_coal_seam", {}, [], {}, {"iron": 2, "coal": 1}),
    ("fish_market", {"fish": 8}, [], {"counts": [7]}, {"fish": 1, "franc": 14}),
    ("fish_restaurant", {"smoked_fish": 3}, [], {"counts": [3]}, {"franc": 9}),
    ("fishpond_and_wood", {}, [], {}, {"fish": 3, "wood": 3}),
    ("forest_hut", {"wood": 1, "meat": 1}, [], {"counts": [1]}, {"franc": 5}),
    ("plant_nursery", {}, [], {}, {"franc": 3, "wood": 4}),
    ("smelter", {}, [], {}, {"coal": 1, "coke": 1, "iron": 1}),
    ("diner", {"wood": 1, "bread": 1, "smoked_fish": 1}, [], {"counts": [1]}, {"franc": 3}),
    ("hunting_lodge", {}, [], {}, {"hides": 2, "meat": 3}),
    (
        "coal_trader",
        {"fish": 5},
        [],
        {"counts": [1, 2], "food": {"fish": 5}},
        {"charcoal": 1, "coal": 2},
    ),
    ("patisserie", {"grain": 3, "bread": 3}, [], {"counts": [3]}, {"franc": 15}),
    (
        "furriery",
        {"hides": 2, "leather": 3},
        [],
        {"counts": [2, 2]},
        {"bread": 2, "leather": 1, "franc": 10},
    ),
    ("leather_industry", {"leather": 3, "franc": 14}, [], {"counts": [1]}, {"franc": 30}),
    ("kiln", {"clay": 1, "wood": 1}, [], {"counts": [1], "energy": {"wood": 1}}, {"brick": 3}),
    ("furniture_factory", {"wood": 2, "leather": 2}, [], {"counts": [2]}, {"franc": 12}),
    (
        "town_square",
        {},
        ["joinery", "bakehouse"],
        {"goods": ["bread", "coke"]},
        {"bread": 1, "coke": 1},
    ),
    ("tavern", {"wood": 4, "grain": 5}, [], {"counts": [4]}, {"grain": 1, "franc": 12}),
    ("schnaps_distillery", {"grain": 5}, [], {"counts": [4]}, {"grain": 1, "franc": 8}),
    (
        "steelworks",
        {"iron": 1, "coke": 2},
        [],
        {"counts": [1], "energy": {"coke": 2}},
        {"steel": 2},
    ),
    ("steakhouse", {"meat": 1, "charcoal": 1}, [], {"counts": [1]}, {"franc": 6}),
    ("brick_manufacturer", {"brick": 3, "franc": 10}, [], {"counts": [1]}, {"franc": 24}),
    ("zoo", {"fish": 4, "cattle": 3}, [], {}, {"fish": 4, "cattle": 3, "franc": 2}),
]


@pytest.mark.parametrize(("building", "have", "owned", "choices", "after"), ACTIONS)
def test_special_building_effect(
    building: str,
    have: dict[str, int],
    owned: list[str],
    choices: dict[str, object],
    after: dict[str, int],
) -> None:
    state = position(goods=[have, {}], buildings=[[building, *owned], []])
    assert goods_of(enter(state, building, **choices), 0) == after


def test_every_base_special_has_a_scenario() -> None:
    specials = {b.id for b in default_catalog().buildings.values() if b.group == "special"}
    covered = {row[0] for row in ACTIONS} | {
        "business_park",
        "guildhouse",
        "harbour_watch",
        "luxury_yacht",
        "feedlot",
        "masons_guild",
        "wind_farm",
        "workers_cottages",
        "haulage_firm",
    }
    assert specials == covered


def test_haulage_firm_takes_two_neighbouring_offers_for_three_francs() -> None:
    state = position(goods=[{"franc": 3}, {}], buildings=[["haulage_firm"], []])
    state = replace(state, offers=(2, 1, 2, 0, 1, 1, 3))
    after = enter(state, "haulage_firm", offers=["grain", "cattle"])
    assert goods_of(after, 0) == {"grain": 1, "cattle": 3}
    with pytest.raises(IllegalMove):
        enter(state, "haulage_firm", offers=["wood", "clay"])


def test_harbour_watch_uses_an_occupied_building() -> None:
    state = position(goods=[{"franc": 3}, {}], buildings=[["harbour_watch"], ["fishery"]])
    state = replace(state, players=(state.players[0], replace(state.players[1], disc="fishery")))
    listed = [m for m in legal_moves(state) if m.building == "harbour_watch" and m.type == "enter"]
    assert [m.target for m in listed] == ["fishery"]
    after = apply(state, listed[0])
    assert goods_of(after, 0) == {"franc": 2, "fish": 3}
    assert goods_of(after, 1) == {"franc": 1}
    assert after.players[0].disc == "fishery" and after.players[1].disc is None


def test_luxury_yacht_is_traded_for_an_iron_ship_at_a_wharf() -> None:
    state = position(buildings=[["wharf_1"], []], ships=[["S06"], []], town=["luxury_yacht"])
    after = enter(state, "wharf_1", exchange="S06")
    assert after.players[0].ships == () and "luxury_yacht" in after.players[0].buildings
    assert after.piles[1][0] == "S06"


def test_feedlot_breeds_two_cattle() -> None:
    state = position(goods=[{"cattle": 3}, {"cattle": 3}], buildings=[["feedlot"], []])
    after = end_turn(replace(state, turn=7, phase="after"))
    assert [p.goods[6] for p in after.players] == [5, 4]


def test_wind_farm_covers_three_energy_of_each_payment() -> None:
    state = position(goods=[{"grain": 6}, {}], buildings=[["wind_farm", "bakehouse"], []])
    assert goods_of(enter(state, "bakehouse", counts=[6]), 0) == {"bread": 6, "franc": 3}


def test_workers_cottages_gives_two_final_actions() -> None:
    state = position(buildings=[["workers_cottages"], []])
    last = replace(state, round=len(state.cards), to_feed=())
    final = finish_round(last)
    assert [final.current, *final.finals].count(0) == 2


def test_business_park_and_guildhouse_bonuses() -> None:
    state = position(buildings=[["business_park", "colliery", "cokery"], ["guildhouse", "bank"]])
    # the Guildhouse and the Bank each count both economic buildings, themselves included
    assert scores(state) == [10 + 10 + 18 + 2 * 2, 4 + 16 + 2 * 2 + 2 * 2]
