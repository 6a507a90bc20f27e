"""Rules of the turn, the round end, buying and selling, the final stage and scoring."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from lehavre_support import goods_of, goods_vec, position

from engine.lehavre import (
    IllegalMove,
    MalformedMove,
    Setup,
    State,
    apply,
    legal_moves,
    new_game,
    random_setup,
    scores,
    summary,
    winners,
)
from engine.lehavre.flow import begin_turn, end_turn
from engine.lehavre.loader import CatalogError, parse_catalog
from engine.lehavre.state import Player


def test_setup_round_trips_through_json_and_rejects_bad_stacks() -> None:
    setup = random_setup(4, "full", seed=3)
    assert Setup.from_json(json.loads(json.dumps(setup.to_json()))) == setup
    bad = setup.to_json()
    bad["proposals"][0] = list(reversed(bad["proposals"][0]))
    with pytest.raises(MalformedMove) as err:
        Setup.from_json(bad)
    assert err.value.code == "bad_setup"
    assert err.value.params["field"] == "proposals"
    for field, value in [
        ("players", 6),
        ("players", True),
        ("variant", "long"),
        ("first_player", 4),
        ("specials", []),
    ]:
        with pytest.raises(MalformedMove):
            Setup.from_json(setup.to_json() | {field: value})


def test_the_start_of_a_full_game() -> None:
    state = new_game(random_setup(3, "full", seed=5))
    tile = state.setup.supply_tiles[0]
    start = summary(state)
    assert start["players"][0]["francs"] == 5 and start["players"][0]["goods"] == {"coal": 1}
    assert start["supply_tiles"] == [tile] + [None] * 6
    assert sum(start["offers"].values()) == 2 + 2 + 2 + 1 + 2
    assert start["town"] == ["building_firm_1", "building_firm_2", "construction_firm"]
    assert start["specials_left"] == 6 and start["rounds"] == 18


def test_short_game_for_two_starts_with_ships_and_a_marketplace() -> None:
    state = new_game(random_setup(2, "short", seed=5))
    first = state.setup.first_player
    assert state.players[first].ships == ("S01",)
    assert state.players[1 - first].ships == ("S03",)
    assert "marketplace" in state.town and state.specials == ()


def test_interest_is_paid_and_a_player_without_francs_takes_a_loan() -> None:
    state = position(goods=[{"franc": 3}, {}])
    people = (replace(state.players[0], loans=1), replace(state.players[1], loans=2))
    interest = state.setup.supply_tiles.index("supply_5")
    state = replace(state, players=people, turn=interest)
    after = begin_turn(state, 0)
    assert [p.goods[0] for p in after.players] == [2, 3]
    assert [p.loans for p in after.players] == [1, 3]


def _round_end(state: State) -> State:
    return end_turn(replace(state, turn=7, phase="after"))


def test_round_end_harvests_then_asks_for_food() -> None:
    state = position(goods=[{"grain": 1, "cattle": 2, "fish": 4}, {"franc": 1}])
    card = state.cards[0]
    assert card.harvest and card.food == 3
    after = _round_end(state)
    assert goods_of(after, 0) == {"grain": 2, "cattle": 3, "fish": 4}
    assert after.phase == "feed"
    feeder = after.current
    seat0 = after if feeder == 0 else apply(after, legal_moves(after)[0])
    moves = legal_moves(seat0)
    assert moves[0].type == "feed" and dict(moves[0].payment) == {"fish": 3}


def test_a_player_short_of_food_pays_everything_and_takes_loans() -> None:
    state = position(goods=[{"franc": 1}, {"fish": 3}])
    state = replace(state, current=1)
    after = _round_end(state)
    while after.phase == "feed" and after.current != 0:
        after = apply(after, legal_moves(after)[0])
    with pytest.raises(IllegalMove) as err:
        apply(after, {"type": "feed", "payment": {}})
    assert err.value.code == "feed_must_pay_everything"
    fed = apply(after, {"type": "feed", "payment": {"franc": 1}})
    assert fed.players[0].loans == 1 and fed.players[0].goods[0] == 2


def test_ships_feed_and_the_new_ship_goes_on_its_pile() -> None:
    state = position(ships=[["S04"], ["S02"]])
    after = _round_end(state)
    assert after.phase == "main" and after.round == 2
    assert after.piles[0][0] == state.cards[0].ship


def test_buying_and_selling_and_no_buying_back() -> None:
    state = position(goods=[{"franc": 20}, {}], buildings=[["fishery"], []])
    sold = apply(state, {"type": "sell", "building": "fishery"})
    assert sold.players[0].goods[0] == 25 and "fishery" in sold.town
    with pytest.raises(IllegalMove) as err:
        apply(sold, {"type": "buy", "building": "fishery"})
    assert err.value.code == "sold_this_turn"
    bought = apply(sold, {"type": "buy", "building": "construction_firm"})
    assert "construction_firm" in bought.players[0].buildings and bought.players[0].goods[0] == 17


def test_buying_a_ship_and_repaying_a_loan() -> None:
    state = position(goods=[{"franc": 19}, {}])
    state = replace(state, piles=(("S01",), (), (), ()))
    state = state.with_player(0, replace(state.players[0], loans=1))
    bought = apply(state, {"type": "buy", "ship": "S01"})
    assert bought.players[0].ships == ("S01",) and bought.players[0].goods[0] == 5
    repaid = apply(bought, {"type": "repay"})
    assert repaid.players[0].loans == 0 and repaid.players[0].goods[0] == 0


def test_refused_moves_change_nothing_and_name_a_code() -> None:
    state = new_game(random_setup(2, "full", seed=9))
    before = summary(state)
    for move, code in [
        ({"type": "end"}, "main_action_due"),
        ({"type": "feed", "payment": {}}, "not_feeding"),
        ({"type": "take", "offer": "coal"}, "not_an_offer_space"),
        ({"type": "enter", "building": "bank"}, "not_built"),
        ({"type": "repay"}, "cannot_repay"),
        ({"type": "buy", "ship": "S20"}, "not_for_sale"),
    ]:
        with pytest.raises(IllegalMove) as err:
            apply(state, move)
        assert err.value.code == code
    for bad in ["{", [], {"type": "fly"}, {"type": "take"}, {"type": "take", "offer": "gold"}]:
        with pytest.raises(MalformedMove):
            apply(state, bad)
    assert summary(state) == before


def test_final_stage_allows_occupied_buildings_and_no_buying() -> None:
    state = position(goods=[{"franc": 30}, {}], buildings=[[], ["fishery"]])
    state = replace(
        state,
        phase="final",
        finals=(1,),
        players=(state.players[0], replace(state.players[1], disc="fishery")),
    )
    assert not [m for m in legal_moves(state) if m.type == "buy"]
    after = apply(state, {"type": "enter", "building": "fishery"})
    assert after.phase == "final_after"
    done = apply(after, {"type": "end"})
    assert done.current == 1 and done.phase == "final"


def test_scores_count_values_bonuses_francs_and_loans() -> None:
    state = position(
        goods=[{"franc": 10, "fish": 5}, {"franc": 3}],
        buildings=[
            ["bank", "colliery", "storehouse", "business_office"],
            ["town_hall", "local_court", "joinery"],
        ],
        ships=[["S04"], []],
    )
    state = state.with_player(1, replace(state.players[1], loans=1))
    # seat 0: 10 + bank 16 + colliery 10 + storehouse 4 + office 12 + ship 4
    #         + bank 3*1 industrial + 2*3 economic (itself included) + storehouse 5 fish // 2
    # seat 1: 3 + town hall 6 + court 16 + joinery 8 + 4*2 public + 2*1 craft - 7
    assert scores(state) == [10 + 16 + 10 + 4 + 12 + 4 + 3 + 6 + 2, 3 + 6 + 16 + 8 + 8 + 2 - 7]
    assert winners(replace(state, phase="over")) == [0]
    tie = replace(state, phase="over", players=(Player(goods_vec({})), Player(goods_vec({}))))
    assert winners(tie) == [0, 1]


def test_the_loader_refuses_unknown_goods_and_effects() -> None:
    from engine.lehavre.loader import DEFAULT_PATH

    data = json.loads(DEFAULT_PATH.read_text())
    broken = json.loads(json.dumps(data))
    broken["buildings"][3]["effect"]["kind"] = "teleport"
    with pytest.raises(CatalogError, match="teleport"):
        parse_catalog(broken)
    broken = json.loads(json.dumps(data))
    broken["buildings"][3]["materials"] = {"gold": 1}
    with pytest.raises(CatalogError, match="gold"):
        parse_catalog(broken)
    broken = json.loads(json.dumps(data))
    del broken["loans"]
    with pytest.raises(CatalogError, match="loans"):
        parse_catalog(broken)


def test_the_solo_game_leaves_out_the_specials_not_for_solo() -> None:
    from engine.lehavre import default_catalog

    not_solo = {
        b.id for b in default_catalog().buildings.values() if b.group == "special" and not b.solo
    }
    assert not_solo
    for seed in range(30):
        setup = random_setup(1, "full", seed)
        assert not set(setup.specials) & not_solo
        assert setup.first_player == 0
    state = new_game(random_setup(1, "full", 3))
    assert len(state.cards) == 7 and state.cards[0].food == 5


def test_the_marketplace_may_swap_the_next_two_specials() -> None:
    state = position(buildings=[["marketplace"], []])
    state = replace(state, specials=("bakery", "zoo", "farm"))
    swapped = apply(
        state,
        {"type": "enter", "building": "marketplace", "goods": ["fish", "wood"], "reorder": True},
    )
    assert swapped.specials == ("zoo", "bakery", "farm")
    kept = apply(state, {"type": "enter", "building": "marketplace", "goods": ["fish", "wood"]})
    assert kept.specials == state.specials and goods_of(kept, 0) == {"fish": 1, "wood": 1}
    with pytest.raises(IllegalMove) as err:
        apply(state, {"type": "enter", "building": "marketplace", "goods": ["fish"]})
    assert err.value.code == "wrong_goods"


def test_the_town_builds_the_lowest_proposal_top_or_the_top_special() -> None:
    from engine.lehavre.flow import finish_round

    state = position()
    state = replace(
        state,
        proposals=(("bakehouse", "bank"), ("fishery",), ("colliery",)),
        specials=("zoo", "farm"),
    )
    first = finish_round(state)  # round 1 of a 2-player game builds nothing
    assert first.town == state.town and first.piles[0][0] == state.cards[0].ship
    cards = {c.town_builds: k for k, c in enumerate(state.cards)}
    after = finish_round(replace(state, round=cards["standard"] + 1))
    assert after.town[-1] == "fishery" and after.proposals[1] == ()
    after = finish_round(replace(state, round=cards["special"] + 1))
    assert after.town[-1] == "zoo" and after.specials == ("farm",)
