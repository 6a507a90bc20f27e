"""The per-move cost benchmark keeps working on both servers: a tiny run (one room, three seeded
moves, SQLite, no valgrind) plays every move and has no error. No count or timing is asserted."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("server", ["app", "baseline"])
def test_a_tiny_run_plays_every_seeded_move(server: str) -> None:
    run = subprocess.run(
        [sys.executable, "bench/move_cost.py", "--rooms", "1", "--moves", "3", "--server", server],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    found = re.search(r"^moves (\d+) errors (\d+) cpu", run.stdout, re.MULTILINE)
    assert found is not None, run.stdout[-2000:]
    assert (int(found.group(1)), int(found.group(2))) == (3, 0)
