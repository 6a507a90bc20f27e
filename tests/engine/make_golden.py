"""Record golden games for tests/engine/test_engine_golden.py.

Usage, from the project root:

    .venv/bin/python tests/engine/make_golden.py            # re-record the default seeds
    .venv/bin/python tests/engine/make_golden.py 7 11       # record the given seeds

Each seed plays one complete game with `random.Random(seed)`: at every position a listed sell is
taken one time in eight when there is one, otherwise a listed action chosen uniformly. The file
`golden/game-<seed>.json` holds the move list and, for the start and after every move, the
number of legal moves, a SHA-1 of their canonical strings (one per line, in the engine's order)
and the SPEC §8 summary.

Golden files pin the engine's behaviour as it was when they were recorded. Re-record them only
on purpose (a rules change that SPEC.md records), and review the diff: every changed count or
summary is a change in the rules as played.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from engine import GameState, apply, legal_moves, new_game, summary

GOLDEN = Path(__file__).resolve().parent / "golden"
DEFAULT_SEEDS = (1, 2, 3)


def position_record(state: GameState) -> dict[str, Any]:
    texts = [move.canonical for move in legal_moves(state)]
    return {
        "legal": len(texts),
        "legal_sha1": hashlib.sha1("\n".join(texts).encode()).hexdigest(),
        "summary": summary(state),
    }


def play(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    state = new_game()
    moves: list[str] = []
    positions = [position_record(state)]
    while True:
        listed = legal_moves(state)
        if not listed:
            break
        sells = [m for m in listed if m.type == "sell"]
        actions = [m for m in listed if m.type != "sell"]
        move = rng.choice(sells) if sells and rng.randrange(8) == 0 else rng.choice(actions)
        state = apply(state, move)
        moves.append(move.canonical)
        positions.append(position_record(state))
    return {"seed": seed, "moves": moves, "positions": positions}


def write(game: dict[str, Any], path: Path) -> None:
    """One move and one position per line, so that a re-recording diffs line by line."""
    lines = ["{", f'"seed": {game["seed"]},', '"moves": [']
    lines.append(",\n".join(json.dumps(m) for m in game["moves"]))
    lines.append("],")
    lines.append('"positions": [')
    lines.append(",\n".join(json.dumps(p, sort_keys=True) for p in game["positions"]))
    lines.append("]")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")


def main(argv: list[str]) -> int:
    seeds = [int(arg) for arg in argv] or list(DEFAULT_SEEDS)
    GOLDEN.mkdir(exist_ok=True)
    for seed in seeds:
        game = play(seed)
        path = GOLDEN / f"game-{seed}.json"
        write(game, path)
        final = game["positions"][-1]["summary"]
        print(f"{path}: {len(game['moves'])} moves, scores {final['scores']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
