"""Supply cards in words: what a building costs and what the player lacks to build it."""

from __future__ import annotations

from app.ui.cards import cost_text
from app.ui.supply import shortfall
from app.ui.words import words_for

words = words_for("en")


def test_costs_and_shortfalls_in_words() -> None:
    assert cost_text(words, {"wood": 1, "clay": 2}) == "1 wood, 2 clay"
    assert cost_text(words, {"food": 3}) == "3 food (fish or grain)"
    assert cost_text(words, {"francs": 1}) == "1 franc"
    assert shortfall(words, {"clay": 2}, {"clay": 1}) == "needs 2 clay, you have 1"
    assert (
        shortfall(words, {"wood": 2, "clay": 2}, {"wood": 1, "clay": 1})
        == "needs 2 wood and 2 clay, you have 1 wood and 1 clay"
    )
    assert shortfall(words, {"food": 8}, {"fish": 1, "grain": 2}) == "needs 8 food, you have 3"
    assert shortfall(words, {"francs": 8}, {"francs": 2}) == "needs 8 francs, you have 2"
    assert shortfall(words, {"wood": 1}, {"wood": 5}) is None
