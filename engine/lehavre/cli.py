"""The command line of the Le Havre engine, reached as ``python -m engine lehavre ...``.

    python -m engine lehavre replay FILE [--trace]   the summary after FILE's moves (each position)
    python -m engine lehavre legal FILE              the listed moves after FILE's moves, one a line
    python -m engine lehavre selfplay [--players N] [--variant V] [--seed S] [--games G] [--out DIR]
    python -m engine lehavre bench [--players 2 4] [--variant V] [--games G] [--seed S]
    python -m engine lehavre arena [--a heuristic --b strong] [--games G] [--seed S] [--players N]
                                   [--variant V] [--jobs J]

FILE is ``{"setup": setup, "moves": [move, ...]}`` (docs/le-havre/spec.md). An unreadable FILE or a
refused move ends with exit status 1 and one line on stderr naming the move.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..commands import Unreadable, add_file_commands, read_json_file, replay_moves, run_command
from . import (
    Setup,
    State,
    apply,
    canonical,
    is_finished,
    legal_moves,
    new_game,
    random_setup,
    scores,
    summary,
)
from .arena import add_arena_command


def _dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _play(path: str, on_position: Callable[[State], None] | None) -> State:
    data = read_json_file(path)
    if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
        raise Unreadable(f"{path}: expected an object with a setup and a list of moves")
    try:
        state = new_game(Setup.from_json(data.get("setup")))
    except ValueError as err:
        raise Unreadable(f"{path}: setup: {err}") from err
    return replay_moves(state, data["moves"], apply, on_position, f"{path}: ")


def cmd_replay(args: argparse.Namespace) -> int:
    if args.trace:
        _play(args.file, lambda s: print(_dumps(summary(s)), flush=True))
    else:
        print(_dumps(summary(_play(args.file, None))))
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    for move in legal_moves(_play(args.file, None)):
        print(_dumps(canonical(move)))
    return 0


def random_game(setup: Setup, rng: random.Random) -> tuple[State, list[dict[str, Any]]]:
    """A complete game of uniformly random listed moves, and its canonical moves."""
    state = new_game(setup)
    moves = []
    while not is_finished(state):
        move = rng.choice(legal_moves(state))
        state = apply(state, move)
        moves.append(canonical(move))
    return state, moves


def cmd_selfplay(args: argparse.Namespace) -> int:
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    for number in range(args.games):
        seed = args.seed + number
        setup = random_setup(args.players, args.variant, seed)
        state, moves = random_game(setup, random.Random(seed))
        line = f"{len(moves)} moves, scores {' '.join(map(str, scores(state)))}"
        if out:
            path = out / f"lehavre-{args.players}-{args.variant}-{seed}.json"
            path.write_text(_dumps({"setup": setup.to_json(), "moves": moves}) + "\n")
            print(f"{path}: {line}")
        else:
            print(f"game {number} (seed {seed}): {line}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    for players in args.players:
        moves = 0
        wall, cpu = time.perf_counter(), time.process_time()
        for number in range(args.games):
            seed = args.seed + number
            _, played = random_game(random_setup(players, args.variant, seed), random.Random(seed))
            moves += len(played)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"{players} players, {args.variant}: {args.games} random complete games, "
            f"{args.games / cpu:.1f} games/s and {moves / cpu:.0f} moves/s of CPU time "
            f"({args.games / wall:.1f} games/s wall clock), {moves / args.games:.0f} moves a game"
        )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine lehavre", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    add_file_commands(sub, ("summary", "listed moves"), cmd_replay, cmd_legal)
    selfplay = sub.add_parser("selfplay", help="play complete games of random listed moves")
    selfplay.add_argument("--players", type=int, choices=range(1, 6), default=2)
    selfplay.add_argument("--variant", choices=("full", "short"), default="full")
    selfplay.add_argument("--seed", type=int, default=1)
    selfplay.add_argument("--games", type=int, default=1)
    selfplay.add_argument("--out", help="write each game as a replayable file into this folder")
    selfplay.set_defaults(run=cmd_selfplay)
    bench = sub.add_parser("bench", help="random complete games per second, on one core")
    bench.add_argument("--players", type=int, nargs="+", choices=range(1, 6), default=[2, 4])
    bench.add_argument("--variant", choices=("full", "short"), default="full")
    bench.add_argument("--games", type=int, default=20)
    bench.add_argument("--seed", type=int, default=1)
    bench.set_defaults(run=cmd_bench)
    add_arena_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run_command(build_parser().parse_args(argv))
