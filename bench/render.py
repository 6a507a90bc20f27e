"""Board-render micro-benchmark: median milliseconds per `app.ui.board.render_board`.

Plays seeded random games (uniformly random legal moves, sells included) and renders every position
in order, as a live room does: after each move the player to move (the heaviest board: controls and
"needs 2 clay, you have 1" notes), the waiting player and a spectator each get the new board, in
English and Czech. The renders of mid-game positions (moves 35-45, rounds E-F) and late-game
positions (moves 75-85, rounds J-L) are timed; the others only play the game forward. Each timed
position is new to the renderer, as in play (what it keeps from earlier versions it may reuse).

    .venv/bin/python bench/render.py                  # 6 games, 198 timed renders
    .venv/bin/python bench/render.py --games 10 --json
    .venv/bin/python bench/render.py --no-cache       # clear the renderer's caches before each one

One process, one thread; no database (the room views are built in memory as the sockets get them,
the log entries shared from version to version as the server's position cache shares them).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import positions as game_positions
from games import room_view

import engine
from app.reads.roomview import RoomView
from app.ui.board import render_board
from app.ui.cache import clear_caches

PHASES = {"mid": range(35, 46), "late": range(75, 86)}
"""Which versions are timed, by phase."""


def phase_of(version: int) -> str | None:
    return next((name for name, versions in PHASES.items() if version in versions), None)


def viewers(state: engine.GameState) -> list[tuple[str, int | None]]:
    to_move = state.to_move if state.to_move is not None else 0
    return [("to-move", to_move), ("waiting", 1 - to_move), ("spectator", None)]


def positions(games: int, seed: int) -> list[tuple[str, RoomView]]:
    """(label, view) of the timed positions (and the untimed ones before them, label "")."""
    rng = random.Random(seed)
    last = max(max(versions) for versions in PHASES.values())
    result = []
    for game in range(games):
        for version, (state, log) in enumerate(game_positions(last, rng.choice)):
            phase = phase_of(version)
            for kind, seat in viewers(state):
                label = f"{phase}/{kind}" if phase else ""
                view = room_view(f"room{game}", state, log, seat, base_url="http://127.0.0.1:8000")
                result.append((label, view))
    return result


def measure(boards: list[tuple[str, RoomView]], langs: list[str], cold: bool) -> dict[str, object]:
    timings: dict[str, list[float]] = {}
    sizes: dict[str, list[int]] = {}
    for label, view in boards:
        for lang in langs:
            if cold:
                clear_caches()
            started = time.perf_counter()
            html = render_board(view, lang=lang)
            elapsed = 1000 * (time.perf_counter() - started)
            if label:
                timings.setdefault(label, []).append(elapsed)
                sizes.setdefault(label, []).append(len(html.encode()))
    every = [t for ts in timings.values() for t in ts]
    return {
        "renders": len(every),
        "median_ms": round(statistics.median(every), 2),
        "p90_ms": round(statistics.quantiles(every, n=10)[-1], 2),
        "median_kb": round(statistics.median(s for ss in sizes.values() for s in ss) / 1000, 1),
        "by_position": {
            label: {
                "median_ms": round(statistics.median(ts), 2),
                "median_kb": round(statistics.median(sizes[label]) / 1000, 1),
            }
            for label, ts in sorted(timings.items())
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--langs", default="en,cs", help="comma-separated language codes")
    parser.add_argument("--no-cache", action="store_true", help="clear caches before each render")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON line")
    args = parser.parse_args()
    boards = positions(args.games, args.seed)
    langs = args.langs.split(",")
    for _label, view in boards[:3]:  # templates compiled, catalogues loaded
        for lang in langs:
            render_board(view, lang=lang)
    clear_caches()
    result = measure(boards, langs, args.no_cache)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            if isinstance(value, dict):
                print(f"{key:>12}:")
                for label, figures in value.items():
                    print(f"{label:>24}: {figures}")
            else:
                print(f"{key:>12}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
