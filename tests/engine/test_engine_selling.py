"""Selling and passing (SPEC §4 turn, §5 `sell` and `pass`, §7 values).

A sell gains floor(value/2) francs, computed values taken at that moment; the building returns to
the supply at once and the turn goes on (sells are not actions). `pass` is legal only when no
build and no use is legal after the sells already made.
"""

from __future__ import annotations

import pytest
from engine_support import build, canonical_text, legal_texts, moves_for, player, position, use

from engine import IllegalMove, apply, apply_with_events, summary


def sell(building: str) -> dict[str, str]:
    return {"type": "sell", "building": building}


@pytest.mark.parametrize(
    ("building", "age", "francs"),
    [
        ("wood_company", 3, 2),  # value 4
        ("farmland", 0, 1),  # value 2, any age
        ("hardware_store", 4, 6),  # value 12
        ("town_hall", None, 13),  # locked, value 26
        ("pont_de_normandie", None, 25),  # locked, value 50
    ],
)
def test_sell_fixed_value(building: str, age: int | None, francs: int) -> None:
    state = position(player(3, {}, {building: age}))
    assert moves_for(state, "sell", building) == {canonical_text(sell(building))}
    after = summary(apply(state, sell(building)))
    assert after["players"][0]["francs"] == 3 + francs
    assert after["players"][0]["buildings"] == {}
    assert building in after["supply"]
    # Not an action: same turn, same player, same actions left.
    assert (after["turn"], after["to_move"], after["actions_left"]) == (64, 0, 8)


def test_sell_computed_values_at_that_moment() -> None:
    """Fish (2,1) = 7 fish, grain (1,2) = 5 grain.

    - fish_factory (1 per fish) = 7 -> floor(7/2) = 3.
    - then the dock (4 per dock_symbol building) counts only the grain silo: 4 -> 2.
    - then the grain silo (1 per grain) = 5 -> 2.
    Total 3 + 2 + 2 = 7 on top of 3 francs.
    """
    goods = {"fish": (2, 1), "grain": (1, 2)}
    owned: dict[str, int | None] = {"fish_factory": None, "grain_silo": None, "dock": None}
    state = position(player(3, goods, owned))
    francs = []
    for building in ("fish_factory", "dock", "grain_silo"):
        state = apply(state, sell(building))
        francs.append(summary(state)["players"][0]["francs"])
    assert francs == [6, 8, 10]


def test_sell_dock_with_two_symbols() -> None:
    """Dock with fish factory and brick factory owned: 4 x 2 = 8 -> 4 francs."""
    owned: dict[str, int | None] = {"fish_factory": None, "brick_factory": None, "dock": None}
    state = position(player(0, {}, owned))
    after, events = apply_with_events(state, sell("dock"))
    assert summary(after)["players"][0]["francs"] == 4
    sold = [e.to_json() for e in events if e.kind == "sell"]
    assert [(e["seat"], e["building"], e["francs"]) for e in sold] == [(0, "dock", 4)]


def test_sold_building_can_be_rebuilt_in_the_same_turn() -> None:
    """Sell the wood company (age 3, +2 francs), then build it again with clay L1 at age 0."""
    state = position(player(3, {}, {"wood_company": 3}))
    state = apply(state, sell("wood_company"))
    assert moves_for(state, "build", "wood_company") == {
        canonical_text(build("wood_company", {"clay": {"left": 1}}))
    }
    after = summary(apply(state, build("wood_company", {"clay": {"left": 1}})))
    assert after["players"][0]["buildings"] == {"wood_company": 0}
    assert after["players"][0]["francs"] == 5
    assert after["players"][0]["goods"]["clay"] == [0, 2]
    assert after["turn"] == 65
    assert "wood_company" not in after["supply"]


def test_many_sells_then_one_action() -> None:
    owned: dict[str, int | None] = {"farmland": 1, "kiln": 2, "zoo": None}
    state = position(player(0, {}, owned))
    for building in ("farmland", "kiln", "zoo"):
        state = apply(state, sell(building))
    mid = summary(state)
    assert mid["players"][0]["francs"] == 1 + 4 + 10
    assert (mid["turn"], mid["to_move"]) == (64, 0)
    after = summary(apply(state, build("clay_mound")))
    assert after["players"][0]["francs"] == 12
    assert (after["turn"], after["to_move"]) == (65, 1)


def test_cannot_sell_what_you_do_not_own() -> None:
    state = position(player(3), player(3, {}, {"kiln": 2}))
    assert moves_for(state, "sell", "kiln") == set()
    before = summary(state)
    for building in ("kiln", "farm"):
        with pytest.raises(IllegalMove):
            apply(state, sell(building))
    assert summary(state) == before


NOTHING = {"fish": (0, 0), "clay": (0, 0), "wood": (0, 0), "grain": (0, 0)}


def test_pass_only_when_no_build_and_no_use_is_legal() -> None:
    """Seat 0: no francs, no goods, only an age-0 farmland; seat 1's shipping line needs the fee.

    Legal: sell the farmland, or pass. After the sell (1 franc) the farmland can be rebuilt and
    the opponent's shipping line used, so `pass` is no longer legal.
    """
    state = position(player(0, NOTHING, {"farmland": 0}), player(3, {}, {"shipping_line": 2}))
    assert legal_texts(state) == [
        '{"building":"farmland","type":"sell"}',
        '{"type":"pass"}',
    ]
    sold = apply(state, sell("farmland"))
    assert legal_texts(sold) == [
        '{"building":"farmland","payment":{},"type":"build"}',
        '{"building":"shipping_line","type":"use"}',
    ]
    with pytest.raises(IllegalMove):
        apply(sold, {"type": "pass"})


def test_pass_ends_the_turn_and_changes_nothing_else() -> None:
    state = position(player(0, NOTHING), player(3, {}, {"shipping_line": 2}))
    assert legal_texts(state) == ['{"type":"pass"}']
    before = summary(state)
    after = summary(apply(state, {"type": "pass"}))
    assert after["players"] == before["players"]
    assert (after["turn"], after["to_move"], after["actions_left"]) == (65, 1, 7)


def test_pass_is_illegal_when_an_action_exists() -> None:
    state = position(player(0, NOTHING, {"wood_company": 1}))
    assert '{"type":"pass"}' not in legal_texts(state)
    with pytest.raises(IllegalMove):
        apply(state, {"type": "pass"})
    # The own building at age 1 can always be used, whatever its effect achieves.
    assert moves_for(state, "use", "wood_company") == {canonical_text(use("wood_company"))}
