"""Game records (engine/record.py) and their text notation (engine/notation.py, docs/notation.md):
both formats round-trip every move of random games, replay to the same positions, and refuse a
bad record naming its line; a record's prefix is where a new game starts."""

from __future__ import annotations

import json
import random

import pytest

from engine import apply, new_game, replay, summary
from engine.cli import random_game
from engine.notation import move_text, read_notation, record_text, text_move
from engine.record import (
    FORMAT,
    MAX_RECORD_BYTES,
    GameRecord,
    RecordEnding,
    RecordError,
    catalog_id,
    read_record,
    record_json,
    result_of,
)
from engine.rules import legal_moves


@pytest.mark.parametrize("seed", range(12))
def test_notation_round_trips_random_games(seed: int) -> None:
    """Every move of a random game, and every legal move met on the way, reads back as itself."""
    rng = random.Random(seed)
    moves = random_game(rng)
    state = new_game()
    for move in moves:
        for legal in legal_moves(state):
            assert text_move(move_text(legal)) == legal.to_json()
        state = apply(state, move)
    record = GameRecord.of(moves, seats=("Ann", "Computer (strong)"))
    for text in (record_text(record), record_json(record)):
        again = read_record(text)
        assert again == record
        assert summary(again.positions()[-1]) == summary(replay(moves))


def test_a_record_names_its_catalog_and_result() -> None:
    moves = random_game(random.Random(5))
    data = json.loads(record_json(GameRecord.of(moves)))
    name, digest = catalog_id()
    assert data["format"] == FORMAT
    assert data["catalog"] == {"name": name, "sha256": digest}
    assert len(digest) == 64
    assert data["result"] == result_of(replay(moves))
    assert data["result"]["scores"] == summary(replay(moves))["scores"]


def test_the_notation_reads_as_documented() -> None:
    name, digest = catalog_id()
    text = f"""# a hand-written opening
catalog {name} sha256={digest}
player1 Ann   # comments run to the end of the line
player2 Bob
1. build farmland
2. build wood_company clay-1l
3. build grocery_store fish-2l
4. use farmland
5. sell farmland; build farmland
"""
    record = read_notation(text)
    assert record.seats == ("Ann", "Bob")
    assert [m.type for m in record.moves] == ["build", "build", "build", "use", "sell", "build"]
    assert record.positions()[-1].turn == 5


def test_use_choices_in_the_notation() -> None:
    examples = {
        "use pier steps=fish:2,wood:1": {
            "type": "use",
            "building": "pier",
            "steps": {"fish": 2, "wood": 1},
        },
        "use weekly_market good=fish times=2": {
            "type": "use",
            "building": "weekly_market",
            "good": "fish",
            "times": 2,
        },
        "use restaurant payments=fish-1l+grain-1d,none": {
            "type": "use",
            "building": "restaurant",
            "payments": [{"fish": {"left": 1}, "grain": {"down": 1}}, {}],
        },
        "use masons_guild goods=": {"type": "use", "building": "masons_guild", "goods": []},
        "build kiln clay-1d2l": {
            "type": "build",
            "building": "kiln",
            "payment": {"clay": {"down": 1, "left": 2}},
        },
        "pass": {"type": "pass"},
    }
    for text, move in examples.items():
        assert text_move(text) == move


def _header() -> str:
    name, digest = catalog_id()
    return f"catalog {name} sha256={digest}\n"


