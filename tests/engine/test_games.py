"""Both games behind the server's interface (engine.games): a whole game through it alone."""

from __future__ import annotations

import json
import random

import pytest

from engine.games import GAMES, game, summary_json

CASES = [(g.id, n) for g in GAMES.values() for n in g.player_counts]


def play_out(game_id: str, players: int, seed: int) -> tuple[object, list[str]]:
    """A whole game of random legal moves, each sent as its canonical text, as the server does."""
    g = game(game_id)
    state = g.start(g.random_setup(players, g.variants[-1], seed))
    rng = random.Random(seed)
    texts: list[str] = []
    while not g.finished(state):
        assert g.to_move(state) in range(players)
        text = g.canonical(rng.choice(g.legal_moves(state)))
        assert g.canonical(g.parse(text)) == text
        state = g.apply(state, g.parse(text))
        texts.append(text)
    return state, texts


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_a_whole_game_is_played_through_the_interface(game_id: str, players: int) -> None:
    g = game(game_id)
    state, texts = play_out(game_id, players, seed=players)
    assert g.to_move(state) is None
    assert len(g.scores(state)) == players
    assert json.loads(summary_json(g, state)) == g.summary(state)
    again = g.start(g.random_setup(players, g.variants[-1], players))
    for text in texts:
        again = g.apply(again, g.parse(text))
    assert summary_json(g, again) == summary_json(g, state)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_refused_move_is_a_value_error_and_the_state_stays(game_id: str) -> None:
    g = game(game_id)
    state = g.start(g.random_setup(g.player_counts[-1], g.variants[0], 1))
    before = summary_json(g, state)
    with pytest.raises(ValueError):
        g.apply(state, g.parse('{"type": "no such move"}'))
    assert summary_json(g, state) == before


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_setup_outside_the_game_is_refused(game_id: str) -> None:
    g = game(game_id)
    with pytest.raises(ValueError, match="players"):
        g.random_setup(g.player_counts[-1] + 1, g.variants[0], 1)
    with pytest.raises(ValueError, match="variant"):
        g.random_setup(g.player_counts[0], "no such variant", 1)
    with pytest.raises(ValueError, match="players"):
        g.random_setup(True, g.variants[0], 1)  # type: ignore[arg-type]


def test_the_same_seed_gives_the_same_setup() -> None:
    g = game("lehavre")
    assert g.random_setup(4, "full", 7) == g.random_setup(4, "full", 7)
    assert g.random_setup(4, "full", 7) != g.random_setup(4, "full", 8)
