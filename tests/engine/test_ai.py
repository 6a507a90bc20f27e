"""The computer opponent: every bot returns legal moves, finishes games, and stays in its budget;
the arena's Wilson interval and its printed lines."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from engine import GameState, IllegalMove, apply, from_summary, legal_moves, new_game, scores
from engine.ai import LEVELS, choose_move, make_bot
from engine.ai.strong import search
from engine.arena import (
    ArenaSetup,
    play_game,
    play_games,
    report,
    side_line,
    wilson_interval,
)
from engine.cli import main

LAST_TURN = 71
"""The last action of the game (turn 71 of 72): seat 1 to move in round L."""


def played_to(turn: int, seed: int) -> GameState:
    """A position reached by the normal bot (seat 0) against the easy bot (seat 1)."""
    rng = random.Random(seed)
    bots = (make_bot("normal"), make_bot("easy"))
    state = new_game()
    while state.turn < turn:
        state = apply(state, bots[state.turn % 2].choose_move(state, rng))
    return state


def late_position(**seat1: Any) -> GameState:
    """The last action of the game, seat 1 to move; seat 1's francs, goods and buildings given."""
    start = {"fish": [0, 4], "clay": [0, 3], "wood": [0, 2], "grain": [0, 1]}
    opponent = {"francs": 3, "goods": start, "buildings": {}}
    mover = {"francs": 3, "goods": start, "buildings": {}, **seat1}
    return from_summary({"turn": LAST_TURN, "players": [opponent, mover]})


POSITIONS = [(turn, seed) for turn in (0, 9, 27, 50, 70) for seed in (1, 2)]


@pytest.fixture(scope="module")
def positions() -> list[GameState]:
    return [played_to(turn, seed) for turn, seed in POSITIONS]


@pytest.mark.parametrize("level", LEVELS)
def test_every_bot_returns_a_legal_move(level: str, positions: list[GameState]) -> None:
    for index, state in enumerate(positions):
        move = choose_move(state, level=level, rng=random.Random(index), iterations=12)
        assert move in legal_moves(state), (level, index, move)


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_easy_and_normal_finish_a_game_against_each_other(level: str) -> None:
    rng = random.Random(5)
    bots = (make_bot(level), make_bot("normal" if level == "easy" else "easy"))
    state = new_game()
    calls = 0
    while state.to_move is not None:
        move = bots[state.to_move].choose_move(state, rng)
        assert move in legal_moves(state)
        state = apply(state, move)
        calls += 1
        assert calls < 500, "a game of 72 actions should not need this many moves"
    assert state.turn == state.catalog.total_actions
    assert max(scores(state)) > 0


def test_normal_beats_easy() -> None:
    setup = ArenaSetup(a="normal", b="easy", seed=3, budget_s=None, iterations=None)
    results = [play_game(setup, index) for index in range(2)]
    assert all(result.a_margin > 0 for result in results)


def test_the_same_seed_gives_the_same_game() -> None:
    setup = ArenaSetup(a="easy", b="easy", seed=11, budget_s=None, iterations=None)
    assert play_game(setup, 0).scores == play_game(setup, 0).scores


def test_worker_processes_play_the_same_games() -> None:
    setup = ArenaSetup(a="easy", b="normal", seed=2, budget_s=None, iterations=None)
    alone = [(r.index, r.a_seat, r.scores) for r in play_games(setup, 2, workers=1)]
    pooled = [(r.index, r.a_seat, r.scores) for r in play_games(setup, 2, workers=2)]
    assert pooled == alone
    assert [seat for _, seat, _ in alone] == [0, 1]


def test_easy_never_sells() -> None:
    state = late_position(buildings={"town_hall": None, "wood_company": 2})
    rng = random.Random(1)
    for _ in range(30):
        assert choose_move(state, level="easy", rng=rng).type != "sell"


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_the_last_action_gets_the_best_final_score(level: str) -> None:
    state = late_position(
        francs=2,
        goods={"fish": [2, 0], "clay": [3, 1], "wood": [3, 0], "grain": [1, 2]},
        buildings={"shipping_line": 3, "restaurant": 4, "kiln": 1},
    )
    best = max(_final_margin(apply(state, m)) for m in legal_moves(state) if m.type != "sell")
    move = choose_move(state, level=level, rng=random.Random(2), iterations=50)
    assert _final_margin(apply(state, move)) == best


def _final_margin(state: GameState) -> int:
    first, second = scores(state)
    return second - first


