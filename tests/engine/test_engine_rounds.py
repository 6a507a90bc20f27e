"""Turns, rounds, ageing, forced sales, supply and final scoring (SPEC §3, §4, §7, §8).

Rounds A-L have 3,3,3,5,5,5,7,7,7,9,9,9 actions (72 in all). Turns alternate over the whole game,
so seat 0 starts rounds A, C, E, G, I, K and seat 1 starts B, D, F, H, J, L. After a round's last
action every wheel building ages by 1 and a building reaching age 5 is sold for floor(value/2).
"""

from __future__ import annotations

import pytest
from engine_support import build, player, position, use

from engine import (
    IllegalMove,
    apply,
    apply_with_events,
    is_finished,
    legal_moves,
    new_game,
    score_breakdown,
    scores,
    summary,
)

ROUNDS = "ABCDEFGHIJKL"
ACTIONS = [3, 3, 3, 5, 5, 5, 7, 7, 7, 9, 9, 9]
STARTER = dict(zip(ROUNDS, [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1], strict=True))

A_BUILDINGS = ["clay_mound", "farmland", "grocery_store", "hardware_store", "wood_company"]
B_BUILDINGS = ["farm", "kiln", "smokehouse"]


def expected_clock(turn: int) -> tuple[str, int]:
    """Round letter and actions left before action number `turn` (0-based)."""
    start = 0
    for letter, actions in zip(ROUNDS, ACTIONS, strict=True):
        if turn < start + actions:
            return letter, start + actions - turn
        start += actions
    raise AssertionError(turn)


def test_new_game() -> None:
    start = summary(new_game())
    assert start == {
        "finished": False,
        "round": "A",
        "turn": 0,
        "to_move": 0,
        "actions_left": 3,
        "supply": A_BUILDINGS,
        "players": [player(3), player(3)],
        "scores": [3, 3],
    }


def test_a_whole_game_keeps_the_turn_order() -> None:
    """Play the first listed action every turn: 72 actions, 36 per seat, starters by round."""
    state = new_game()
    actions_by_seat = [0, 0]
    round_ends: list[tuple[str, str | None]] = []
    for turn in range(72):
        now = summary(state)
        letter, left = expected_clock(turn)
        assert (now["turn"], now["round"], now["actions_left"]) == (turn, letter, left)
        assert now["to_move"] == turn % 2
        assert not now["finished"]
        if left == ACTIONS[ROUNDS.index(letter)]:
            assert now["to_move"] == STARTER[letter], letter
        actions_by_seat[now["to_move"]] += 1
        action = next(m for m in legal_moves(state) if m.type != "sell")
        state, events = apply_with_events(state, action)
        round_ends += [
            (e.to_json()["round"], e.to_json()["next_round"])
            for e in events
            if e.kind == "round_end"
        ]
    assert actions_by_seat == [36, 36]
    assert round_ends == [*zip(ROUNDS, [*ROUNDS[1:], None], strict=True)]
    end = summary(state)
    assert (end["finished"], end["round"], end["turn"], end["to_move"], end["actions_left"]) == (
        True,
        "L",
        72,
        None,
        0,
    )
    assert is_finished(state)
    assert legal_moves(state) == []
    with pytest.raises(ValueError):
        apply(state, {"type": "pass"})
    assert summary(state) == end


def test_round_end_ages_the_wheel_and_opens_the_next_letter() -> None:
    """Turn 2 is round A's last action. Seat 0 builds the farmland (1 franc): it enters at age 0
    and ages to 1; round B opens with 3 actions, seat 1 to move, the B buildings in the supply."""
    state = position(player(3), player(3), turn=2)
    after = summary(apply(state, build("farmland")))
    assert (after["round"], after["turn"], after["to_move"], after["actions_left"]) == (
        "B",
        3,
        1,
        3,
    )
    assert after["players"][0]["buildings"] == {"farmland": 1}
    assert after["supply"] == sorted(b for b in [*A_BUILDINGS, *B_BUILDINGS] if b != "farmland")


def test_forced_sales_at_age_5() -> None:
    """Turn 8 is round C's last action (seat 0).

    Seat 0: hardware_store age 4, wood_company age 2. Seat 1: kiln age 4, farm age 0.
    Seat 0 uses the wood company (sector 3: wood (0,2) -> (0,5)); it resets to 0.
    End of round: wood_company 0 -> 1, farm 0 -> 1; hardware_store and kiln reach 5 ("!") and
    are sold: seat 0 +6 (12/2), seat 1 +4 (8/2); both return to the supply, with round D's
    restaurant and marketplace.
    """
    state = position(
        player(3, {}, {"hardware_store": 4, "wood_company": 2}),
        player(3, {}, {"kiln": 4, "farm": 0}),
        turn=8,
    )
    after_state, events = apply_with_events(state, use("wood_company"))
    after = summary(after_state)
    me, other = after["players"]
    assert me == {
        "francs": 9,
        "goods": player(0, {"wood": (0, 5)})["goods"],
        "buildings": {"wood_company": 1},
    }
    assert other == {"francs": 7, "goods": player()["goods"], "buildings": {"farm": 1}}
    assert after["supply"] == [
        "bakehouse",
        "clay_mound",
        "farmland",
        "grocery_store",
        "hardware_store",
        "kiln",
        "marketplace",
        "restaurant",
        "smokehouse",
        "wood_trader",
    ]
    assert (after["round"], after["turn"], after["to_move"], after["actions_left"]) == (
        "D",
        9,
        1,
        5,
    )
    assert after["scores"] == [9 + 4, 7 + 8]
    sales = sorted(
        (e.to_json()["seat"], e.to_json()["building"], e.to_json()["francs"])
        for e in events
        if e.kind == "forced_sale"
    )
    assert sales == [(0, "hardware_store", 6), (1, "kiln", 4)]


