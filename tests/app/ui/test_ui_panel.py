"""The action panel: every legal move can be picked with its controls, and nothing else can."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_a_stepper_takes_only_ascii_digits_of_a_sensible_length() -> None:
    cases = [
        ("marketplace", {"marketplace": 1}, "steps.fish"),
        ("restaurant", {"restaurant": 3}, "pay.0"),
    ]
    for building, mine, name in cases:
        for odd in ("²", "١", "０", "9" * 5000, "-1", "1\x00", "\x00"):
            panel = build_panel(position(mine, {}), 0, building, {"touched": "1", name: odd})
            assert panel.choice is not None and panel.choice.move is None, (building, odd)
            assert panel.choice.problem == "Enter whole numbers only.", (building, odd)


odd_values = st.sampled_from(["", "0", "1", "2", "²", "١", "９", "9" * 5000, "-1", "\x00", "fish"])


def _can_own(building: str) -> bool:
    try:
        position({building: 1}, {})
    except ValueError:  # not one a player can own in sector 1 (the locked ones)
        return False
    return True


OWNABLE = [b for b in sorted(engine.default_catalog().by_id) if _can_own(b)]


def _field_names(building: str) -> list[str]:
    """The names the panel's form sends for the building (a checkbox per good: goods.G)."""
    panel = build_panel(position({building: 1}, {}), 0, building)
    controls = panel.choice.controls if panel.choice is not None else ()
    names = [c.name for c in controls if c.kind != "checkbox"]
    names += [f"{c.name}.{o.value}" for c in controls if c.kind == "checkbox" for o in c.options]
    return names or ["times"]


@settings(max_examples=150, deadline=None)
@given(data=st.data(), building=st.sampled_from(OWNABLE))
def test_any_picked_values_give_a_move_or_a_reason(data: st.DataObject, building: str) -> None:
    """The panel's query string, fuzzed: every building as its owner sees it in sector 1, its
    form's fields with odd values."""
    values = odd_values | st.text(max_size=8)
    picked = {
        name: data.draw(values) for name in _field_names(building) if data.draw(st.booleans())
    }
    picked.update(data.draw(st.dictionaries(st.text(max_size=8), values, max_size=2)))
    panel = build_panel(position({building: 1}, {}), 0, building, {"touched": "1", **picked})
    if panel.choice is not None:
        assert (panel.choice.move is None) == bool(panel.choice.problem), picked
