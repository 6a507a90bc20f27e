"""Using the opponent's building (SPEC §5 `use`, rulebook "Compete for access").

The user first pays the owner 1 franc (and needs at least 1 franc before the use), then takes the
4+ franc if the building is at age 4, then the effect; the building goes to age 0 on its owner's
wheel.
"""

from __future__ import annotations

import pytest
from engine_support import canonical_text, moves_for, player, position, use

from engine import IllegalMove, apply, apply_with_events, summary


def test_fee_goes_to_the_owner_and_the_owner_wheel_resets() -> None:
    """Seat 0 (1 franc) uses seat 1's wood company in sector 3: wood (0,2) +3 -> (0,5)."""
    state = position(player(1), player(3, {}, {"wood_company": 2}))
    after = summary(apply(state, use("wood_company")))
    me, owner = after["players"]
    assert me["francs"] == 0
    assert me["goods"]["wood"] == [0, 5]
    assert me["buildings"] == {}
    assert owner["francs"] == 4
    assert owner["buildings"] == {"wood_company": 0}
    assert owner["goods"] == player()["goods"]


def test_no_francs_no_use_of_the_opponent_building() -> None:
    """The fee needs 1 franc before the use, even for a building that would pay 12."""
    state = position(player(0), player(3, {}, {"shipping_line": 3}))
    assert moves_for(state, "use", "shipping_line") == set()
    before = summary(state)
    with pytest.raises(IllegalMove):
        apply(state, use("shipping_line"))
    assert summary(state) == before


def test_the_4_plus_franc_cannot_pay_the_fee() -> None:
    """The fee is paid before the bonus: with 0 francs even a 4+ building is out of reach."""
    state = position(player(0), player(3, {}, {"shipping_line": 4}))
    assert moves_for(state, "use", "shipping_line") == set()


def test_business_office_in_4_plus_rulebook_example() -> None:
    """Rulebook: Max uses Emma's Business Office in sector 4+: he pays Emma 1 franc, moves his
    four goods DL and collects 4 x 5 = 20 francs plus 1 bonus franc.

    Max: 1 franc -> 1 - 1 + 1 + 20 = 21. Emma: 3 + 1 = 4; her office goes to age 0.
    """
    goods = {"fish": (1, 1), "clay": (1, 3), "wood": (2, 2), "grain": (1, 2)}
    state = position(player(1, goods), player(3, {}, {"business_office": 4}))
    move = use("business_office", goods=["clay", "fish", "grain", "wood"])
    assert canonical_text(move) in moves_for(state, "use", "business_office")
    after, events = apply_with_events(state, move)
    max_, emma = summary(after)["players"]
    assert max_["francs"] == 21
    assert max_["goods"] == {
        "clay": [0, 2],
        "fish": [0, 0],
        "grain": [0, 1],
        "wood": [1, 1],
    }
    assert emma["francs"] == 4
    assert emma["buildings"] == {"business_office": 0}
    used = [e.to_json() for e in events if e.kind == "use"]
    assert len(used) == 1
    fields = used[0]
    assert (fields["seat"], fields["building"], fields["owner"]) == (0, "business_office", 1)
    assert (fields["sector"], fields["n"], fields["fee"], fields["bonus"]) == ("4+", 4, 1, 1)
    assert fields["francs"] == 20


def test_shipping_line_of_the_opponent_in_4_plus() -> None:
    """1 franc: fee -> 0, bonus -> 1, +12 -> 13; the owner gets the fee only."""
    state = position(player(1), player(3, {}, {"shipping_line": 4}))
    after = summary(apply(state, use("shipping_line")))
    assert [p["francs"] for p in after["players"]] == [13, 4]


def test_seat_1_uses_seat_0_building() -> None:
    """Turn 65: seat 1 to move; seat 0's clay mound in sector 2 (N=2): clay R x3 for seat 1."""
    state = position(player(3, {}, {"clay_mound": 1}), player(2), turn=65)
    after = summary(apply(state, use("clay_mound")))
    owner, user = after["players"]
    assert user["francs"] == 1
    assert user["goods"]["clay"] == [0, 5]  # (0,3) + 3 steps, one lost
    assert owner["francs"] == 4
    assert owner["buildings"] == {"clay_mound": 0}
    assert owner["goods"]["clay"] == [0, 3]
    assert (after["turn"], after["to_move"]) == (66, 0)


@pytest.mark.parametrize(("francs", "times"), [(1, [0]), (2, [0, 1]), (5, [0, 1, 2, 3])])
def test_fee_comes_before_paid_repetitions(francs: int, times: list[int]) -> None:
    """Opponent's fish market in sector 3 (N=3): the fee is paid first, 1 franc per time."""
    state = position(player(francs), player(3, {}, {"fish_market": 2}))
    expected = {canonical_text(use("fish_market", times=t)) for t in times}
    assert moves_for(state, "use", "fish_market") == expected


def test_opponent_building_at_age_0_after_its_use() -> None:
    """Using the opponent's building resets it: it cannot be used again by anyone this round."""
    state = position(player(5), player(5, {}, {"shipping_line": 2}))
    after = apply(state, use("shipping_line"))
    assert summary(after)["to_move"] == 1
    assert moves_for(after, "use", "shipping_line") == set()
