"""Random complete games for the Le Havre tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.lehavre import Move, State, apply, is_finished, legal_moves, new_game, random_setup
from engine.lehavre.setup import Setup


def random_game(players: int, variant: str, seed: int) -> Iterator[tuple[State, list[Move], Move]]:
    """Each position of a random game, its legal moves and the move chosen."""
    rng = random.Random(seed)
    state = new_game(random_setup(players, variant, seed))
    while not is_finished(state):
        moves = legal_moves(state)
        move = rng.choice(moves)
        yield state, moves, move
        state = apply(state, move)


def play(setup: Setup, seed: int) -> tuple[State, list[Move]]:
    rng = random.Random(seed)
    state = new_game(setup)
    played = []
    while not is_finished(state):
        move = rng.choice(legal_moves(state))
        played.append(move)
        state = apply(state, move)
    return state, played


def goods_vec(goods: dict[str, int]) -> tuple[int, ...]:
    from engine.lehavre import default_catalog

    cat = default_catalog()
    vec = [0] * cat.size
    for name, n in goods.items():
        vec[cat.index[name]] = n
    return tuple(vec)


def goods_of(state: State, seat: int) -> dict[str, int]:
    from engine.lehavre import default_catalog

    cat = default_catalog()
    return {cat.names[i]: n for i, n in enumerate(state.players[seat].goods) if n}


def position(
    players: int = 2,
    variant: str = "full",
    *,
    goods: list[dict[str, int]] | None = None,
    buildings: list[list[str]] | None = None,
    ships: list[list[str]] | None = None,
    town: list[str] | None = None,
    **fields: object,
) -> State:
    """A hand-built position: seat 0 to make its main action, by default with nothing in hand."""
    from dataclasses import replace

    from engine.lehavre.state import Player

    state = new_game(random_setup(players, variant, seed=1))
    goods = goods or [{} for _ in range(players)]
    buildings = buildings or [[] for _ in range(players)]
    ships = ships or [[] for _ in range(players)]
    people = tuple(
        Player(goods_vec(goods[s]), buildings=tuple(buildings[s]), ships=tuple(ships[s]))
        for s in range(players)
    )
    owned = {b for bs in buildings for b in bs}
    stacks = tuple(tuple(b for b in stack if b not in owned) for stack in state.proposals)
    base = tuple(b for b in state.town if b not in owned) + tuple(town or ())
    return replace(state, players=people, current=0, town=base, proposals=stacks, **fields)


def enter(state: State, building: str, **choices: object) -> State:
    from engine.lehavre import apply

    return apply(state, {"type": "enter", "building": building, **choices})


def position_after(players: int, variant: str, seed: int, steps: int) -> State:
    """The position after up to ``steps`` random listed moves."""
    rng = random.Random(seed)
    state = new_game(random_setup(players, variant, seed))
    for _ in range(steps):
        if is_finished(state):
            break
        state = apply(state, rng.choice(legal_moves(state)))
    return state
