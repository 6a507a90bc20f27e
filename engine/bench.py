"""``python -m engine bench``: complete random games per second, µs per ``legal_moves`` and ``apply``.

Each repeat plays ``games`` complete games of uniformly random legal moves (a fresh seed each
repeat, so no position repeats), generating the legal moves at every position. The figures printed
are medians over the repeats, measured in this one process (one core).
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time

from .rules import apply, legal_moves
from .state import new_game


def _one_repeat(games: int, seed: int) -> tuple[float, float, float, float]:
    rng = random.Random(seed)
    clock = time.perf_counter
    legal_time = apply_time = 0.0
    legal_calls = apply_calls = 0
    slowest: list[float] = []
    start = clock()
    for _ in range(games):
        state = new_game()
        while not state.finished:
            t0 = clock()
            moves = legal_moves(state)
            t1 = clock()
            state = apply(state, rng.choice(moves))
            t2 = clock()
            legal_time += t1 - t0
            slowest.append(t1 - t0)
            apply_time += t2 - t1
            legal_calls += 1
            apply_calls += 1
    elapsed = clock() - start
    p99 = statistics.quantiles(slowest, n=100)[98]
    return (
        games / elapsed,
        1e6 * legal_time / legal_calls,
        1e6 * apply_time / apply_calls,
        1e6 * p99,
    )


def run_bench(games: int = 20, repeats: int = 5, seed: int = 1) -> str:
    results = [_one_repeat(games, seed + r) for r in range(repeats)]
    games_per_s = statistics.median(r[0] for r in results)
    legal_us = statistics.median(r[1] for r in results)
    apply_us = statistics.median(r[2] for r in results)
    legal_p99_us = statistics.median(r[3] for r in results)
    return "\n".join(
        [
            f"machine: {platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}",
            f"medians over {repeats} repeats of {games} random games each:",
            f"{games_per_s:.1f} games/s",
            f"legal_moves: {legal_us:.1f} µs per call (99th percentile {legal_p99_us:.0f} µs)",
            f"apply: {apply_us:.1f} µs per call",
        ]
    )
