"""The load benchmark keeps working: a tiny run (3 rooms, ~5 s, SQLite) loses nothing, fails nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_a_tiny_load_run_delivers_every_move() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "bench/load.py",
            "--rooms",
            "3",
            "--interval",
            "0.5",
            "--duration",
            "5",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["db"] == "sqlite"
    assert result["rooms"] == 3 and result["sockets"] == 9
    assert result["errors"] == {}
    assert result["lost"] == 0 and result["mismatched"] == 0
    # Three rooms moving every half second for five seconds: dozens of moves, each counted only
    # once all three sockets of its room held the new board.
    assert result["moves"] >= 10
    assert 0 < result["p50_ms"] <= result["p99_ms"]
    assert result["client_cpu_s"] > 0