def test_normal_sells_to_build_what_it_cannot_afford() -> None:
    """25 francs for the Pont de Normandie (value 50): selling the Town Hall (26, raises 13) pays.

    With no goods to spend, the best plain action is the Shipping Line (8 francs, value 16: +8);
    the sale and the bridge give +12.
    """
    empty = {"fish": [0, 0], "clay": [0, 0], "wood": [0, 0], "grain": [0, 0]}
    state = late_position(francs=14, goods=empty, buildings={"town_hall": None})
    rng = random.Random(3)
    move = choose_move(state, level="normal", rng=rng)
    assert move.canonical == '{"building":"town_hall","type":"sell"}'
    after = apply(state, move)
    follow = choose_move(after, level="normal", rng=rng)
    assert follow.canonical == '{"building":"pont_de_normandie","payment":{},"type":"build"}'


@pytest.mark.parametrize("turn", [4, 30, 60])
def test_strong_respects_its_time_budget(turn: int) -> None:
    state = played_to(turn, seed=4)
    budget = 0.3
    started = time.perf_counter()
    move = choose_move(state, level="strong", rng=random.Random(1), budget_s=budget)
    elapsed = time.perf_counter() - started
    assert move in legal_moves(state)
    # The search checks the clock between greedy turns; one turn and the setup take milliseconds.
    assert elapsed < budget + 0.5


def test_strong_with_an_iteration_budget_is_deterministic() -> None:
    state = played_to(12, seed=6)
    plan, used = search(state, budget_s=None, iterations=40)
    assert used <= 40
    again, _ = search(state, budget_s=None, iterations=40)
    assert plan == again
    assert plan[0] == choose_move(state, level="strong", iterations=40)


def test_bad_requests_are_refused() -> None:
    finished = played_to(72, seed=1)
    for level in LEVELS:
        with pytest.raises(IllegalMove, match="game is over"):
            choose_move(finished, level=level, iterations=5)
    with pytest.raises(ValueError, match="unknown level 'expert'"):
        choose_move(new_game(), level="expert")
    with pytest.raises(ValueError, match="time budget must be positive"):
        choose_move(new_game(), level="strong", budget_s=0)
    with pytest.raises(ValueError, match="iteration budget must be positive"):
        choose_move(new_game(), level="strong", iterations=-1)


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (50, 100, 0.4038, 0.5962),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (157, 200, 0.7230, 0.8363),
        (7.5, 10, 0.4422, 0.9191),
    ],
)
def test_wilson_interval(wins: float, games: int, low: float, high: float) -> None:
    """Reference bounds: the roots of |share − p| = z·√(p(1 − p)/games), found by bisection."""
    got = wilson_interval(wins, games)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_wilson_interval_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson_interval(3, 0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_a_draw_counts_as_half_a_win() -> None:
    setup = ArenaSetup(a="easy", b="normal", seed=1, budget_s=None, iterations=None)
    drawn = play_game(setup, 0)
    results = [drawn.__class__(0, 0, (100, 100), (0.001,), (0.002,))]
    lines = report(setup, results)
    assert lines[0].startswith("easy: 50.0% [")
    assert lines[1].startswith("normal: 50.0% [")
    assert lines[0].endswith("mean margin +0.0")


def test_a_mean_margin_near_zero_prints_as_plus_zero() -> None:
    assert side_line("a", 1, 2, [-1e-16]).endswith("mean margin +0.0")
    assert side_line("a", 1, 2, [-1, 1]).endswith("mean margin +0.0")


SIDE_LINE = re.compile(r"^(\w+): (\d+\.\d)% \[(\d+\.\d)%, (\d+\.\d)%\], mean margin ([+-]\d+\.\d)$")


def test_arena_command_prints_one_line_per_side(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["arena", "--a", "normal", "--b", "easy", "--games", "2", "--seed", "7"])
    assert status == 0
    lines = capsys.readouterr().out.splitlines()
    normal, easy = SIDE_LINE.match(lines[0]), SIDE_LINE.match(lines[1])
    assert normal and easy, lines
    assert normal.group(1) == "normal" and easy.group(1) == "easy"
    assert float(normal.group(2)) + float(easy.group(2)) == pytest.approx(100.0)
    assert float(normal.group(5)) == -float(easy.group(5))
    assert lines[2].startswith("first player: ")
    assert re.match(
        r"^normal move time: p50 [\d.]+ ms, p95 [\d.]+ ms, max [\d.]+ ms \(\d+ moves\)$", lines[3]
    )
    assert lines[4].startswith("easy move time: ")


def test_arena_command_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["arena", "--a", "expert", "--b", "easy"],
        ["arena", "--a", "easy", "--b", "easy", "--games", "0"],
        ["arena", "--a", "easy", "--b", "easy", "--budget", "-1"],
    ):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
    assert "must be at least 1" in capsys.readouterr().err


def test_arena_help_says_a_draw_is_half_a_win(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    assert "a draw counts as half a win" in capsys.readouterr().out
