"""Le Havre's game record (engine/lehavre/record.py): written and read back it is the same game,
and a record that is not one is refused naming its line and what is wrong."""

from __future__ import annotations

import json
import random

import pytest

from engine.gamerecord import RecordEnding
from engine.games import game, record_game
from engine.lehavre import Setup, random_setup, scores
from engine.lehavre.ai import choose
from engine.lehavre.record import (
    FORMAT,
    LeHavreRecord,
    LeHavreRecordError,
    read_record,
    record_json,
)


def played(players: int, variant: str, seed: int, moves: int | None = None) -> LeHavreRecord:
    """A game the steady computer plays for every seat (to the end, or `moves` moves)."""
    setup = random_setup(players, variant, seed)
    record = LeHavreRecord(setup, tuple(f"P{s + 1}" for s in range(players)), ())
    state, rng, made = record.positions()[0], random.Random(seed), []
    while state.phase != "over" and (moves is None or len(made) < moves):
        move = choose(state, "heuristic", rng)
        made.append(move)
        state = game("lehavre").apply(state, move)
    return LeHavreRecord(setup, record.seats, tuple(made))


@pytest.mark.parametrize(("players", "variant"), [(1, "short"), (3, "short"), (2, "full")])
def test_a_whole_game_round_trips(players: int, variant: str) -> None:
    record = played(players, variant, seed=players)
    text = record_json(record)
    again = read_record(text)
    assert again == record
    assert record_json(again) == text
    data = json.loads(text)
    assert data["format"] == FORMAT and data["setup"] == record.setup.to_json()
    assert data["result"] == {"scores": scores(record.positions()[-1])}
    assert record_game(text).id == "lehavre"


def test_a_game_cut_short_keeps_its_ending_and_a_prefix_is_a_start() -> None:
    record = played(2, "short", seed=5, moves=20)
    ended = LeHavreRecord(record.setup, record.seats, record.moves, RecordEnding("resigned", 1))
    assert read_record(record_json(ended)) == ended
    start = ended.prefix(7)
    assert start.ending is None and start.moves == record.moves[:7]
    assert Setup.from_json(json.loads(record_json(start))["setup"]) == record.setup


def _lines(text: str) -> list[str]:
    return text.splitlines()


@pytest.mark.parametrize(
    ("change", "code", "line"),
    [
        (lambda d: d.update(format="lehavre-record/9"), "shape", 1),
        (lambda d: d["setup"].update(players=7), "setup", 4),
        (lambda d: d["setup"].pop("specials"), "setup", 4),
        (lambda d: d.update(seats=["only one"]), "shape", 3),
        (lambda d: d["moves"].__setitem__(2, {"type": "fly"}), "malformed_move", 8),
        (
            lambda d: d["moves"].__setitem__(2, {"type": "take", "offer": "gold"}),
            "malformed_move",
            8,
        ),
        (lambda d: d["moves"].insert(0, {"type": "end"}), "illegal_move", 6),
        (lambda d: d.update(result={"scores": [1, 2]}), "result", 0),
        (lambda d: d.update(ending={"kind": "fled", "seat": 0}), "shape", 0),
    ],
)
def test_a_record_that_is_not_one_is_refused_naming_the_line(
    change: object, code: str, line: int
) -> None:
    record = played(2, "short", seed=2, moves=10)
    data = json.loads(record_json(record))
    change(data)  # type: ignore[operator]
    text = (
        "{\n"
        + ",\n".join(
            f'  "{k}": '
            + (
                "[\n" + ",\n".join("    " + json.dumps(m) for m in v) + "\n  ]"
                if k == "moves"
                else json.dumps(v)
            )
            for k, v in data.items()
        )
        + "\n}\n"
    )
    with pytest.raises(LeHavreRecordError) as refused:
        read_record(text)
    assert refused.value.code == code
    if line:
        assert refused.value.line == line
    else:
        assert _lines(text)[refused.value.line - 1].lstrip().startswith(('"result"', '"ending"'))
    if code in ("setup", "malformed_move", "illegal_move"):
        assert refused.value.refusal is not None


@pytest.mark.parametrize("text", ["{", "[]", '{"format": "lehavre-record/1"}', "{" * 5000])
def test_odd_text_is_refused_not_crashed(text: str) -> None:
    with pytest.raises(LeHavreRecordError):
        read_record(text)
