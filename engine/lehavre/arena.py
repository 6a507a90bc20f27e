"""``python -m engine lehavre arena``: two computer players meet in seat-alternated games.

Game ``i`` (setup ``random_setup(players, variant, seed * 1_000_003 + i)``) puts side A in seat
``i % players`` and side B in every other seat, so A sits in each seat equally often. A wins a game
when its fortune is above every B seat's, draws when the best B seat has the same. Each seat draws
its randomness from its own generator, seeded by the arena seed, the game and the seat: the same
command plays the same games. Printed: games played, each side's wins and draws, B's win rate
(draws count half) and mean score margin (B's fortune less A's, the best B seat), and each side's
seconds of CPU time per move (p50, p95, max: the machine's other work does not count).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from ..arena import map_in_order, positive_int
from . import apply, is_finished, new_game, random_setup, scores
from .ai import STRENGTHS, choose


@dataclass(frozen=True)
class Match:
    a: str
    b: str
    players: int
    variant: str
    seed: int


@dataclass(frozen=True)
class Game:
    """One finished game, seen from side B."""

    index: int
    a_seat: int
    scores: tuple[int, ...]
    a_times: tuple[float, ...]
    b_times: tuple[float, ...]

    @property
    def margin(self) -> int:
        """B's best fortune less A's."""
        best_b = max(s for seat, s in enumerate(self.scores) if seat != self.a_seat)
        return best_b - self.scores[self.a_seat]


def play_game(match: Match, index: int) -> Game:
    """Game ``index`` of ``match`` (see the module's docstring)."""
    a_seat = index % match.players
    state = new_game(random_setup(match.players, match.variant, match.seed * 1_000_003 + index))
    rngs = [Random(f"{match.seed}/{index}/{seat}") for seat in range(match.players)]
    times: tuple[list[float], list[float]] = ([], [])
    while not is_finished(state):
        seat = state.current
        side = 0 if seat == a_seat else 1
        started = time.process_time()
        move = choose(state, (match.a, match.b)[side], rngs[seat])
        times[side].append(time.process_time() - started)
        state = apply(state, move)
    return Game(index, a_seat, tuple(scores(state)), tuple(times[0]), tuple(times[1]))


def _play_indexed(task: tuple[Match, int]) -> Game:
    return play_game(*task)


def play_games(match: Match, games: int, jobs: int) -> list[Game]:
    """Every game's result, in the order of the game numbers (``jobs`` processes)."""
    return list(map_in_order(_play_indexed, [(match, i) for i in range(games)], jobs))


def _seconds(times: Sequence[float]) -> str:
    if not times:
        return "no moves"
    ordered = sorted(times)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]

    return (
        f"p50 {at(0.5):.4f} s, p95 {at(0.95):.3f} s, max {ordered[-1]:.3f} s of CPU time "
        f"over {len(ordered)} moves"
    )


def report(match: Match, results: Sequence[Game]) -> list[str]:
    """The arena's printed lines."""
    margins = [g.margin for g in results]
    b_wins, draws = sum(m > 0 for m in margins), sum(m == 0 for m in margins)
    a_wins = len(results) - b_wins - draws
    a_name, b_name = (
        (match.a, match.b) if match.a != match.b else (f"{match.a} (A)", f"{match.b} (B)")
    )
    rate = (b_wins + draws / 2) / len(results)
    return [
        f"games played: {len(results)} ({match.players} players, {match.variant}, seed "
        f"{match.seed}; A in seat game % {match.players})",
        f"{a_name}: {a_wins} wins, {draws} draws",
        f"{b_name}: {b_wins} wins, {draws} draws",
        f"{b_name} win rate: {100 * rate:.1f}% (draws count half), mean margin "
        f"{statistics.fmean(margins):+.1f} (its best seat's fortune less {a_name}'s)",
        f"{a_name} seconds per move: {_seconds([t for g in results for t in g.a_times])}",
        f"{b_name} seconds per move: {_seconds([t for g in results for t in g.b_times])}",
    ]


def cmd_arena(args: argparse.Namespace) -> int:
    match = Match(args.a, args.b, args.players, args.variant, args.seed)
    print("\n".join(report(match, play_games(match, args.games, args.jobs))))
    return 0


def add_arena_command(subparsers: Any) -> None:
    """Register ``arena`` on the Le Havre command line."""
    arena = subparsers.add_parser(
        "arena", help="two computer players meet in seat-alternated games"
    )
    arena.add_argument("--a", choices=tuple(STRENGTHS), default="heuristic", help="side A")
    arena.add_argument("--b", choices=tuple(STRENGTHS), default="strong", help="side B")
    arena.add_argument("--games", type=positive_int, default=100)
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--players", type=int, choices=range(2, 6), default=2)
    arena.add_argument("--variant", choices=("full", "short"), default="full")
    arena.add_argument("--jobs", type=positive_int, default=1, help="games played at once")
    arena.set_defaults(run=cmd_arena)
