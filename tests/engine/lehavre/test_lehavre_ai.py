"""The Le Havre computer player: legal moves, the same game for the same seed, whole games at every
table size, the arena's counts, and the evaluation at the end of a game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.cli import main
from engine.lehavre import (
    IllegalMove,
    Move,
    State,
    apply,
    canonical,
    is_finished,
    new_game,
    parse_move,
    random_setup,
    scores,
)
from engine.lehavre.ai import STRENGTHS, choose
from engine.lehavre.ai.evaluation import worth
from engine.lehavre.ai.strong import redraw_hidden
from engine.lehavre.arena import Match, play_games, report


def play(players: int, strength: str, seed: int, most: int = 10_000) -> tuple[State, list[Move]]:
    """A short game of ``strength`` in every seat, whole or its first ``most`` moves; ``apply``
    refuses any illegal move."""
    rng = random.Random(seed)
    state = new_game(random_setup(players, "short", seed))
    played: list[Move] = []
    while not is_finished(state) and len(played) < most:
        move = choose(state, strength, rng)
        assert parse_move(canonical(move)) == move
        state = apply(state, move)
        played.append(move)
    return state, played


@pytest.mark.parametrize("players", [1, 2, 5])
@pytest.mark.parametrize("strength", sorted(STRENGTHS))
def test_each_strength_finishes_whole_games_with_legal_moves(players: int, strength: str) -> None:
    state, played = play(players, strength, seed=players)
    assert is_finished(state)
    assert len(scores(state)) == players
    assert any(move.type == "enter" for move in played)


def test_the_same_seed_gives_the_same_game() -> None:
    first = [canonical(m) for m in play(2, "strong", seed=11, most=50)[1]]
    again = [canonical(m) for m in play(2, "strong", seed=11, most=50)[1]]
    assert first == again and len(first) == 50


def test_unknown_strength_and_finished_game_are_refused() -> None:
    state = new_game(random_setup(2, "short", 1))
    with pytest.raises(ValueError, match="unknown strength"):
        choose(state, "grandmaster", random.Random(1))
    over, _ = play(1, "heuristic", seed=4)
    with pytest.raises(IllegalMove) as refused:
        choose(over, "heuristic", random.Random(1))
    assert refused.value.code == "game_over"


def test_worth_at_the_end_is_the_score_margin() -> None:
    over, _ = play(2, "heuristic", seed=6)
    final = scores(over)
    assert worth(over, 0) == final[0] - final[1]
    assert worth(over, 1) == final[1] - final[0]


def test_playouts_redraw_only_what_no_player_sees() -> None:
    state = new_game(random_setup(2, "full", 3))
    redrawn = redraw_hidden(state, random.Random(2))
    tiles, seen = redrawn.setup.supply_tiles, state.turn
    assert tiles[:seen] == state.setup.supply_tiles[:seen]
    assert Counter(tiles) == Counter(state.setup.supply_tiles)
    assert Counter(redrawn.specials) == Counter(state.specials)
    assert redrawn.players == state.players and redrawn.offers == state.offers


def test_arena_counts_add_up() -> None:
    match = Match("heuristic", "heuristic", players=3, variant="short", seed=2)
    results = play_games(match, games=3, jobs=1)
    assert [g.a_seat for g in results] == [0, 1, 2]
    lines = report(match, results)
    assert lines[0].startswith("games played: 3 ")
    a_wins = int(lines[1].split(": ")[1].split()[0])
    b_wins = int(lines[2].split(": ")[1].split()[0])
    draws = int(lines[1].split(", ")[1].split()[0])
    assert a_wins + b_wins + draws == 3
    assert b_wins == sum(g.margin > 0 for g in results)
    for game in results:
        others = [s for seat, s in enumerate(game.scores) if seat != game.a_seat]
        assert game.margin == max(others) - game.scores[game.a_seat]


def test_arena_command(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["lehavre", "arena", "--games", "2", "--variant", "short", "--b", "heuristic"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("games played: 2 (2 players, short, seed 1")
    assert "win rate" in out[3] and "mean margin" in out[3]
    assert all("seconds per move: p50" in line for line in out[4:6])
