"""The Le Havre load benchmark keeps working: tiny runs (two or three rooms, a few seconds, SQLite)
on the app and on its bare baseline lose nothing, fail nothing, and count what every socket
received. No timing is asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.slow


def run_load(*options: str) -> list[str]:
    """bench/load_lehavre.py with `options` (SQLite, a few seconds); its output lines."""
    run = subprocess.run(
        [sys.executable, "bench/load_lehavre.py", "--interval", "0.5", "--json", *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout.strip().splitlines()


def check_counted(result: dict[str, Any], rooms: int) -> None:
    """Every move reached every socket of its room, and every message was counted."""
    assert result["rooms"] == rooms and result["sockets"] == 5 * rooms
    assert result["requests_per_move"] == 2 and result["via"] == "api"
    assert result["errors"] == {}
    assert result["lost"] == 0 and result["mismatched"] == 0
    assert result["moves"] > 0
    # After a move each of the room's five sockets gets a patch on top of the board it shows
    # (or, when none fits, asks for the whole board): every message is counted by its kind.
    frames = result["frames"]
    assert result["updates"] == sum(frames.values())
    assert frames["patch"] > 0 and frames["other"] == 0
    assert 0 < result["wire_bytes_mean"] < result["update_bytes_mean"]
    assert result["update_bytes_mean"] <= result["update_bytes_p99"]


def test_a_tiny_le_havre_load_on_the_app_counts_every_update() -> None:
    result = json.loads(run_load("--rooms", "3", "--duration", "4")[-1])
    assert result["server"] == "app" and result["db"] == "sqlite"
    check_counted(result, rooms=3)


def test_the_le_havre_baseline_speaks_the_protocol_the_load_drives() -> None:
    lines = run_load("--against-baseline", "--rooms", "2", "--duration", "3")
    pair = json.loads(lines[0])
    assert pair["first"] == "baseline"
    for kind in ("baseline", "app"):
        assert pair[kind]["server"] == kind
        check_counted(pair[kind], rooms=2)
    assert lines[-1].startswith("ratio cpu_per_move ")
