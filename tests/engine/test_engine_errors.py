"""One error vocabulary: every refusal has a stable code, JSON-ready params and one English sentence.

``str(err)`` is the sentence of ``engine.errors.SENTENCES[err.code]`` filled with ``err.params``, so
a client can translate the code and params instead of the English text.
"""

from __future__ import annotations

import ast
import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from engine_support import player, position

from engine import IllegalMove, MalformedMove, apply, legal_moves, new_game, parse_move
from engine.errors import ILLEGAL, MALFORMED, SENTENCES, sentence

ENGINE = Path(__file__).resolve().parents[2] / "engine"
RAISERS = {"IllegalMove": ILLEGAL, "MalformedMove": MALFORMED, "refusal": ILLEGAL}
"""The calls that make a refusal, and the table their code must come from."""


def engine_sources() -> dict[Path, ast.Module]:
    return {
        path: ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(ENGINE.rglob("*.py"))
        if path.name != "errors.py"
    }


def test_the_two_tables_do_not_share_a_code() -> None:
    assert not set(ILLEGAL) & set(MALFORMED)
    assert SENTENCES == {**ILLEGAL, **MALFORMED}
    assert all(code.isidentifier() and code == code.lower() for code in SENTENCES)


def test_every_refusal_in_the_engine_is_made_with_a_known_code() -> None:
    for path, tree in engine_sources().items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            table = RAISERS.get(node.func.id)
            if table is None:
                continue
            code = node.args[1] if node.func.id == "refusal" else node.args[0]
            where = f"{path.name}:{node.lineno}"
            if isinstance(code, ast.Constant):
                assert code.value in table, f"{where}: {code.value!r} is not a code of its table"
            else:  # a code chosen just before, from the literals checked below
                assert isinstance(code, ast.Name), f"{where}: the code must be a literal"


def test_every_code_is_used() -> None:
    literals = {
        node.value
        for tree in engine_sources().values()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    assert sorted(set(SENTENCES) - literals) == []


def test_a_refusal_carries_code_params_and_the_sentence() -> None:
    # Hardware Store costs 1 wood and 2 clay; clay on (0, 1) stands for 1.
    state = position(player(goods={"clay": (0, 1)}))
    with pytest.raises(IllegalMove) as refused:
        apply(state, {"type": "build", "building": "hardware_store", "payment": {}})
    err = refused.value
    assert err.code == "cannot_afford"
    assert err.params == {
        "building": "hardware_store",
        "cost": {"clay": 2, "wood": 1},
        "have": {"clay": 1},
    }
    assert str(err) == "Hardware Store costs 1 wood and 2 clay; you have 1 clay"
    assert sentence(err.code, err.params) == str(err)


def test_malformed_input_has_a_code_too() -> None:
    with pytest.raises(MalformedMove) as refused:
        parse_move({"type": "use", "building": "fish_market", "times": "3"})
    assert (refused.value.code, refused.value.params) == (
        "not_a_whole_number",
        {"field": "times", "given": "3"},
    )
    assert str(refused.value) == "times must be a whole number, not '3'"


def test_text_nested_deeper_than_the_parser_goes_is_not_json() -> None:
    for text in ("[" * 3000, "[" * 3000 + "]" * 3000, '{"a":' * 3000 + "1" + "}" * 3000):
        with pytest.raises(MalformedMove) as refused:
            parse_move(text)
        assert (refused.value.code, refused.value.params) == (
            "not_json",
            {"reason": "nested too deeply"},
        )


def test_a_number_longer_than_python_converts_is_not_json() -> None:
    with pytest.raises(MalformedMove) as refused:
        parse_move('{"type": "use", "building": "fish_market", "times": ' + "9" * 5000 + "}")
    assert (refused.value.code, refused.value.params) == (
        "not_json",
        {"reason": "a number has too many digits"},
    )


def test_a_value_json_cannot_hold_is_kept_as_its_repr() -> None:
    with pytest.raises(MalformedMove) as refused:
        parse_move({"type": {1, 2}})
    assert refused.value.params == {"given": "{1, 2}"}
    json.dumps(refused.value.params)
    for number in (float("nan"), float("inf")):
        with pytest.raises(MalformedMove) as refused:
            parse_move({"type": "use", "building": "fish_market", "times": number})
        assert refused.value.params == {"field": "times", "given": repr(number)}
        json.dumps(refused.value.params, allow_nan=False)


def test_a_code_must_be_in_the_table_of_its_kind() -> None:
    with pytest.raises(KeyError):
        IllegalMove("not_json", {"reason": "x"})
    with pytest.raises(KeyError):
        MalformedMove("game_over")


def test_a_refusal_survives_pickling() -> None:
    with pytest.raises(IllegalMove) as refused:
        apply(new_game(), {"type": "sell", "building": "kiln"})
    copy = pickle.loads(pickle.dumps(refused.value))
    assert type(copy) is IllegalMove
    assert (copy.code, copy.params, str(copy)) == (
        "sell_not_owned",
        {"building": "kiln"},
        "you cannot sell Kiln: you do not own it",
    )


def probes(state: Any, rng: random.Random) -> list[dict[str, Any]]:
    """Moves a player might send, most of them refused."""
    ids = [b.id for b in state.catalog.buildings]
    found: list[dict[str, Any]] = [{"type": "pass"}]
    for building in rng.sample(ids, 8):
        good = rng.choice(("clay", "fish", "grain", "wood"))
        shift = {"down": rng.randint(0, 2), "left": rng.randint(0, 3)}
        found += [
            {"type": "sell", "building": building},
            {"type": "use", "building": building},
            {"type": "build", "building": building, "payment": {}},
            {"type": "build", "building": building, "payment": {good: shift}},
        ]
    found += [
        {"type": "use", "building": "fish_market", "times": rng.randint(0, 6)},
        {"type": "use", "building": "marketplace", "steps": {"fish": rng.randint(0, 6)}},
        {"type": "use", "building": "guild_hall", "goods": ["fish", "fish"]},
        {"type": "use", "building": "weekly_market", "good": "grain", "times": 5},
        {"type": "use", "building": "restaurant", "payments": [{"fish": {"down": 1}}] * 3},
    ]
    return found


def test_every_refusal_of_random_games_renders_from_code_and_params() -> None:
    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(3):
        state = new_game()
        while not state.finished:
            for move in probes(state, rng):
                try:
                    apply(state, move)
                except (IllegalMove, MalformedMove) as err:
                    assert json.loads(json.dumps(err.params)) == err.params
                    assert sentence(err.code, err.params, state.catalog) == str(err)
                    seen.add(err.code)
            state = apply(state, rng.choice([m for m in legal_moves(state) if m.type != "sell"]))
    assert {"cannot_afford", "already_owned", "not_built", "sell_not_owned"} <= seen
