"""The words of the table: costs, shortfalls and the readable move log."""

from __future__ import annotations

import random

import engine
from app.present import words_for

present = words_for("en")

START = {"fish": [0, 4], "wood": [0, 2], "clay": [0, 3], "grain": [0, 1]}


def position(players: list[dict[str, object]], turn: int = 0) -> engine.GameState:
    return engine.from_summary({"turn": turn, "players": players})


def test_costs_and_shortfalls_in_words() -> None:
    assert present.cost_text({"wood": 1, "clay": 2}) == "1 wood, 2 clay"
    assert present.cost_text({"food": 3}) == "3 food (fish or grain)"
    assert present.cost_text({"francs": 1}) == "1 franc"
    assert present.shortfall({"clay": 2}, {"clay": 1}) == "needs 2 clay, you have 1"
    assert (
        present.shortfall({"wood": 2, "clay": 2}, {"wood": 1, "clay": 1})
        == "needs 2 wood and 2 clay, you have 1 wood and 1 clay"
    )
    assert present.shortfall({"food": 8}, {"fish": 1, "grain": 2}) == "needs 8 food, you have 3"
    assert present.shortfall({"francs": 8}, {"francs": 2}) == "needs 8 francs, you have 2"
    assert present.shortfall({"wood": 1}, {"wood": 5}) is None


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
    line = present.describe_event(events[0].to_json(), present.building_names(state.catalog))
    assert line == (
        "Player 1 used Player 2's Business Office (4+): paid 1 franc to Player 2, "
        "moved fish, wood, clay, and grain down-left, +21 francs"
    )


def test_every_event_of_a_whole_game_reads_as_a_sentence() -> None:
    rng = random.Random(7)
    state = engine.new_game()
    names = present.building_names(state.catalog)
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
            line = present.describe_event(data, names)
            assert line.startswith(("Player 1", "Player 2", "End of round", "Game over")), line
            assert "None" not in line and "_" not in line, line
    assert {"build", "use", "round_end", "game_over", "sell"} <= kinds


def test_turn_and_result_words_depend_on_who_looks() -> None:
    assert present.turn_text(0, 0) == "Your turn"
    assert present.turn_text(0, 1) == "Waiting for Player 1"
    assert present.turn_text(1, None) == "Player 2 to move"
    assert present.turn_text(None, 0) == "Game over"
    assert present.result_text(None, 0) == "It's a draw!"
    assert present.result_text(1, 1) == "You win!"
    assert present.result_text(0, None) == "Player 1 wins!"
