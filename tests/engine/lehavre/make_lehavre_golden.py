"""Writes the golden Le Havre games: ``python tests/engine/lehavre/make_lehavre_golden.py``.

Each file is a game (setup and moves) with the number of listed moves at every position and the
final summary; test_lehavre_golden.py replays it and compares. Regenerate only when a rule changes
on purpose, and say which in the commit.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from engine.lehavre import (
    apply,
    canonical,
    is_finished,
    legal_moves,
    new_game,
    random_setup,
    summary,
)

GAMES = [(2, "full", 11), (4, "short", 12), (1, "full", 13), (5, "short", 14)]
HERE = Path(__file__).parent / "golden"


def main() -> None:
    for players, variant, seed in GAMES:
        setup = random_setup(players, variant, seed)
        rng = random.Random(seed)
        state = new_game(setup)
        moves, counts = [], []
        while not is_finished(state):
            options = legal_moves(state)
            counts.append(len(options))
            move = rng.choice(options)
            moves.append(canonical(move))
            state = apply(state, move)
        game = {
            "setup": setup.to_json(),
            "moves": moves,
            "legal_counts": counts,
            "final": summary(state),
        }
        path = HERE / f"lehavre-{players}-{variant}-{seed}.json"
        path.write_text(json.dumps(game, sort_keys=True, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
