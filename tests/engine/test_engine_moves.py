"""Move notation (SPEC §5): canonical round trip, canonicalisation, malformed vs illegal.

Malformed: cannot be read as a move at all (not an object, unknown type, unknown building id,
unknown or missing fields, wrong value types, negative numbers). Illegal: readable, but its
canonical form is not among the legal moves. Both are ValueError and leave the state unchanged.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from engine_support import canonical_text, legal_texts, player, position

from engine import (
    IllegalMove,
    MalformedMove,
    apply,
    canonical,
    legal_moves,
    new_game,
    parse_move,
    summary,
)

CHOICE_BUILDINGS: dict[str, int | None] = {
    "hardware_store": 1,
    "wood_trader": 2,
    "restaurant": 3,
    "marketplace": 1,
    "fish_market": 4,
    "weekly_market": 2,
    "masons_guild": 1,
    "business_office": 3,
    "guild_hall": 2,
    "pier": 1,
    "craftsmens_yard": 1,
    "town_hall": None,
}


def rich_position() -> Any:
    """Seat 0 owns every choice building, the warehouse is mid-board, all payments possible."""
    goods = {"fish": (2, 2), "clay": (1, 3), "wood": (2, 1), "grain": (1, 2)}
    return position(player(5, goods, CHOICE_BUILDINGS), player(3, {}, {"shipping_line": 2}))


def test_canonical_round_trip_for_every_legal_move() -> None:
    state = rich_position()
    moves = legal_moves(state)
    kinds = {(m.type, m.building) for m in moves}
    assert ("sell", "town_hall") in kinds
    assert {b for t, b in kinds if t == "use"} >= set(CHOICE_BUILDINGS) - {"town_hall"}
    texts = [m.canonical for m in moves]
    assert texts == sorted(set(texts))
    for move in moves:
        text = move.canonical
        assert canonical(move) == text
        assert canonical_text(json.loads(text)) == text
        assert move.to_json() == json.loads(text)
        assert parse_move(text).canonical == text
        assert parse_move(move.to_json()).canonical == text
        assert parse_move(text) == move


@pytest.mark.parametrize(
    "text",
    [
        '{"building":"weekly_market","good":"fish","times":2,"type":"use"}',
        '{"building":"kiln","payment":{"wood":{"down":1}},"type":"build"}',
        '{"building":"farmland","payment":{},"type":"build"}',
        '{"building":"masons_guild","goods":["clay","wood"],"type":"use"}',
        '{"building":"pier","steps":{"fish":3,"wood":1},"type":"use"}',
        '{"building":"restaurant","payments":[{"fish":{"left":1}}],"type":"use"}',
        '{"building":"farmland","type":"sell"}',
        '{"type":"pass"}',
    ],
)
def test_move_attributes(text: str) -> None:
    """docs/engine-api.md: `type`, `building` (or None), `canonical`, `to_json()` (the canonical
    dict, holding the choice fields); moves compare and hash by their canonical string."""
    move = parse_move(text)
    data = json.loads(text)
    assert (move.type, move.building) == (data["type"], data.get("building"))
    assert move.canonical == text
    assert move.to_json() == data
    again = parse_move(json.dumps(data, indent=2))
    assert again == move
    assert len({again, move}) == 1


START_BUILD = '{"building":"wood_company","payment":{"clay":{"left":1}},"type":"build"}'


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"build","payment":{"clay":{"left":1}},"building":"wood_company"}',
        '{ "building" : "wood_company", "payment" : { "clay" : { "left" : 1 } }, "type" : "build" }',
        '{"building":"wood_company","payment":{"clay":{"down":0,"left":1}},"type":"build"}',
        '{"building":"wood_company","payment":{"clay":{"left":1},"wood":{"down":0}},"type":"build"}',
        '{"building":"wood_company","payment":{"clay":{"left":1},"fish":{}},"type":"build"}',
    ],
    ids=["key-order", "spaces", "zero-field", "zero-good", "empty-good"],
)
def test_non_canonical_input_is_accepted(text: str) -> None:
    assert parse_move(text).canonical == START_BUILD
    assert parse_move(json.loads(text)).canonical == START_BUILD
    via_text = summary(apply(new_game(), text))
    assert via_text == summary(apply(new_game(), START_BUILD))


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        # The weekly market's "good" is dropped when times is 0.
        (
            {"type": "use", "building": "weekly_market", "good": "fish", "times": 0},
            '{"building":"weekly_market","times":0,"type":"use"}',
        ),
        # Goods lists are sorted.
        (
            {"type": "use", "building": "masons_guild", "goods": ["wood", "clay"]},
            '{"building":"masons_guild","goods":["clay","wood"],"type":"use"}',
        ),
        # Payments lists are sorted by canonical string; zero fields inside them dropped.
        (
            {
                "type": "use",
                "building": "restaurant",
                "payments": [{"grain": {"down": 1, "left": 0}}, {"fish": {"left": 1}}],
            },
            '{"building":"restaurant","payments":[{"fish":{"left":1}},{"grain":{"down":1}}],"type":"use"}',
        ),
    ],
)
def test_canonicalisation(given: dict[str, Any], expected: str) -> None:
    assert parse_move(given).canonical == expected
    assert parse_move(json.dumps(given)).canonical == expected


def test_non_canonical_use_applies_like_the_canonical_one() -> None:
    state = rich_position()
    given = {"type": "use", "building": "weekly_market", "good": "grain", "times": 0}
    canon = '{"building":"weekly_market","times":0,"type":"use"}'
    assert canon in legal_texts(state)
    assert summary(apply(state, given)) == summary(apply(state, canon))


MALFORMED: list[Any] = [
    "not json",
    "[]",
    "3",
    '"pass"',
    "null",
    [],
    3,
    None,
    {},
    {"type": "jump"},
    {"type": 1},
    {"building": "farmland"},
    {"type": "sell", "building": "castle"},
    {"type": "build", "building": "castle", "payment": {}},
    {"type": "sell"},
    {"type": "build", "building": "farmland"},
    {"type": "pass", "extra": 1},
    {"type": "sell", "building": "farmland", "colour": "red"},
    {"type": "sell", "building": 5},
    {"type": "build", "building": "farmland", "payment": []},
    {"type": "build", "building": "kiln", "payment": {"wood": 2}},
    {"type": "build", "building": "kiln", "payment": {"wood": {"left": "2"}}},
    {"type": "build", "building": "kiln", "payment": {"wood": {"sideways": 1}}},
    {"type": "build", "building": "kiln", "payment": {"wood": {"left": -2}}},
    {"type": "use", "building": "fish_market", "times": "2"},
    {"type": "use", "building": "fish_market", "times": 1.5},
    {"type": "use", "building": "fish_market", "times": -1},
    {"type": "use", "building": "fish_market", "times": True},
    {"type": "build", "building": "kiln", "payment": {"wood": {"left": True}}},
    {"type": "use", "building": "marketplace", "steps": {"gold": 2}},
    {"type": "use", "building": "masons_guild", "goods": "clay"},
    {"type": "use", "building": "marketplace", "steps": {"fish": -1, "wood": 3}},
    {"type": "use", "building": "marketplace", "steps": [1, 1]},
    {"type": "use", "building": "restaurant", "payments": {"fish": {"left": 1}}},
]


@pytest.mark.parametrize("given", MALFORMED, ids=[repr(g)[:60] for g in MALFORMED])
def test_malformed_moves(given: Any) -> None:
    state = rich_position()
    before = summary(state)
    with pytest.raises(MalformedMove) as parsed:
        parse_move(given)
    with pytest.raises(MalformedMove) as applied:
        apply(state, given)
    for err in (parsed.value, applied.value):
        assert isinstance(err, ValueError)
        assert str(err).strip()
    assert summary(state) == before


def test_unknown_building_is_named_in_the_message() -> None:
    with pytest.raises(MalformedMove) as refused:
        parse_move({"type": "sell", "building": "castle"})
    assert "castle" in str(refused.value)


# Readable moves (known, well-typed fields) that are not legal in `rich_position`.
ILLEGAL: list[dict[str, Any]] = [
    {"type": "sell", "building": "shipping_line"},  # the opponent's
    {"type": "sell", "building": "kiln"},  # nobody's
    {"type": "pass"},  # actions exist
    {"type": "use", "building": "town_hall"},  # locked
    {"type": "use", "building": "kiln"},  # not built
    {"type": "build", "building": "bakehouse", "payment": {}},  # food cost
    {"type": "build", "building": "kiln", "payment": {"wood": {"left": 1}}},  # too little
    {"type": "build", "building": "masons_guild", "payment": {"wood": {"down": 1}}},  # owned
    # masons_guild at age 1 (N=2) needs exactly 2 different goods.
    {"type": "use", "building": "masons_guild", "goods": ["clay", "fish", "wood"]},
    {"type": "use", "building": "masons_guild", "goods": ["clay"]},
    # fish_market at age 4: at most 4 times.
    {"type": "use", "building": "fish_market", "times": 5},
    # marketplace at age 1 (N=2): steps sum to exactly 2.
    {"type": "use", "building": "marketplace", "steps": {"fish": 3}},
    # steps counts are > 0; a zero count is not dropped by canonicalisation (SPEC §5 names
    # only zero down/left fields, empty payment entries and "good" with times 0).
    {"type": "use", "building": "marketplace", "steps": {"fish": 0, "wood": 2}},
    # restaurant at age 3 (N=4): at most 4 repetitions.
    {"type": "use", "building": "restaurant", "payments": [{"fish": {"left": 1}}] * 5},
]

# Refused, but SPEC §5 does not say whether as malformed or illegal: a choice value outside the
# building's options, a repeated good, a choice field the building does not have, a missing one.
REFUSED: list[dict[str, Any]] = [
    {"type": "use", "building": "hardware_store", "good": "fish"},
    {"type": "use", "building": "weekly_market", "good": "wood", "times": 1},
    {"type": "use", "building": "business_office", "goods": ["fish", "fish"]},
    {"type": "use", "building": "shipping_line", "times": 2},
    {"type": "use", "building": "fish_market"},
]


@pytest.mark.parametrize(
    "given", ILLEGAL + REFUSED, ids=[json.dumps(g)[:70] for g in ILLEGAL + REFUSED]
)
def test_refused_moves_change_nothing(given: dict[str, Any]) -> None:
    state = rich_position()
    before = summary(state)
    assert canonical_text(given) not in legal_texts(state)
    with pytest.raises(ValueError) as refused:
        apply(state, given)
    assert str(refused.value).strip()
    assert summary(state) == before


@pytest.mark.parametrize("given", ILLEGAL, ids=[json.dumps(g)[:70] for g in ILLEGAL])
def test_illegal_moves_are_illegal_not_malformed(given: dict[str, Any]) -> None:
    """Every field is known and well typed: these parse, and apply refuses them as illegal."""
    state = rich_position()
    assert parse_move(given).type == given["type"]
    with pytest.raises(IllegalMove):
        apply(state, given)
