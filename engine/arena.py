"""``python -m engine arena``: bots play each other in seat-alternated games.

Game ``i`` puts bot A in seat ``i % 2`` (seat 0 moves first), so each bot moves first in half of
the games. For each side it prints the share of games won — a draw counts as half a win — with a
Wilson 95% interval, and the mean score margin; then the first player's results (a balance check of
the catalog) and each bot's thinking time per move (every call, sells included).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, TypeVar

from .ai import LEVELS, make_bot
from .rules import apply
from .state import new_game, scores

T = TypeVar("T")
R = TypeVar("R")

Z_95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def wilson_interval(wins: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a win share of ``wins`` out of ``games`` (draws as half wins)."""
    if games <= 0:
        raise ValueError("an interval needs at least one game")
    if not 0 <= wins <= games:
        raise ValueError(f"wins must be between 0 and {games}, not {wins}")
    share = wins / games
    z2 = z * z
    centre = (share + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(share * (1 - share) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class GameResult:
    """One finished game, seen from bot A."""

    index: int
    a_seat: int
    scores: tuple[int, int]
    a_times: tuple[float, ...]
    b_times: tuple[float, ...]

    @property
    def a_margin(self) -> int:
        return self.scores[self.a_seat] - self.scores[1 - self.a_seat]


@dataclass(frozen=True)
class ArenaSetup:
    a: str
    b: str
    seed: int
    budget_s: float | None
    iterations: int | None


def play_game(setup: ArenaSetup, index: int) -> GameResult:
    """Game ``index``: bot A in seat ``index % 2``; each bot with its own seeded generator."""
    a_seat = index % 2
    levels = {a_seat: setup.a, 1 - a_seat: setup.b}
    bots = {
        seat: make_bot(level, budget_s=setup.budget_s, iterations=setup.iterations)
        for seat, level in levels.items()
    }
    rngs = {seat: Random(f"{setup.seed}/{index}/{seat}") for seat in (0, 1)}
    times: dict[int, list[float]] = {0: [], 1: []}
    state = new_game()
    while state.to_move is not None:
        seat = state.to_move
        started = time.perf_counter()
        move = bots[seat].choose_move(state, rngs[seat])
        times[seat].append(time.perf_counter() - started)
        state = apply(state, move)
    return GameResult(
        index=index,
        a_seat=a_seat,
        scores=scores(state),
        a_times=tuple(times[a_seat]),
        b_times=tuple(times[1 - a_seat]),
    )


def _play_indexed(args: tuple[ArenaSetup, int]) -> GameResult:
    return play_game(*args)


def play_games(setup: ArenaSetup, games: int, workers: int) -> Iterator[GameResult]:
    """Every game's result, in the order of the game numbers."""
    return map_in_order(_play_indexed, [(setup, index) for index in range(games)], workers)


def map_in_order(function: Callable[[T], R], tasks: Sequence[T], workers: int) -> Iterator[R]:
    """``function`` of each task, in the tasks' order; in ``workers`` processes when more than one.

    ``function`` must be a module-level function (the worker processes are spawned, not forked).
    """
    if workers <= 1:
        yield from map(function, tasks)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(function, tasks)


def _percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def side_line(name: str, wins: float, games: int, margins: Sequence[float]) -> str:
    """``strong: 78.5% [71.9%, 84.0%], mean margin +14.2`` — draws count as half a win."""
    low, high = wilson_interval(wins, games)
    mean = round(statistics.fmean(margins), 1) + 0.0  # prints +0.0, never -0.0
    return (
        f"{name}: {_percent(wins / games)} [{_percent(low)}, {_percent(high)}], "
        f"mean margin {mean:+.1f}"
    )


def timing_line(name: str, times: Sequence[float]) -> str:
    """Percentiles of one bot's time per move call, in milliseconds."""
    ordered = sorted(times)

    def at(share: float) -> float:
        return 1000 * ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]

    return (
        f"{name} move time: p50 {at(0.5):.1f} ms, p95 {at(0.95):.1f} ms, "
        f"max {1000 * ordered[-1]:.1f} ms ({len(ordered)} moves)"
    )


def _win(margin: int) -> float:
    return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


def report(setup: ArenaSetup, results: Sequence[GameResult]) -> list[str]:
    """The arena's printed lines: one per side, the first player, each bot's move times."""
    games = len(results)
    names = (setup.a, setup.b) if setup.a != setup.b else (f"{setup.a} (A)", f"{setup.b} (B)")
    a_margins = [r.a_margin for r in results]
    b_margins = [-m for m in a_margins]
    first_margins = [r.scores[0] - r.scores[1] for r in results]
    return [
        side_line(names[0], sum(_win(m) for m in a_margins), games, a_margins),
        side_line(names[1], sum(_win(m) for m in b_margins), games, b_margins),
        side_line("first player", sum(_win(m) for m in first_margins), games, first_margins),
        timing_line(names[0], [t for r in results for t in r.a_times]),
        timing_line(names[1], [t for r in results for t in r.b_times]),
    ]


def cmd_arena(args: argparse.Namespace) -> int:
    setup = ArenaSetup(
        a=args.a, b=args.b, seed=args.seed, budget_s=args.budget, iterations=args.iterations
    )
    results = []
    for result in play_games(setup, args.games, args.workers):
        results.append(result)
        if args.verbose:
            print(
                f"game {result.index}: A in seat {result.a_seat}, scores "
                f"{result.scores[0]}:{result.scores[1]}, A margin {result.a_margin:+d}",
                file=sys.stderr,
                flush=True,
            )
    print("\n".join(report(setup, results)))
    return 0


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number of seconds")
    return value


def add_arena_command(subparsers: Any) -> None:
    """Register ``arena`` on the engine's command line."""
    arena = subparsers.add_parser(
        "arena",
        help="bots play seat-alternated games; win rates with 95% intervals",
        description=(
            "Bots play seat-alternated games (A moves first in games 0, 2, 4, ...). Prints each "
            "side's win rate with a Wilson 95%% interval — a draw counts as half a win — and its "
            "mean score margin, the same for the first player, and each bot's time per move."
        ),
    )
    arena.add_argument("--a", required=True, choices=LEVELS, help="bot A's level")
    arena.add_argument("--b", required=True, choices=LEVELS, help="bot B's level")
    arena.add_argument("--games", type=positive_int, default=200)
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--workers", type=positive_int, default=1, help="games played at once")
    arena.add_argument(
        "--budget",
        type=_positive_seconds,
        default=None,
        help="the strong bot's thinking time per move in seconds (default 1.0)",
    )
    arena.add_argument(
        "--iterations",
        type=positive_int,
        default=None,
        help="the strong bot's work per move in greedy turns simulated (deterministic)",
    )
    arena.add_argument("--verbose", action="store_true", help="one line per game on stderr")
    arena.set_defaults(run=cmd_arena)
