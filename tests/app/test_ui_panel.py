"""The action panel: every legal move can be picked with its controls, and nothing else can."""

from __future__ import annotations

import engine
from app.ui.panel import build_panel

START = {"fish": [0, 4], "wood": [0, 2], "clay": [0, 3], "grain": [0, 1]}
RICH = {"fish": [2, 4], "wood": [2, 2], "clay": [2, 3], "grain": [2, 1]}


def position(
    mine: dict[str, object], theirs: dict[str, object], francs: int = 5
) -> engine.GameState:
    return engine.from_summary(
        {
            "turn": 0,
            "players": [
                {"francs": francs, "goods": RICH, "buildings": mine},
                {"francs": 3, "goods": START, "buildings": theirs},
            ],
        }
    )


def test_a_build_payment_choice_shows_the_warehouse_after_it() -> None:
    state = engine.new_game()
    panel = build_panel(state, 0, "grocery_store")
    assert panel.action == "build" and panel.choice is not None
    radio = panel.choice.controls[0]
    assert [o.label for o in radio.options] == ["pay 1 fish, 1 grain", "pay 2 fish"]
    chosen = build_panel(state, 0, "grocery_store", {"touched": "1", "payment": "1"})
    assert chosen.choice is not None and chosen.choice.preview is not None
    fish = next(g for g in chosen.choice.preview.goods if g.good == "fish")
    assert (fish.before, fish.after) == (4, 2)
    assert (
        chosen.choice.move
        == '{"building":"grocery_store","payment":{"fish":{"left":2}},"type":"build"}'
    )


def test_an_overpayment_is_labelled() -> None:
    goods = dict(START, wood=[1, 0])
    state = engine.from_summary(
        {"turn": 0, "players": [{"francs": 3, "goods": goods, "buildings": {}}] * 2}
    )
    panel = build_panel(state, 0, "hardware_store")
    assert panel.choice is not None
    labels = [o.label for o in panel.choice.controls[0].options]
    assert any("overpays 2" in label for label in labels), labels


def test_steps_that_do_not_add_up_get_a_reason_not_a_move() -> None:
    state = position({"marketplace": 1}, {})
    zeros = {
        "touched": "1",
        "steps.fish": "0",
        "steps.wood": "0",
        "steps.clay": "0",
        "steps.grain": "0",
    }
    panel = build_panel(state, 0, "marketplace", {**zeros, "steps.fish": "1"})
    assert panel.choice is not None
    assert panel.choice.move is None
    assert panel.choice.problem == "Place exactly 2 steps: 1 placed."
    fine = build_panel(state, 0, "marketplace", {**zeros, "steps.fish": "1", "steps.wood": "1"})
    assert fine.choice is not None and fine.choice.move is not None


def test_guilds_need_exactly_n_goods() -> None:
    state = position({"guild_hall": 1}, {})
    panel = build_panel(state, 0, "guild_hall", {"touched": "1", "goods.fish": "1"})
    assert panel.choice is not None and panel.choice.move is None
    assert panel.choice.problem == "Choose exactly 2 different goods: 1 chosen."


def test_repetitions_pick_payments_with_steppers() -> None:
    state = position({"restaurant": 3}, {})
    panel = build_panel(state, 0, "restaurant")
    assert panel.choice is not None and panel.choice.move is not None
    steppers = [c for c in panel.choice.controls if c.kind == "stepper"]
    assert steppers and all(c.name.startswith("pay.") for c in steppers)
    none = {"touched": "1", **{c.name: "0" for c in steppers}}
    zero = build_panel(state, 0, "restaurant", none)
    assert zero.choice is not None
    assert zero.choice.move == '{"building":"restaurant","payments":[],"type":"use"}'


def test_why_a_building_offers_nothing() -> None:
    state = position({"kiln": 0, "fish_factory": None}, {"sawmill": 2}, francs=0)
    assert build_panel(state, 0, "kiln").blocked == (
        "Kiln is in sector 0 (just built or used): it can be used after this round."
    )
    assert build_panel(state, 0, "fish_factory").blocked == (
        "Fish Factory has no action: it is worth points at the end."
    )
    assert build_panel(state, 0, "sawmill").blocked == (
        "Using Player 2's Sawmill needs 1 franc, you have 0."
    )
    assert build_panel(state, 1, "kiln").blocked == (
        "It is Player 1's turn: you can act when it is yours."
    )
    assert build_panel(state, None, "kiln").blocked == "You are watching this game."
    assert build_panel(state, 0, "zoo").blocked == "Arrives in round K."
    poor = engine.new_game()
    assert build_panel(poor, 0, "building_firm").blocked == "Arrives in round F."


def test_a_building_the_player_cannot_afford_says_what_is_missing() -> None:
    goods = dict(START, clay=[0, 1])
    state = engine.from_summary(
        {"turn": 0, "players": [{"francs": 3, "goods": goods, "buildings": {}}] * 2}
    )
    panel = build_panel(state, 0, "hardware_store")
    assert panel.blocked == "You cannot build Hardware Store: needs 2 clay, you have 1."


def test_own_buildings_can_be_sold_from_the_panel() -> None:
    state = position({"kiln": 0}, {})
    panel = build_panel(state, 0, "kiln")
    assert panel.sell == ('{"building":"kiln","type":"sell"}', 4)
