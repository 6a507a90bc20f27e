"""A building's legal moves as choices: every legal move can be picked, and nothing else."""

from __future__ import annotations

import random

import pytest

import engine
from app.ui.choices import ChoiceGroup
from app.ui.panel import moves_by_building


def form_for(key: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """The form a browser sends for a choice key (checkboxes send only the ticked goods)."""
    form = {"touched": "1"}
    for name, value in key:
        if name == "goods":
            form.update({f"goods.{g}": "1" for g in value.split(",") if g})
        else:
            form[name] = value
    return form


def random_positions(count: int) -> list[engine.GameState]:
    rng = random.Random(3)
    found: list[engine.GameState] = []
    state = engine.new_game()
    while len(found) < count:
        if engine.is_finished(state):
            state = engine.new_game()
        moves = [m for m in engine.legal_moves(state) if m.type != "sell"]
        state = engine.apply(state, rng.choice(moves))
        if rng.random() < 0.3:
            found.append(state)
    return found


@pytest.mark.parametrize("state", random_positions(12))
def test_every_legal_move_is_one_set_of_panel_choices(state: engine.GameState) -> None:
    for building, moves in moves_by_building(state).items():
        for kind in ("build", "use"):
            group_moves = [m for m in moves if m.type == kind]
            if not building or not group_moves:
                continue
            group = ChoiceGroup(state, group_moves)
            assert len(set(group.keys)) == len(group_moves), building
            for key, move in zip(group.keys, group_moves, strict=True):
                picked = group.selection(form_for(key))
                index = group.find(picked)
                assert index is not None and group.moves[index] == move, (building, key)
