"""The move log in words: every engine event reads as a sentence."""

from __future__ import annotations

import random

import engine
from app.ui.log import describe_event
from app.ui.words import words_for

words = words_for("en")

START = {"fish": [0, 4], "wood": [0, 2], "clay": [0, 3], "grain": [0, 1]}


def position(players: list[dict[str, object]], turn: int = 0) -> engine.GameState:
    return engine.from_summary({"turn": turn, "players": players})


def test_the_log_line_of_a_business_office_used_in_sector_4_plus() -> None:
    goods = {"fish": [1, 4], "wood": [1, 2], "clay": [1, 3], "grain": [1, 1]}
    state = position(
        [
            {"francs": 3, "goods": goods, "buildings": {}},
            {"francs": 0, "goods": START, "buildings": {"business_office": 4}},
        ]
    )
    move = {
        "type": "use",
        "building": "business_office",
        "goods": ["clay", "fish", "grain", "wood"],
    }
    _, events = engine.apply_with_events(state, move)
    line = describe_event(words, events[0].to_json(), words.building_names(state.catalog))
    assert line == (
        "Player 1 used Player 2's Business Office (4+): paid 1 franc to Player 2, "
        "moved fish, wood, clay, and grain down-left, +21 francs"
    )


def test_every_event_of_a_whole_game_reads_as_a_sentence() -> None:
    rng = random.Random(7)
    state = engine.new_game()
    names = words.building_names(state.catalog)
    kinds = set()
    while not engine.is_finished(state):
        moves = engine.legal_moves(state)
        sells = [m for m in moves if m.type == "sell"]
        move = (
            rng.choice(sells)
            if sells and rng.random() < 0.1
            else rng.choice([m for m in moves if m.type != "sell"])
        )
        state, events = engine.apply_with_events(state, move)
        for event in events:
            data = event.to_json()
            kinds.add(data["kind"])
            line = describe_event(words, data, names)
            assert line.startswith(("Player 1", "Player 2", "End of round", "Game over")), line
            assert "None" not in line and "_" not in line, line
    assert {"build", "use", "round_end", "game_over", "sell"} <= kinds
