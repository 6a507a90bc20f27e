"""Refusals at the edge: every engine and service code has a status and a sentence in each language."""

from __future__ import annotations

import random
import string
from typing import Any

import pytest

import engine
from app.i18n import LANGUAGES
from app.refusals.answers import record_sentence, sentence, status
from app.refusals.table import REFUSALS, SERVICE
from engine.errors import ILLEGAL, MALFORMED, SENTENCES
from engine.record import CODES as RECORD_CODES

SAMPLE_PARAMS: dict[str, Any] = {
    "building": "hardware_store",
    "cost": {"clay": 2, "wood": 1},
    "have": {"clay": 1},
    "good": "clay",
    "paid": 1,
    "needed": 2,
    "n": 3,
    "steps": 4,
    "given": 5,
    "francs": 0,
    "cover": 2,
    "fee": 1,
    "round": "D",
    "reason": "Expecting value",
    "type": "build",
    "field": "times",
    "name": "up",
}
"""A value for every param name the engine's sentences use."""

SERVICE_PARAMS: dict[str, dict[str, Any]] = {
    "stale_version": {"current_version": 12},
    "bad_client_move_id": {"max_length": 64},
    "unknown_catalog": {"catalog": "printed"},
    "catalog_missing": {"catalog": "printed"},
    "chat_too_long": {"max_length": 300},
    "chat_too_fast": {"limit": 5, "seconds": 10, "retry_after": 3},
    "too_many_rooms": {"retry_after": 3},
    "too_many_analyses": {"retry_after": 3},
    "too_many_reissues": {"limit": 5},
}


def engine_params(code: str) -> dict[str, Any]:
    """The params the engine gives with ``code``: the fields its English sentence names."""
    names = {field for _, field, _, _ in string.Formatter().parse(SENTENCES[code]) if field}
    return {name: SAMPLE_PARAMS[name] for name in names}


def test_every_engine_service_and_record_code_has_an_entry() -> None:
    assert sorted(set(SENTENCES) - set(REFUSALS)) == []
    assert sorted(set(SERVICE) - set(REFUSALS)) == []
    assert sorted(set(RECORD_CODES) - set(REFUSALS)) == []
    assert sorted(set(REFUSALS) - set(SENTENCES) - set(SERVICE) - set(RECORD_CODES)) == []
    assert not set(RECORD_CODES) & (set(SENTENCES) | set(SERVICE))


def test_statuses() -> None:
    assert {status(code) for code in MALFORMED} == {422}
    assert {status(code) for code in ILLEGAL if code not in ("game_over", "no_move_to_choose")} == {
        422
    }
    assert [status(c) for c in ("stale_version", "seat_taken", "rematch_refused")] == [409] * 3
    assert [status(c) for c in ("not_your_turn", "game_over", "not_a_player")] == [403] * 3
    # A missing credential is 401 (with WWW-Authenticate), a wrong one 403 (RFC 9110 §15.5).
    assert [status(c) for c in ("needs_token", "wrong_token")] == [401, 403]
    assert (status("invalid_request"), status("too_many_rooms")) == (422, 429)
    assert (status("room_not_found"), status("invalid_link")) == (404, 404)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sentence_renders_in_every_language(lang: str) -> None:
    for code in REFUSALS:
        params = SERVICE_PARAMS.get(code) or (engine_params(code) if code in SENTENCES else {})
        text = sentence(code, params, lang)
        assert text and "%(" not in text and "_" not in text.replace("client_move_id", ""), text


def test_a_refused_record_names_its_line() -> None:
    assert record_sentence("syntax", 3, "en") == (
        "Line 3: This line is neither JSON nor the record notation."
    )
    assert record_sentence("too_large", 0, "en") == "The record is too large."
    assert {status(code) for code in RECORD_CODES} == {422}


def test_a_refused_build_reads_in_czech() -> None:
    state = engine.from_summary(
        {
            "turn": 64,
            "players": [
                {
                    "francs": 3,
                    "goods": {"clay": [0, 1], "fish": [0, 4], "grain": [0, 1], "wood": [0, 2]},
                    "buildings": {},
                },
                {
                    "francs": 3,
                    "goods": {"clay": [0, 3], "fish": [0, 4], "grain": [0, 1], "wood": [0, 2]},
                    "buildings": {},
                },
            ],
        }
    )
    with pytest.raises(engine.IllegalMove) as refused:
        engine.apply(state, {"type": "build", "building": "hardware_store", "payment": {}})
    err = refused.value
    assert sentence(err.code, err.params, "cs") == (
        "Budova Stavebniny stojí 1 dřevo a\xa02 jíly; máte 1 jíl."
    )
    assert sentence(err.code, err.params, "pt_BR") == (
        "A construção Loja de Materiais custa 1 madeira e 2 argilas; você tem 1 argila."
    )
    assert sentence(err.code, err.params, "en") == (
        "Hardware Store costs 1 wood and 2 clay; you have 1 clay."
    )


def test_czech_plurals_in_refusals() -> None:
    params = {"building": "fish_market", "n": 4}
    assert sentence("use_too_many_times", params, "cs") == (
        "Budovu Rybí trh s N = 4 takto využít nelze: nejvýše 4krát."
    )
    steps = {"building": "pier", "n": 2, "steps": 4, "given": 5}
    assert sentence("use_wrong_step_count", steps, "cs").endswith("přesně 4 kroky, ne 5.")
    assert sentence("bad_client_move_id", {"max_length": 64}, "cs") == (
        "client_move_id musí mít 1 až 64 znaků, bez řídicích znaků."
    )


def test_refusals_of_random_games_render_in_every_language() -> None:
    rng = random.Random(8)
    state = engine.new_game()
    ids = [b.id for b in state.catalog.buildings]
    while not engine.is_finished(state):
        for building in rng.sample(ids, 4):
            for move in (
                {"type": "build", "building": building, "payment": {"clay": {"left": 1}}},
                {"type": "use", "building": building},
                {"type": "sell", "building": building},
            ):
                try:
                    engine.apply(state, move)
                except ValueError as err:
                    assert isinstance(err, engine.IllegalMove | engine.MalformedMove)
                    for lang in LANGUAGES:
                        assert "%(" not in sentence(err.code, err.params, lang)
        moves = [m for m in engine.legal_moves(state) if m.type != "sell"]
        state = engine.apply(state, rng.choice(moves))
