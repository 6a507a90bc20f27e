"""One scenario per building and wheel age (SPEC §3, §6).

Age 1..4 on the wheel is sector 2, 3, 4, 4+, so N = 2, 3, 4, 4 and age 4 adds 1 franc to the
user before the effect. Each case starts from the rulebook's opening warehouse (fish (0,4),
clay (0,3), wood (0,2), grain (0,1)) with the overrides listed in `before`, 5 francs, seat 0 to move
at turn 64 (round L), the building owned by seat 0. `after` lists the cells that change; the
comment after a case gives the step arithmetic, with steps lost at the 6 x 6 board's edge
(rows and columns 0..5) marked "lost".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement
from typing import Any

import pytest
from engine_support import GOODS, canonical_text, moves_for, player, position, use
from spec_model import LOCKED

from engine import IllegalMove, apply, summary

FRANCS = 5


@dataclass(frozen=True)
class Case:
    building: str
    age: int
    choice: dict[str, Any]
    after: dict[str, tuple[int, int]]
    francs: int
    before: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.building}-age{self.age}"


def cases(
    building: str,
    before: dict[str, tuple[int, int]],
    rows: list[tuple[int, dict[str, Any], dict[str, tuple[int, int]], int]],
) -> list[Case]:
    return [
        Case(building, age, choice, after, francs, before) for age, choice, after, francs in rows
    ]


CASES: list[Case] = [
    # wood R xN from (0,2): 2 -> (0,4); 3 -> (0,5); 4 -> (0,5) with the 4th step lost.
    *cases(
        "wood_company",
        {},
        [
            (1, {}, {"wood": (0, 4)}, 5),
            (2, {}, {"wood": (0, 5)}, 5),
            (3, {}, {"wood": (0, 5)}, 5),
            (4, {}, {"wood": (0, 5)}, 6),
        ],
    ),
    # grain R xN from (1,2); then wood R 1 (lost: wood already in column 5), clay R 1.
    *cases(
        "farmland",
        {"grain": (1, 2), "wood": (0, 5)},
        [
            (1, {}, {"grain": (1, 4), "clay": (0, 4)}, 5),
            (2, {}, {"grain": (1, 5), "clay": (0, 4)}, 5),
            (3, {}, {"grain": (1, 5), "clay": (0, 4)}, 5),  # 4th grain step lost
            (4, {}, {"grain": (1, 5), "clay": (0, 4)}, 6),
        ],
    ),
    # clay R x(N+1) from (1,1): 3 -> (1,4); 4 -> (1,5); 5 -> (1,5) with one step lost.
    *cases(
        "clay_mound",
        {"clay": (1, 1)},
        [
            (1, {}, {"clay": (1, 4)}, 5),
            (2, {}, {"clay": (1, 5)}, 5),
            (3, {}, {"clay": (1, 5)}, 5),
            (4, {}, {"clay": (1, 5)}, 6),
        ],
    ),
    # +N francs, grain R 1, fish R 1 (lost: fish in column 5). 4+: 5 + 1 + 4 = 10 (the
    # rulebook's "collect 5 francs in sector 4+").
    *cases(
        "grocery_store",
        {"fish": (0, 5)},
        [
            (1, {}, {"grain": (0, 2)}, 7),
            (2, {}, {"grain": (0, 2)}, 8),
            (3, {}, {"grain": (0, 2)}, 9),
            (4, {}, {"grain": (0, 2)}, 10),
        ],
    ),
    # One good R xN: clay (0,3) +2 -> (0,5); wood (0,2) +3 -> (0,5); wood +4 -> one lost;
    # clay +4 -> (0,5) with two lost.
    *cases(
        "hardware_store",
        {},
        [
            (1, {"good": "clay"}, {"clay": (0, 5)}, 5),
            (2, {"good": "wood"}, {"wood": (0, 5)}, 5),
            (3, {"good": "wood"}, {"wood": (0, 5)}, 5),
            (4, {"good": "clay"}, {"clay": (0, 5)}, 6),
        ],
    ),
    # grain UR x(N-1) from (3,3): 1 -> (4,4); 2 -> (5,5); 3 -> (5,5) with the 3rd lost.
    *cases(
        "farm",
        {"grain": (3, 3)},
        [
            (1, {}, {"grain": (4, 4)}, 5),
            (2, {}, {"grain": (5, 5)}, 5),
            (3, {}, {"grain": (5, 5)}, 5),
            (4, {}, {"grain": (5, 5)}, 6),
        ],
    ),
    # clay UL xN from (0,3): 2 -> (2,1); 3 -> (3,0); 4 -> (3,0): the 4th UL at column 0 is
    # lost whole (the counter does not slide up the edge).
    *cases(
        "kiln",
        {},
        [
            (1, {}, {"clay": (2, 1)}, 5),
            (2, {}, {"clay": (3, 0)}, 5),
            (3, {}, {"clay": (3, 0)}, 5),
            (4, {}, {"clay": (3, 0)}, 6),
        ],
    ),
    # fish UL xN from (2,4): 2 -> (4,2); 3 -> (5,1); 4 -> (5,1), the 4th lost at row 5.
    *cases(
        "smokehouse",
        {"fish": (2, 4)},
        [
            (1, {}, {"fish": (4, 2)}, 5),
            (2, {}, {"fish": (5, 1)}, 5),
            (3, {}, {"fish": (5, 1)}, 5),
            (4, {}, {"fish": (5, 1)}, 6),
        ],
    ),
    # grain UL xN from (1,3): 2 -> (3,1); 3 -> (4,0); 4 -> (4,0), the 4th lost at column 0.
    *cases(
        "bakehouse",
        {"grain": (1, 3)},
        [
            (1, {}, {"grain": (3, 1)}, 5),
            (2, {}, {"grain": (4, 0)}, 5),
            (3, {}, {"grain": (4, 0)}, 5),
            (4, {}, {"grain": (4, 0)}, 6),
        ],
    ),
    # wood UL xN from (2,3): 2 -> (4,1); 3 -> (5,0); 4 -> (5,0), the 4th lost.
    *cases(
        "sawmill",
        {"wood": (2, 3)},
        [
            (1, {}, {"wood": (4, 1)}, 5),
            (2, {}, {"wood": (5, 0)}, 5),
            (3, {}, {"wood": (5, 0)}, 5),
            (4, {}, {"wood": (5, 0)}, 6),
        ],
    ),
    # Each repetition: 1 franc and food covering 2, then wood U 1 from (3,0) (row 5 is the top:
    # the 3rd U is lost). Fish (1,4) = 7, grain (0,1) = 1.
    *cases(
        "wood_trader",
        {"fish": (1, 4), "grain": (0, 1), "wood": (3, 0)},
        [
            # two fish L2: fish (1,4) -> (1,0); 2 francs paid.
            (
                1,
                {"payments": [{"fish": {"left": 2}}, {"fish": {"left": 2}}]},
                {"fish": (1, 0), "wood": (5, 0)},
                3,
            ),
            # D1 (pays 3 for 2: no change), L1+grain L1, L2: fish down 1 left 3 -> (0,1).
            (
                2,
                {
                    "payments": [
                        {"fish": {"down": 1}},
                        {"fish": {"left": 1}, "grain": {"left": 1}},
                        {"fish": {"left": 2}},
                    ]
                },
                {"fish": (0, 1), "grain": (0, 0), "wood": (5, 0)},
                2,
            ),
            # three of four repetitions: fish down 1, left 4 -> (0,0); 3 francs paid.
            (
                3,
                {"payments": [{"fish": {"down": 1}}, {"fish": {"left": 2}}, {"fish": {"left": 2}}]},
                {"fish": (0, 0), "wood": (5, 0)},
                2,
            ),
            # 4+: 5 + 1 bonus - 1 for the single repetition.
            (4, {"payments": [{"fish": {"left": 2}}]}, {"fish": (1, 2), "wood": (4, 0)}, 5),
        ],
    ),
    # Each repetition: food covering 1, then +2 francs. Fish (0,4), grain (1,0).
    *cases(
        "restaurant",
        {"grain": (1, 0)},
        [
            (1, {"payments": [{"fish": {"left": 1}}] * 2}, {"fish": (0, 2)}, 9),
            # grain D1 pays 3 for 1 (no change: grain in column 0 cannot move left).
            (
                2,
                {
                    "payments": [
                        {"fish": {"left": 1}},
                        {"fish": {"left": 1}},
                        {"grain": {"down": 1}},
                    ]
                },
                {"fish": (0, 2), "grain": (0, 0)},
                11,
            ),
            (
                3,
                {"payments": [{"fish": {"left": 1}}] * 3 + [{"grain": {"down": 1}}]},
                {"fish": (0, 1), "grain": (0, 0)},
                13,
            ),
            (4, {"payments": [{"fish": {"left": 1}}] * 4}, {"fish": (0, 0)}, 14),
        ],
    ),
    # N R steps spread over goods; fish (0,4) has room for one step, wood (0,2) for three.
    *cases(
        "marketplace",
        {},
        [
            (1, {"steps": {"fish": 1, "wood": 1}}, {"fish": (0, 5), "wood": (0, 3)}, 5),
            (2, {"steps": {"fish": 2, "wood": 1}}, {"fish": (0, 5), "wood": (0, 3)}, 5),
            (
                3,
                {"steps": {"clay": 1, "fish": 2, "grain": 1}},
                {"clay": (0, 4), "fish": (0, 5), "grain": (0, 2)},
                5,
            ),
            (4, {"steps": {"wood": 4}}, {"wood": (0, 5)}, 6),
        ],
    ),
    # Each time: 1 franc, then fish UR 1 from (0,1).
    *cases(
        "fish_market",
        {"fish": (0, 1)},
        [
            (1, {"times": 2}, {"fish": (2, 3)}, 3),
            (2, {"times": 3}, {"fish": (3, 4)}, 2),
            (3, {"times": 4}, {"fish": (4, 5)}, 1),
            (4, {"times": 4}, {"fish": (4, 5)}, 2),  # 5 + 1 bonus - 4
        ],
    ),
    # wood R xN from (0,2) and clay R xN from (0,3), extra steps lost at column 5.
    *cases(
        "building_firm",
        {},
        [
            (1, {}, {"wood": (0, 4), "clay": (0, 5)}, 5),
            (2, {}, {"wood": (0, 5), "clay": (0, 5)}, 5),
            (3, {}, {"wood": (0, 5), "clay": (0, 5)}, 5),
            (4, {}, {"wood": (0, 5), "clay": (0, 5)}, 6),
        ],
    ),
    # grain R xN from (0,1), fish R xN from (0,4) (all but one fish step lost).
    *cases(
        "church_square",
        {},
        [
            (1, {}, {"grain": (0, 3), "fish": (0, 5)}, 5),
            (2, {}, {"grain": (0, 4), "fish": (0, 5)}, 5),
            (3, {}, {"grain": (0, 5), "fish": (0, 5)}, 5),
            (4, {}, {"grain": (0, 5), "fish": (0, 5)}, 6),
        ],
    ),
    # Each time the chosen good moves D 1 and pays 4 francs. Fish (4,1), grain (1,0).
    *cases(
        "weekly_market",
        {"fish": (4, 1), "grain": (1, 0)},
        [
            (1, {"good": "fish", "times": 2}, {"fish": (2, 1)}, 13),
            (2, {"good": "fish", "times": 3}, {"fish": (1, 1)}, 17),
            (3, {"good": "fish", "times": 4}, {"fish": (0, 1)}, 21),
            (4, {"good": "grain", "times": 1}, {"grain": (0, 0)}, 10),  # 5 + 1 + 4
        ],
    ),
    # Exactly N different goods UL 1; grain on (0,0) loses its UL at column 0.
    *cases(
        "masons_guild",
        {"grain": (0, 0)},
        [
            (1, {"goods": ["clay", "fish"]}, {"clay": (1, 2), "fish": (1, 3)}, 5),
            (2, {"goods": ["clay", "grain", "wood"]}, {"clay": (1, 2), "wood": (1, 1)}, 5),
            (3, {"goods": list(GOODS)}, {"clay": (1, 2), "fish": (1, 3), "wood": (1, 1)}, 5),
            (4, {"goods": list(GOODS)}, {"clay": (1, 2), "fish": (1, 3), "wood": (1, 1)}, 6),
        ],
    ),
    # Up to N different goods DL 1, +5 francs each. Grain on row 0 cannot pay a DL.
    *cases(
        "business_office",
        {"fish": (1, 1), "clay": (1, 3), "wood": (2, 2), "grain": (0, 3)},
        [
            (1, {"goods": ["clay", "fish"]}, {"clay": (0, 2), "fish": (0, 0)}, 15),
            (
                2,
                {"goods": ["clay", "fish", "wood"]},
                {"clay": (0, 2), "fish": (0, 0), "wood": (1, 1)},
                20,
            ),
            (
                3,
                {"goods": ["clay", "fish", "wood"]},
                {"clay": (0, 2), "fish": (0, 0), "wood": (1, 1)},
                20,
            ),
            (4, {"goods": ["wood"]}, {"wood": (1, 1)}, 11),  # 5 + 1 + 5
        ],
    ),
    # +3N francs: 6, 9, 12, 12 + 1 (the rulebook's "collect 1 more in sector 4+").
    *cases(
        "shipping_line",
        {},
        [(1, {}, {}, 11), (2, {}, {}, 14), (3, {}, {}, 17), (4, {}, {}, 18)],
    ),
    # Exactly N different goods UR 1; fish in column 5 loses its UR whole.
    *cases(
        "guild_hall",
        {"fish": (0, 5)},
        [
            (1, {"goods": ["fish", "grain"]}, {"grain": (1, 2)}, 5),
            (2, {"goods": ["clay", "fish", "wood"]}, {"clay": (1, 4), "wood": (1, 3)}, 5),
            (3, {"goods": list(GOODS)}, {"clay": (1, 4), "grain": (1, 2), "wood": (1, 3)}, 5),
            (4, {"goods": list(GOODS)}, {"clay": (1, 4), "grain": (1, 2), "wood": (1, 3)}, 6),
        ],
    ),
    # N+2 R steps spread over goods.
    *cases(
        "pier",
        {},
        [
            (1, {"steps": {"clay": 2, "grain": 2}}, {"clay": (0, 5), "grain": (0, 3)}, 5),
            (2, {"steps": {"grain": 5}}, {"grain": (0, 5)}, 5),  # 4 fit, 1 lost
            (
                3,
                {"steps": {"fish": 1, "grain": 3, "wood": 2}},
                {"fish": (0, 5), "grain": (0, 4), "wood": (0, 4)},
                5,
            ),
            (4, {"steps": {"clay": 6}}, {"clay": (0, 5)}, 6),  # 2 fit, 4 lost
        ],
    ),
    # N+1 UL steps spread over goods.
    *cases(
        "craftsmens_yard",
        {},
        [
            (1, {"steps": {"fish": 3}}, {"fish": (3, 1)}, 5),
            (2, {"steps": {"fish": 2, "wood": 2}}, {"fish": (2, 2), "wood": (2, 0)}, 5),
            # clay (0,3) -> (3,0), 4th lost; grain (0,1) -> (1,0)
            (3, {"steps": {"clay": 4, "grain": 1}}, {"clay": (3, 0), "grain": (1, 0)}, 5),
            (4, {"steps": {"wood": 5}}, {"wood": (2, 0)}, 6),  # 2 fit, 3 lost
        ],
    ),
]

ALL_USABLE = sorted({case.building for case in CASES})


def test_every_usable_building_has_four_cases() -> None:
    """The table covers all 23 usable buildings, each at ages 1, 2, 3 and 4."""
    assert len(ALL_USABLE) == 23
    for building in ALL_USABLE:
        assert sorted(c.age for c in CASES if c.building == building) == [1, 2, 3, 4]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_use_own_building(case: Case) -> None:
    """Use seat 0's building at the case's age; the building goes back to age 0."""
    state = position(
        player(FRANCS, case.before, {case.building: case.age}),
        player(3, {}, {}),
    )
    move = use(case.building, **case.choice)
    assert canonical_text(move) in moves_for(state, "use", case.building)

    after = summary(apply(state, move))

    expected_goods = dict(player(0, case.before)["goods"])
    expected_goods.update({good: list(cell) for good, cell in case.after.items()})
    assert after["players"][0] == {
        "francs": case.francs,
        "goods": expected_goods,
        "buildings": {case.building: 0},
    }
    assert after["players"][1] == player(3)
    assert (after["turn"], after["to_move"], after["actions_left"], after["round"]) == (
        65,
        1,
        7,
        "L",
    )


def step_spreads(total: int) -> list[dict[str, int]]:
    """Every `steps` object with counts > 0 summing to `total` (SPEC §6 choice fields)."""
    spreads = []
    for combo in combinations_with_replacement(GOODS, total):
        spreads.append({good: combo.count(good) for good in GOODS if good in combo})
    return spreads


def good_sets(goods: tuple[str, ...] | list[str], sizes: range | list[int]) -> list[list[str]]:
    return [list(subset) for size in sizes for subset in combinations(sorted(goods), size)]


def expected_texts(building: str, choices: list[dict[str, Any]]) -> set[str]:
    return {canonical_text(use(building, **choice)) for choice in choices}


N_BY_AGE = {1: 2, 2: 3, 3: 4, 4: 4}


def choice_set(building: str, n: int) -> list[dict[str, Any]]:
    """Legal choices of the buildings whose choices depend on N alone (edges never matter)."""
    if building == "hardware_store":
        return [{"good": "clay"}, {"good": "wood"}]
    if building == "marketplace":
        return [{"steps": s} for s in step_spreads(n)]
    if building == "pier":
        return [{"steps": s} for s in step_spreads(n + 2)]
    if building == "craftsmens_yard":
        return [{"steps": s} for s in step_spreads(n + 1)]
    if building in ("masons_guild", "guild_hall"):
        return [{"goods": g} for g in good_sets(GOODS, [n])]
    return [{}]


@pytest.mark.parametrize("age", [1, 2, 3, 4])
@pytest.mark.parametrize(
    ("building", "counts"),
    [
        # C(N+3, 3) ways to spread N steps over 4 goods; N+2 for the pier, N+1 for the yard.
        ("marketplace", {2: 10, 3: 20, 4: 35}),
        ("pier", {2: 35, 3: 56, 4: 84}),
        ("craftsmens_yard", {2: 20, 3: 35, 4: 56}),
        # C(4, N) sets of exactly N goods: the masons' guild at N=3 has 4.
        ("masons_guild", {2: 6, 3: 4, 4: 1}),
        ("guild_hall", {2: 6, 3: 4, 4: 1}),
        ("hardware_store", {2: 2, 3: 2, 4: 2}),
        ("wood_company", {2: 1, 3: 1, 4: 1}),
        ("shipping_line", {2: 1, 3: 1, 4: 1}),
        ("farm", {2: 1, 3: 1, 4: 1}),
    ],
)
def test_use_moves_that_depend_on_n_only(building: str, counts: dict[int, int], age: int) -> None:
    """Gains may be lost at an edge, so these choices never depend on the warehouse."""
    state = position(player(0, {"fish": (5, 5), "grain": (0, 0)}, {building: age}))
    n = N_BY_AGE[age]
    expected = expected_texts(building, choice_set(building, n))
    assert len(expected) == counts[n]
    assert moves_for(state, "use", building) == expected


def test_masons_guild_at_n3_offers_the_four_sets_of_three_goods() -> None:
    state = position(player(5, {}, {"masons_guild": 2}))
    assert moves_for(state, "use", "masons_guild") == {
        '{"building":"masons_guild","goods":["clay","fish","grain"],"type":"use"}',
        '{"building":"masons_guild","goods":["clay","fish","wood"],"type":"use"}',
        '{"building":"masons_guild","goods":["clay","grain","wood"],"type":"use"}',
        '{"building":"masons_guild","goods":["fish","grain","wood"],"type":"use"}',
    }


def test_wood_company_in_sector_3_rulebook_example() -> None:
    """Rulebook: Emma uses the Wood Company in sector 3 (age 2): wood moves 3 spaces right.

    Wood on (2,1) = 7 (the rulebook's "6 in the second column") -> (2,4) = 10.
    """
    state = position(player(3, {"wood": (2, 1)}, {"wood_company": 2}))
    after = summary(apply(state, use("wood_company")))
    assert after["players"][0]["goods"]["wood"] == [2, 4]


@pytest.mark.parametrize(
    ("building", "goods", "cell"),
    [
        ("farm", {"grain": (2, 5)}, ("grain", [2, 5])),  # UR in column 5: lost, no slide up
        ("farm", {"grain": (5, 2)}, ("grain", [5, 2])),  # UR in row 5: lost, no slide right
        ("kiln", {"clay": (2, 0)}, ("clay", [2, 0])),  # UL in column 0: lost whole
        ("kiln", {"clay": (5, 3)}, ("clay", [5, 3])),  # UL in row 5: lost whole
    ],
)
def test_diagonal_gains_at_an_edge_are_lost_whole(
    building: str, goods: dict[str, tuple[int, int]], cell: tuple[str, list[int]]
) -> None:
    """SPEC §2: a diagonal step at an edge is lost whole; the use is still legal."""
    state = position(player(3, goods, {building: 1}))
    assert moves_for(state, "use", building) == {canonical_text(use(building))}
    after = summary(apply(state, use(building)))
    good, expected = cell
    assert after["players"][0]["goods"][good] == expected
    assert after["players"][0]["buildings"][building] == 0


def test_fish_market_step_lost_at_the_corner_is_still_paid() -> None:
    """Fish (3,4), two times: UR -> (4,5), then the 2nd UR is lost; both francs are paid."""
    state = position(player(3, {"fish": (3, 4)}, {"fish_market": 2}))
    after = summary(apply(state, use("fish_market", times=2)))
    assert after["players"][0]["goods"]["fish"] == [4, 5]
    assert after["players"][0]["francs"] == 1


@pytest.mark.parametrize(("francs", "age", "times"), [(5, 2, 3), (1, 2, 1), (0, 1, 0), (0, 4, 1)])
def test_fish_market_times_limited_by_n_and_francs(francs: int, age: int, times: int) -> None:
    """times runs 0..min(N, francs + 4+ bonus): with 0 francs in sector 4+ the bonus pays one."""
    state = position(player(francs, {}, {"fish_market": age}))
    expected = expected_texts("fish_market", [{"times": t} for t in range(times + 1)])
    assert moves_for(state, "use", "fish_market") == expected


@pytest.mark.parametrize(
    ("age", "choices"),
    [
        # Fish (4,1) can move down 4 times, grain (1,0) once; `good` is omitted for times 0.
        (1, [{"times": 0}, *({"good": "fish", "times": t} for t in (1, 2))]),
        (2, [{"times": 0}, *({"good": "fish", "times": t} for t in (1, 2, 3))]),
        (3, [{"times": 0}, *({"good": "fish", "times": t} for t in (1, 2, 3, 4))]),
        (4, [{"times": 0}, *({"good": "fish", "times": t} for t in (1, 2, 3, 4))]),
    ],
)
def test_weekly_market_choices(age: int, choices: list[dict[str, Any]]) -> None:
    state = position(player(0, {"fish": (4, 1), "grain": (1, 0)}, {"weekly_market": age}))
    expected = expected_texts("weekly_market", [*choices, {"good": "grain", "times": 1}])
    assert moves_for(state, "use", "weekly_market") == expected


def test_weekly_market_with_no_food_above_row_0_offers_only_times_0() -> None:
    state = position(player(0, {"fish": (0, 5), "grain": (0, 3)}, {"weekly_market": 3}))
    assert moves_for(state, "use", "weekly_market") == {
        '{"building":"weekly_market","times":0,"type":"use"}'
    }


@pytest.mark.parametrize(("age", "sizes"), [(1, [0, 1, 2]), (2, [0, 1, 2, 3]), (4, [0, 1, 2, 3])])
def test_business_office_choices_use_only_goods_that_can_pay_a_dl(
    age: int, sizes: list[int]
) -> None:
    """Fish (1,1), clay (1,3), wood (2,2) can step DL; grain (0,3) cannot (row 0).

    Up to N of the three payable goods: 1+3+3 = 7 sets at N=2, 1+3+3+1 = 8 at N=3 and N=4.
    """
    goods = {"fish": (1, 1), "clay": (1, 3), "wood": (2, 2), "grain": (0, 3)}
    state = position(player(0, goods, {"business_office": age}))
    expected = expected_texts(
        "business_office", [{"goods": g} for g in good_sets(["clay", "fish", "wood"], sizes)]
    )
    assert moves_for(state, "use", "business_office") == expected


def test_business_office_with_nothing_payable_offers_the_empty_set() -> None:
    """Every good on row 0 or column 0: only `"goods": []`, which still resets the building."""
    goods = {"fish": (0, 4), "clay": (3, 0), "wood": (0, 0), "grain": (0, 1)}
    state = position(player(0, goods, {"business_office": 3}))
    move = '{"building":"business_office","goods":[],"type":"use"}'
    assert moves_for(state, "use", "business_office") == {move}
    after = summary(apply(state, move))
    assert after["players"][0]["francs"] == 0
    assert after["players"][0]["buildings"] == {"business_office": 0}


def wood_trader_texts(payment_lists: list[list[dict[str, Any]]]) -> set[str]:
    return expected_texts("wood_trader", [{"payments": p} for p in payment_lists])


FISH_L2 = {"fish": {"left": 2}}
FISH_D1 = {"fish": {"down": 1}}
GRAIN_L2 = {"grain": {"left": 2}}
MIXED = {"fish": {"left": 1}, "grain": {"left": 1}}


def test_wood_trader_choices_small_warehouse() -> None:
    """Fish (0,2), grain (0,1), N=2, 5 francs.

    Food payments covering 2 that fit: fish L2, fish L1 + grain L1 (fish D1 / grain D1 need a
    row to step down, grain L2 needs column 2). Any two together need 3+ fish columns or 2 grain
    columns: none fits. So: [], [fish L2], [mixed].
    """
    state = position(player(5, {"fish": (0, 2), "grain": (0, 1)}, {"wood_trader": 1}))
    assert moves_for(state, "use", "wood_trader") == {
        '{"building":"wood_trader","payments":[],"type":"use"}',
        '{"building":"wood_trader","payments":[{"fish":{"left":2}}],"type":"use"}',
        '{"building":"wood_trader","payments":[{"fish":{"left":1},"grain":{"left":1}}],"type":"use"}',
    }


@pytest.mark.parametrize(
    ("francs", "age", "owner", "payment_lists"),
    [
        # Fish (1,1), grain (0,2). Singles: fish D1 (fish L2 needs column 2), grain L2, mixed.
        # Pairs that fit: D1 + grain L2, D1 + mixed (fish down 1 left 1 -> (0,0)).
        # No triple fits, so N=3 offers the same as N=2.
        (5, 1, 0, [[], [FISH_D1], [GRAIN_L2], [MIXED], [FISH_D1, GRAIN_L2], [FISH_D1, MIXED]]),
        (5, 2, 0, [[], [FISH_D1], [GRAIN_L2], [MIXED], [FISH_D1, GRAIN_L2], [FISH_D1, MIXED]]),
        # One franc pays one repetition only.
        (1, 1, 0, [[], [FISH_D1], [GRAIN_L2], [MIXED]]),
        # No francs, own building in 4+: the bonus franc pays one repetition.
        (0, 4, 0, [[], [FISH_D1], [GRAIN_L2], [MIXED]]),
        # Opponent's building in 4+ with 1 franc: fee 1 -> 0, bonus -> 1: one repetition.
        (1, 4, 1, [[], [FISH_D1], [GRAIN_L2], [MIXED]]),
        # Opponent's building in sector 3 with 1 franc: the fee leaves nothing to pay with.
        (1, 2, 1, [[]]),
    ],
)
def test_wood_trader_choices_limited_by_goods_and_francs(
    francs: int, age: int, owner: int, payment_lists: list[list[dict[str, Any]]]
) -> None:
    goods = {"fish": (1, 1), "grain": (0, 2)}
    mine = {"wood_trader": age} if owner == 0 else {}
    theirs = {"wood_trader": age} if owner == 1 else {}
    state = position(player(francs, goods, mine), player(3, {}, theirs))
    assert moves_for(state, "use", "wood_trader") == wood_trader_texts(payment_lists)


def test_wood_trader_payments_are_listed_sorted() -> None:
    """Payments sit in the move sorted by canonical string, whatever order they were given."""
    state = position(player(5, {"fish": (1, 1), "grain": (0, 2)}, {"wood_trader": 1}))
    unsorted = use("wood_trader", payments=[GRAIN_L2, FISH_D1])
    after = apply(state, unsorted)
    assert summary(after)["players"][0]["goods"]["fish"] == [0, 1]
    assert summary(after)["players"][0]["goods"]["grain"] == [0, 0]
    assert summary(after)["players"][0]["goods"]["wood"] == [2, 2]
    assert summary(after)["players"][0]["francs"] == 3


@pytest.mark.parametrize(
    ("goods", "age", "payment_lists"),
    [
        # Fish (0,1), grain (1,0): food payments covering 1 are fish L1 and grain D1 (grain
        # cannot move left from column 0; D pays 3 for 1). Both fit together, not twice each.
        (
            {"fish": (0, 1), "grain": (1, 0)},
            1,
            [
                [],
                [{"fish": {"left": 1}}],
                [{"grain": {"down": 1}}],
                [
                    {"fish": {"left": 1}},
                    {"grain": {"down": 1}},
                ],
            ],
        ),
        # Fish (0,2), grain (0,0): fish L1 only, up to twice.
        (
            {"fish": (0, 2), "grain": (0, 0)},
            1,
            [[], [{"fish": {"left": 1}}], [{"fish": {"left": 1}}, {"fish": {"left": 1}}]],
        ),
        # Fish (1,1) = 4, grain (0,0), N=3: fish L1 or D1 per repetition; at most one of
        # each fits (L1 twice needs column 2, D1 twice needs row 2).
        (
            {"fish": (1, 1), "grain": (0, 0)},
            2,
            [
                [],
                [{"fish": {"down": 1}}],
                [{"fish": {"left": 1}}],
                [
                    {"fish": {"down": 1}},
                    {"fish": {"left": 1}},
                ],
            ],
        ),
    ],
)
def test_restaurant_choices(
    goods: dict[str, tuple[int, int]], age: int, payment_lists: list[list[dict[str, Any]]]
) -> None:
    state = position(player(0, goods, {"restaurant": age}))
    expected = expected_texts("restaurant", [{"payments": p} for p in payment_lists])
    assert moves_for(state, "use", "restaurant") == expected


def test_restaurant_and_wood_trader_with_no_food_offer_zero_repetitions() -> None:
    """Zero repetitions is a legal use (SPEC §5): it still resets the building."""
    empty = {"fish": (0, 0), "grain": (0, 0)}
    state = position(player(2, empty, {"restaurant": 3, "wood_trader": 3}))
    assert moves_for(state, "use", "restaurant") == {
        '{"building":"restaurant","payments":[],"type":"use"}'
    }
    assert moves_for(state, "use", "wood_trader") == {
        '{"building":"wood_trader","payments":[],"type":"use"}'
    }
    after = summary(apply(state, use("wood_trader", payments=[])))
    assert after["players"][0]["buildings"] == {"restaurant": 3, "wood_trader": 0}
    assert after["players"][0]["francs"] == 2


@pytest.mark.parametrize("building", sorted(LOCKED))
def test_locked_buildings_are_never_used(building: str) -> None:
    """Locked buildings are owned off the wheel (age null) and have no use move."""
    state = position(player(30, {}, {building: None}))
    assert moves_for(state, "use", building) == set()
    assert summary(state)["players"][0]["buildings"] == {building: None}
    with pytest.raises(IllegalMove):
        apply(state, use(building))


@pytest.mark.parametrize("building", ["wood_company", "shipping_line", "marketplace"])
def test_age_0_buildings_cannot_be_used(building: str) -> None:
    """Sector 0: not even the one-time effect; on either wheel."""
    own = position(player(5, {}, {building: 0}))
    theirs = position(player(5), player(3, {}, {building: 0}))
    for state in (own, theirs):
        assert moves_for(state, "use", building) == set()
