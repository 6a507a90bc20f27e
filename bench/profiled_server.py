"""`python -m app` with a cProfile in every thread, their sum written to a file at exit.

    .venv/bin/python bench/profiled_server.py /tmp/server.prof   # settings as for python -m app

SIGUSR1 forgets what was profiled so far. Used by bench/move_cost.py --profile; read the file with `python -m pstats`.
"""

from __future__ import annotations

import cProfile
import pstats
import signal
import sys
import threading
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PROFILES: list[cProfile.Profile] = []


def start_profiling(*_: Any) -> None:
    """The first profile event of a new thread: profile the thread from here on."""
    profile = cProfile.Profile()
    PROFILES.append(profile)
    profile.enable()


def forget(*_: Any) -> None:
    """SIGUSR1: forget what was profiled so far (the start, the rooms' opening)."""
    for profile in PROFILES:
        profile.clear()


def stop(*_: Any) -> None:
    raise SystemExit(0)


def main() -> None:
    out = sys.argv[1]
    # uvicorn raises the SIGTERM it caught again once it has shut down: exit through `finally`.
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGUSR1, forget)
    threading.setprofile(start_profiling)
    start_profiling()
    from app.__main__ import main as serve

    try:
        serve()
    finally:
        stats = pstats.Stats(PROFILES[0])
        for profile in PROFILES[1:]:
            try:
                stats.add(profile)
            except TypeError:  # a thread that recorded nothing
                continue
        stats.dump_stats(out)


if __name__ == "__main__":
    main()