@pytest.mark.parametrize(
    ("body", "line", "code"),
    [
        ("1. build farmland\n2. fly away\n", 3, "malformed_move"),
        ("1. build farmland\n\n3. build kiln\n", 4, "syntax"),
        ("1. build farmland\n2. build farmland\n", 3, "illegal_move"),
        ("1. build farmland\n2. build wood_company clay-1x\n", 3, "malformed_move"),
        ("1. build farmland\nresult 1 2\n", 3, "syntax"),
        ("1. use pier steps=fish\n", 2, "malformed_move"),
        ("1. build farmland\nwhat is this\n", 3, "syntax"),
    ],
)
def test_a_bad_notation_names_its_line(body: str, line: int, code: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_record(_header() + body)
    assert (caught.value.code, caught.value.line) == (code, line)
    assert str(caught.value).startswith(f"line {line}: ")


def test_a_bad_json_record_names_its_line() -> None:
    moves = random_game(random.Random(2))
    lines = record_json(GameRecord.of(moves)).splitlines()
    index = next(i for i, text in enumerate(lines) if text.strip().startswith("{") and i > 3)
    lines[index + 4] = '    {"type":"jump"},'
    with pytest.raises(RecordError) as caught:
        read_record("\n".join(lines))
    assert (caught.value.code, caught.value.line) == ("malformed_move", index + 5)
    with pytest.raises(RecordError) as broken:
        read_record('{\n  "format": "inland-port-record/1",\n  "moves": [,]\n}')
    assert (broken.value.code, broken.value.line) == ("syntax", 3)


def test_a_record_of_another_catalog_or_result_is_refused() -> None:
    moves = random_game(random.Random(3))
    data = json.loads(record_json(GameRecord.of(moves)))
    data["catalog"]["sha256"] = "0" * 64
    with pytest.raises(RecordError, match="catalog") as caught:
        read_record(json.dumps(data))
    assert caught.value.code == "catalog"
    data = json.loads(record_json(GameRecord.of(moves)))
    data["result"]["scores"][0] += 1
    with pytest.raises(RecordError) as wrong:
        read_record(json.dumps(data, indent=1))
    assert wrong.value.code == "result"
    assert wrong.value.line > 0


def test_a_record_is_limited_in_size() -> None:
    with pytest.raises(RecordError) as caught:
        read_record(_header() + "#" * MAX_RECORD_BYTES)
    assert caught.value.code == "too_large"
    with pytest.raises(RecordError) as nested:
        read_record('{"format": "inland-port-record/1", "moves": ' + "[" * 20000)
    assert nested.value.code == "syntax"
    with pytest.raises(RecordError) as long_number:
        read_record('{"format": "inland-port-record/1", "moves": [' + "1" * 5000 + "]}")
    assert long_number.value.code == "syntax"


def test_a_game_starts_from_a_records_prefix() -> None:
    moves = random_game(random.Random(4))
    record = GameRecord.of(moves)
    start = record.prefix(20)
    assert start.moves == record.moves[:20]
    assert summary(start.positions()[-1]) == summary(replay(moves[:20]))
    assert read_record(record_text(start)) == start
    assert json.loads(record_json(start))["result"] is None
    with pytest.raises(ValueError):
        record.prefix(len(moves) + 1)


@pytest.mark.parametrize("kind", ["resigned", "claimed", "aborted"])
def test_a_game_that_ended_early_keeps_its_ending_in_both_formats(kind: str) -> None:
    moves = random_game(random.Random(7))[:6]
    record = GameRecord.of(moves, ending=RecordEnding(kind, 1))
    assert json.loads(record_json(record))["ending"] == {"kind": kind, "seat": 1}
    assert f"ending {kind} player2" in record_text(record)
    for text in (record_text(record), record_json(record)):
        again = read_record(text)
        assert again == record and again.ending == RecordEnding(kind, 1)
    assert RecordEnding(kind, 1).winner == {"resigned": 0, "claimed": 1, "aborted": None}[kind]
    assert record.prefix(3).ending is None  # a game played on from a position has no ending


def test_an_ending_is_checked() -> None:
    moves = random_game(random.Random(8))
    finished = record_json(GameRecord.of(moves, ending=RecordEnding("resigned", 0)))
    with pytest.raises(RecordError) as refused:
        read_record(finished)
    assert refused.value.code == "result"  # a game played to its end did not end early
    early = GameRecord.of(moves[:4], ending=RecordEnding("resigned", 0))
    bad = record_json(early).replace('"resigned"', '"gave up"')
    with pytest.raises(RecordError) as refused:
        read_record(bad)
    assert refused.value.code == "shape"
    bad_text = (
        record_text(early)
        .replace("player1\n", "player3\n")
        .replace("ending resigned player1", "ending resigned player3")
    )
    with pytest.raises(RecordError) as refused:
        read_record(bad_text)
    assert refused.value.code == "shape"
