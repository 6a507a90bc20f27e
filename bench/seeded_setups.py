"""Run the server, or a script that runs it, with the setups of new rooms dealt from a seeded random.

    .venv/bin/python bench/seeded_setups.py SEED -m app
    .venv/bin/python bench/seeded_setups.py SEED bench/profiled_server.py /tmp/server.prof

A Le Havre room's setup (the order of the supply tiles, the buildings' stacks) is drawn at random
when the room opens (`app.services.rooms.new_game_room`); here the rooms opened in the same order
get the same setups in every run, so that two builds play the very same games move for move
(bench/move_cost.py --game lehavre).
"""

from __future__ import annotations

import random
import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.services import rooms


class SeededSecrets:
    """Stands for the `secrets` module where the rooms' service draws setups and seats."""

    def __init__(self, seed: str) -> None:
        self._random = random.Random(seed)

    def randbits(self, k: int) -> int:
        return self._random.getrandbits(k)

    def randbelow(self, n: int) -> int:
        return self._random.randrange(n)


def main() -> None:
    seed, rest = sys.argv[1], sys.argv[2:]
    rooms.secrets = SeededSecrets(seed)  # type: ignore[assignment]
    if rest[:1] == ["-m"]:
        sys.argv = [rest[1], *rest[2:]]
        runpy.run_module(rest[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = rest
        runpy.run_path(rest[0], run_name="__main__")


if __name__ == "__main__":
    main()
