"""The engine's command line (SPEC §9), plus ``selfplay`` and ``bench``.

    python -m engine replay FILE [--trace]   the state summary after FILE's moves
    python -m engine legal FILE              every legal move after FILE's moves, one per line
    python -m engine selfplay [--seed S] [--games N] [--out DIR]
    python -m engine bench [--games N] [--repeats R]
    python -m engine arena --a LEVEL --b LEVEL [--games N] ...
    python -m engine balance [--catalog ID|FILE] [--games N] [--budget B] [--json] ...
    python -m engine lehavre ...             the full Le Havre (engine/lehavre/cli.py)

FILE is ``{"moves": [move, ...]}`` with an optional ``"catalog"``: a built-in catalog's id
(``"provisional-2"``) or a path (relative to the current directory); or a game record: JSON (``"format": "inland-port-record/1"``) or the text notation
(docs/notation.md). An illegal or malformed move, or an unreadable FILE, ends with exit status 1
and one line on stderr (for a record: naming the line).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .arena import add_arena_command
from .balance import add_balance_command
from .catalog import Catalog, default_catalog
from .catalogs import built_in_registry
from .commands import (
    Unreadable,
    add_file_commands,
    read_text_file,
    replay_moves,
    run_command,
)
from .loader import load_catalog
from .record import RecordError, read_record
from .rules import apply, legal_moves
from .state import GameState, new_game, scores, summary_json


def _read_record_file(text: str) -> tuple[list[Any], Catalog]:
    """A game record's moves and the built-in catalog it names."""
    known = {(e.id, e.hash): e.catalog for e in built_in_registry().all()}
    record = read_record(text, lambda name, digest: known.get((name, digest)))
    return list(record.moves), known[(record.catalog_name, record.catalog_sha256)]


def _read_game_file(path: str) -> tuple[list[Any], Catalog]:
    text = read_text_file(path)
    try:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            if text.lstrip().startswith(("{", "[")):
                raise Unreadable(f"cannot read {path}: {err}") from err
            return _read_record_file(text)  # the text notation
        if isinstance(data, dict) and "format" in data:
            return _read_record_file(text)
    except RecordError as err:
        raise Unreadable(f"{path}: {err}") from err
    if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
        raise Unreadable(f"{path}: expected an object with a list of moves")
    catalog = default_catalog()
    if "catalog" in data:
        if not isinstance(data["catalog"], str):
            raise Unreadable(f"{path}: catalog must be a path")
        built_in = {entry.id: entry.catalog for entry in built_in_registry().all()}
        try:
            catalog = built_in.get(data["catalog"]) or load_catalog(data["catalog"])
        except ValueError as err:
            raise Unreadable(str(err)) from err
    return data["moves"], catalog


def _play(path: str, on_position: Callable[[GameState], None] | None) -> GameState:
    moves, catalog = _read_game_file(path)
    return replay_moves(new_game(catalog), moves, apply, on_position)


def cmd_replay(args: argparse.Namespace) -> int:
    if args.trace:
        _play(args.file, lambda s: print(summary_json(s), flush=True))
    else:
        print(summary_json(_play(args.file, None)))
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    state = _play(args.file, None)
    lines = sorted({m.canonical for m in legal_moves(state)})
    if lines:
        print("\n".join(lines))
    return 0


def random_game(rng: random.Random, catalog: Catalog | None = None) -> list[str]:
    """A complete game of uniformly random legal moves; returns the canonical move list."""
    state = new_game(catalog)
    moves = []
    while not state.finished:
        move = rng.choice(legal_moves(state))
        state = apply(state, move)
        moves.append(move.canonical)
    return moves


def cmd_selfplay(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    for number in range(args.games):
        moves = random_game(rng)
        final = scores(_replayed(moves))
        if out:
            path = out / f"game-{args.seed}-{number}.json"
            path.write_text(json.dumps({"moves": [json.loads(m) for m in moves]}) + "\n")
            print(f"{path}: {len(moves)} moves, scores {final[0]}:{final[1]}")
        else:
            print(f"game {number}: {len(moves)} moves, scores {final[0]}:{final[1]}")
    return 0


def _replayed(moves: Sequence[str]) -> GameState:
    state = new_game()
    for move in moves:
        state = apply(state, move)
    return state


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import run_bench

    print(run_bench(games=args.games, repeats=args.repeats, seed=args.seed))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    add_file_commands(sub, ("state summary", "legal moves"), cmd_replay, cmd_legal)

    selfplay = sub.add_parser("selfplay", help="play complete games of random legal moves")
    selfplay.add_argument("--seed", type=int, default=1)
    selfplay.add_argument("--games", type=int, default=1)
    selfplay.add_argument("--out", help="write each game as a replayable file into this folder")
    selfplay.set_defaults(run=cmd_selfplay)

    bench = sub.add_parser("bench", help="measure games/s, legal_moves and apply on one core")
    bench.add_argument("--games", type=int, default=20, help="random games per repeat")
    bench.add_argument("--repeats", type=int, default=5)
    bench.add_argument("--seed", type=int, default=1)
    bench.set_defaults(run=cmd_bench)
    add_arena_command(sub)
    add_balance_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["lehavre"]:
        from .lehavre.cli import main as lehavre_main

        return lehavre_main(arguments[1:])
    return run_command(build_parser().parse_args(arguments))