def test_final_scoring_with_factories_and_dock() -> None:
    """Turn 71 is the last action of the game (round L, seat 1).

    Seat 0: 10 francs, fish (2,1) = 7, grain (1,2) = 5; fish_factory, grain_silo, dock (locked),
    kiln at age 4 (force-sold at the end for 4). Final: francs 14 + fish_factory 7 +
    grain_silo 5 + dock 4 x 2 = 8 -> 34.
    Seat 1: 0 francs, wood (3,3) = 12, clay (0,3) = 3; wood_factory, brick_factory, town_hall,
    shipping_line at age 1. Seat 1 uses the shipping line (+6), which ages back to 1.
    Final: 6 + wood_factory 12 + brick_factory 3 + town_hall 26 + shipping_line 16 = 63.
    """
    seat0 = player(
        10,
        {"fish": (2, 1), "grain": (1, 2)},
        {"fish_factory": None, "grain_silo": None, "dock": None, "kiln": 4},
    )
    seat1 = player(
        0,
        {"wood": (3, 3)},
        {"wood_factory": None, "brick_factory": None, "town_hall": None, "shipping_line": 1},
    )
    state = position(seat0, seat1, turn=71)
    end, events = apply_with_events(state, use("shipping_line"))
    final = summary(end)
    assert (final["finished"], final["round"], final["turn"], final["to_move"]) == (
        True,
        "L",
        72,
        None,
    )
    assert final["actions_left"] == 0
    assert final["scores"] == [34, 63]
    assert scores(end) == (34, 63)
    assert "kiln" in final["supply"]
    assert final["players"][0]["buildings"] == {
        "fish_factory": None,
        "grain_silo": None,
        "dock": None,
    }
    assert final["players"][1]["buildings"]["shipping_line"] == 1
    assert score_breakdown(end, 0) == {
        "francs": 14,
        "buildings": {"fish_factory": 7, "grain_silo": 5, "dock": 8},
        "total": 34,
    }
    assert score_breakdown(end, 1)["total"] == 63
    over = [e.to_json() for e in events if e.kind == "game_over"]
    assert len(over) == 1
    assert (over[0]["scores"], over[0]["winner"]) == ([34, 63], 1)


def test_draw() -> None:
    """Seat 1 (0 francs) uses its shipping line in sector 2 on the last action: 6 + 16 = 22;
    seat 0 has 22 francs and nothing else: equal scores, no winner."""
    state = position(player(22), player(0, {}, {"shipping_line": 1}), turn=71)
    end, events = apply_with_events(state, use("shipping_line"))
    assert summary(end)["scores"] == [22, 22]
    over = [e.to_json() for e in events if e.kind == "game_over"]
    assert len(over) == 1
    assert over[0]["winner"] is None
    assert over[0]["scores"] == [22, 22]


def test_scores_count_computed_values_mid_game() -> None:
    """Scores are francs plus current building values at every position (SPEC §8)."""
    owned: dict[str, int | None] = {"dock": None, "wood_factory": None, "farm": 3}
    state = position(player(5, {"wood": (4, 4)}, owned))
    # wood (4,4) = 16: wood_factory 16, dock 4 x 1, farm 8.
    assert summary(state)["scores"] == [5 + 16 + 4 + 8, 3]
    after = apply(state, use("farm"))  # grain (0,1) UR x3 -> (3,4); no wood change
    assert summary(after)["scores"] == [5 + 16 + 4 + 8, 3]
    sold = apply(state, {"type": "sell", "building": "wood_factory"})
    # wood_factory sold for 8; dock now counts no symbol.
    assert summary(sold)["scores"] == [13 + 0 + 8, 3]


@pytest.mark.parametrize("turn", [0, 3, 9, 31, 63, 70])
def test_from_summary_round_trip(turn: int) -> None:
    """from_summary is the inverse of summary, derived fields included."""
    owned: dict[str, int | None] = {"farmland": 2}
    state = position(player(4, {"fish": (1, 1)}, owned), player(7), turn=turn)
    data = summary(state)
    letter, left = expected_clock(turn)
    assert (data["round"], data["actions_left"], data["to_move"]) == (letter, left, turn % 2)
    again = summary(position(data["players"][0], data["players"][1], turn=turn))
    assert again == data


def test_from_summary_rejects_disagreeing_derived_fields() -> None:
    from engine import from_summary

    data = summary(new_game())
    with pytest.raises(ValueError):
        from_summary({**data, "round": "B"})
    with pytest.raises(ValueError):
        from_summary({**data, "to_move": 1})


def test_finished_game_refuses_every_move() -> None:
    state = position(player(22), player(0, {}, {"shipping_line": 1}), turn=71)
    end = apply(state, use("shipping_line"))
    before = summary(end)
    for move in ({"type": "pass"}, {"type": "sell", "building": "shipping_line"}):
        with pytest.raises(IllegalMove):
            apply(end, move)
    assert summary(end) == before
