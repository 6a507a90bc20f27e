"""Random complete games with Hypothesis: invariants that hold at every position.

- every listed move applies, and no listed move is refused;
- a few unlisted moves are refused with the state unchanged;
- counters stay on the 6 x 6 board, francs never go negative;
- turn, seat, round, actions left and supply follow SPEC §4 from the catalog's round table;
- a non-sell action ages the wheel only at a round end, selling pays floor(value/2);
- scores are francs plus building values (SPEC §7), computed here from the catalog;
- summary -> from_summary -> summary is the identity, and replaying the log reproduces the game.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spec_model import BUILDINGS, CATALOG, LOCKED, value

from engine import (
    GameState,
    IllegalMove,
    Move,
    apply,
    apply_with_events,
    from_summary,
    is_finished,
    legal_moves,
    new_game,
    replay,
    summary,
)

LETTERS = [r["letter"] for r in CATALOG["rounds"]]
NO_CHOICE = [
    "wood_company",
    "farmland",
    "clay_mound",
    "grocery_store",
    "farm",
    "kiln",
    "smokehouse",
    "bakehouse",
    "sawmill",
    "building_firm",
    "church_square",
    "shipping_line",
    *sorted(LOCKED),
]


def round_clock(turn: int) -> tuple[str, int]:
    """Round letter and actions left in it before action `turn`; round L, 0 after the end."""
    start = 0
    for entry in CATALOG["rounds"]:
        if turn < start + entry["actions"]:
            return entry["letter"], start + entry["actions"] - turn
        start += entry["actions"]
    return LETTERS[-1], 0


def check_position(data: dict[str, Any], actions: int) -> None:
    letter, left = round_clock(actions)
    finished = actions == 72
    assert data["turn"] == actions
    assert data["finished"] is finished
    assert data["to_move"] == (None if finished else actions % 2)
    assert (data["round"], data["actions_left"]) == (letter, left)
    owned = [b for p in data["players"] for b in p["buildings"]]
    assert len(owned) == len(set(owned))
    in_play = {
        b for b, e in BUILDINGS.items() if LETTERS.index(e["letter"]) <= LETTERS.index(letter)
    }
    assert set(owned) <= in_play
    assert data["supply"] == sorted(in_play - set(owned))
    for seat in data["players"]:
        assert seat["francs"] >= 0
        for row, col in seat["goods"].values():
            assert 0 <= row <= 5 and 0 <= col <= 5
        for building, age in seat["buildings"].items():
            if building in LOCKED:
                assert age is None
            else:
                assert age in (0, 1, 2, 3, 4)
    expected = [p["francs"] + sum(value(b, p) for b in p["buildings"]) for p in data["players"]]
    assert data["scores"] == expected


def check_step(before: dict[str, Any], move: Move, after: dict[str, Any]) -> None:
    """Ageing and selling seen from the summaries around one move."""
    seat = before["to_move"]
    if move.type == "sell":
        me_before, me_after = before["players"][seat], after["players"][seat]
        gain = value(move.building or "", me_before) // 2
        assert me_after["francs"] == me_before["francs"] + gain
        assert move.building not in me_after["buildings"]
        assert move.building in after["supply"]
        assert (after["turn"], after["to_move"]) == (before["turn"], before["to_move"])
        return
    round_ended = after["finished"] or after["round"] != before["round"]
    for index, (old, new) in enumerate(zip(before["players"], after["players"], strict=True)):
        for building, age in old["buildings"].items():
            if building in LOCKED:
                assert new["buildings"][building] is None
                continue
            acted = move.building == building and move.type == "use"
            start = 0 if acted else age
            if not round_ended:
                assert new["buildings"][building] == start, (index, building)
            elif start == 4:
                assert building not in new["buildings"], (index, building)
            else:
                assert new["buildings"][building] == start + 1, (index, building)
    if move.type == "build":
        expected_age = None if move.building in LOCKED else (1 if round_ended else 0)
        assert after["players"][seat]["buildings"][move.building] == expected_age


def unlisted_candidates(building: str) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = [
        {"type": "sell", "building": building},
        {"type": "build", "building": building, "payment": {}},
        {"type": "pass"},
    ]
    if building in NO_CHOICE:
        moves.append({"type": "use", "building": building})
    return moves


def check_refused(state: GameState, listed: set[str], buildings: list[str]) -> None:
    before = summary(state)
    for building in buildings:
        for move in unlisted_candidates(building):
            text = json.dumps(move, sort_keys=True, separators=(",", ":"))
            if text in listed:
                continue
            try:
                apply(state, move)
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"unlisted move accepted: {text}")
    assert summary(state) == before


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_random_complete_games(data: st.DataObject) -> None:
    state = new_game()
    log: list[str] = []
    actions = 0
    while True:
        now = summary(state)
        check_position(now, actions)
        assert summary(from_summary(now)) == now
        moves = legal_moves(state)
        if is_finished(state):
            assert moves == []
            break
        texts = [m.canonical for m in moves]
        assert texts == sorted(set(texts))
        non_sells = [m for m in moves if m.type != "sell"]
        assert non_sells, "a player always has an action (pass at worst)"
        if any(m.type == "pass" for m in non_sells):
            assert len(non_sells) == 1
        for other in data.draw(st.lists(st.sampled_from(moves), max_size=2), label="probe"):
            apply(state, other)
        probe = data.draw(st.lists(st.sampled_from(sorted(BUILDINGS)), max_size=2), label="bad")
        check_refused(state, set(texts), probe)
        sells = [m for m in moves if m.type == "sell"]
        if sells and data.draw(st.integers(0, 7), label="sell?") == 0:
            move = data.draw(st.sampled_from(sells), label="sell")
        else:
            move = data.draw(st.sampled_from(non_sells), label="action")
        after, _events = apply_with_events(state, move)
        plain = apply(state, move)
        assert summary(plain) == summary(after)
        assert summary(state) == now, "apply must not change the state it was given"
        check_step(now, move, summary(after))
        if move.type != "sell":
            actions += 1
        log.append(move.canonical)
        state = after
    assert actions == 72
    assert summary(replay(log)) == summary(state)
