"""Scenarios for the buildings that move cards: the firms, the wharves, shipping, the court."""

from __future__ import annotations

from dataclasses import replace

import pytest
from lehavre_support import enter, goods_of, position

from engine.lehavre import IllegalMove, State, legal_moves


def _tops(state: State, *tops: str) -> State:
    return replace(state, proposals=tuple((t,) for t in tops))


def test_building_firm_constructs_a_proposal_top_paying_brick_for_missing_clay() -> None:
    state = _tops(
        position(goods=[{"wood": 1, "clay": 1, "brick": 2}, {}]), "colliery", "bank", "dock"
    )
    after = enter(state, "building_firm_1", build=["colliery"])
    assert "colliery" in after.players[0].buildings
    assert goods_of(after, 0) == {}
    assert after.proposals[0] == ()


def test_construction_firm_builds_two_and_charges_its_fee_to_the_town() -> None:
    have = {"wood": 3, "clay": 3, "franc": 2}
    state = _tops(position(goods=[have, {}]), "fishery", "charcoal_kiln", "dock")
    after = enter(state, "construction_firm", fee={"franc": 2}, build=["fishery", "charcoal_kiln"])
    assert {"fishery", "charcoal_kiln"} <= set(after.players[0].buildings)
    assert goods_of(after, 0) == {"wood": 2, "clay": 1}


def test_sawmill_builds_only_wood_buildings_one_wood_cheaper() -> None:
    state = _tops(
        position(goods=[{"wood": 1, "clay": 2}, {}], buildings=[["sawmill"], []]),
        "joinery",
        "bakehouse",
        "smokehouse",
    )
    moves = {m.build for m in legal_moves(state) if m.type == "enter" and m.building == "sawmill"}
    assert moves == {("smokehouse",)}
    after = enter(state, "sawmill", build=["smokehouse"])
    assert goods_of(after, 0) == {"clay": 1}


def test_masons_guild_takes_one_clay_off_every_construction() -> None:
    state = _tops(
        position(goods=[{"clay": 1}, {}], buildings=[["masons_guild"], []]),
        "bakehouse",
        "dock",
        "bank",
    )
    after = enter(state, "building_firm_1", build=["bakehouse"])
    assert goods_of(after, 0) == {}


def test_cards_without_materials_cannot_be_constructed() -> None:
    state = _tops(position(goods=[{"wood": 9}, {}]), "clay_mound", "dock", "bank")
    with pytest.raises(IllegalMove) as err:
        enter(state, "building_firm_1", build=["clay_mound"])
    assert err.value.code == "cannot_construct"


def test_wharf_builds_a_wooden_ship_then_modernises_for_iron() -> None:
    state = position(
        goods=[{"wood": 8, "iron": 4, "brick": 1, "coal": 2}, {}], buildings=[["wharf_1"], []]
    )
    state = replace(state, piles=(("S02",), ("S06",), (), ()))
    after = enter(state, "wharf_1", ship="S02", energy={"wood": 3})
    assert after.players[0].ships == ("S02",)
    assert goods_of(after, 0) == {"iron": 4, "brick": 1, "coal": 2}
    iron = enter(state, "wharf_1", ship="S06", energy={"coal": 1})
    assert iron.players[0].ships == ("S06",)
    assert iron.modernised == ("wharf_1",)
    assert goods_of(iron, 0) == {"wood": 8, "coal": 1}


def test_an_unmodernised_wharf_needs_the_brick() -> None:
    state = position(goods=[{"iron": 4, "coal": 1}, {}], buildings=[["wharf_1"], []])
    state = replace(state, piles=((), ("S06",), (), ()))
    with pytest.raises(IllegalMove) as err:
        enter(state, "wharf_1", ship="S06", energy={"coal": 1})
    assert err.value.code == "cannot_afford"
    modern = replace(state, modernised=("wharf_1",))
    assert enter(modern, "wharf_1", ship="S06", energy={"coal": 1}).players[0].ships == ("S06",)


def test_shipping_line_pays_franc_values_for_three_energy_a_ship() -> None:
    state = position(
        goods=[{"steel": 1, "leather": 2, "coal": 1}, {}],
        buildings=[["shipping_line"], []],
        ships=[["S04"], []],
    )
    after = enter(state, "shipping_line", give={"steel": 1, "leather": 1}, energy={"coal": 1})
    assert goods_of(after, 0) == {"leather": 1, "franc": 12}
    with pytest.raises(IllegalMove) as err:
        enter(state, "shipping_line", give={"steel": 1, "leather": 2}, energy={"coal": 1})
    assert err.value.code == "too_little_capacity"


def test_black_market_gives_two_of_each_empty_offer() -> None:
    state = position(goods=[{}, {}], buildings=[["black_market"], []])
    state = replace(state, offers=(0, 1, 1, 0, 1, 1, 1))
    assert goods_of(enter(state, "black_market"), 0) == {"franc": 2, "clay": 2}


@pytest.mark.parametrize(("loans", "after", "francs"), [(1, 0, 0), (2, 1, 2), (3, 1, 0), (4, 2, 0)])
def test_local_court_returns_loans(loans: int, after: int, francs: int) -> None:
    state = position(buildings=[["local_court"], []])
    state = state.with_player(0, replace(state.players[0], loans=loans))
    result = enter(state, "local_court")
    assert result.players[0].loans == after
    assert result.players[0].goods[0] == francs


def test_arts_centre_pays_per_guest() -> None:
    state = position(3, buildings=[["arts_centre", "fishery", "joinery"], [], []])
    players = list(state.players)
    players[1] = replace(players[1], disc="fishery")
    players[2] = replace(players[2], disc="joinery")
    state = replace(state, players=tuple(players))
    assert goods_of(enter(state, "arts_centre"), 0) == {"franc": 8}


def test_entering_pays_the_owner_and_blocks_the_building() -> None:
    state = position(goods=[{"fish": 2}, {}], buildings=[[], ["fishery", "smokehouse"]])
    after = enter(state, "fishery")
    assert goods_of(after, 0) == {"fish": 5}
    state = position(goods=[{"meat": 1, "franc": 1}, {}], buildings=[[], ["wharf_1"]])
    with pytest.raises(IllegalMove) as err:
        enter(state, "wharf_1", fee={"meat": 1, "franc": 1})
    assert err.value.code == "fee_overpaid"
    busy = replace(state, players=(state.players[0], replace(state.players[1], disc="wharf_1")))
    with pytest.raises(IllegalMove) as err:
        enter(busy, "wharf_1", fee={"meat": 1})
    assert err.value.code == "occupied"


def test_fees_go_to_the_owner() -> None:
    state = position(goods=[{"cattle": 2, "franc": 2}, {}], buildings=[[], ["abattoir"]])
    after = enter(state, "abattoir", fee={"franc": 2}, counts=[2])
    assert goods_of(after, 0) == {"meat": 2, "hides": 1}
    assert goods_of(after, 1) == {"franc": 2}
