"""The load benchmark keeps working: tiny runs (a few rooms, a few seconds, SQLite) on the app and
on the bare baseline server lose nothing, fail nothing."""

from __future__ import annotations

import json
import re
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


def run_load(*options: str) -> list[str]:
    """bench/load.py with `options` (SQLite, a few seconds); its output lines."""
    run = subprocess.run(
        [sys.executable, "bench/load.py", "--interval", "0.5", "--json", *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout.strip().splitlines()


@pytest.mark.parametrize("via", ["api", "page"])
def test_the_baseline_server_speaks_the_protocol_the_load_drives(via: str) -> None:
    lines = run_load("--server", "baseline", "--via", via, "--rooms", "3", "--duration", "5")
    result = json.loads(lines[-1])
    assert result["server"] == "baseline" and result["via"] == via
    assert result["rooms"] == 3 and result["sockets"] == 9
    assert result["errors"] == {}
    # Every move acknowledged is in the baseline's log, and reached all three sockets.
    assert result["lost"] == 0 and result["mismatched"] == 0
    assert result["moves"] >= 10


def test_a_run_against_the_baseline_ends_with_the_ratio_of_app_to_baseline() -> None:
    lines = run_load("--against-baseline", "--via", "page", "--rooms", "2", "--duration", "3")
    results = json.loads(lines[-2])
    assert [results[kind]["server"] for kind in ("baseline", "app")] == ["baseline", "app"]
    for result in results.values():
        assert result["via"] == "page" and result["errors"] == {}
        assert result["lost"] == 0 and result["mismatched"] == 0 and result["moves"] > 0
    found = re.fullmatch(r"ratio cpu_per_move (\S+) p50 (\S+) p99 (\S+)", lines[-1])
    assert found, lines[-1]
    app, baseline = results["app"], results["baseline"]
    expected = app["p50_ms"] / baseline["p50_ms"]
    assert float(found.group(2)) == pytest.approx(expected, abs=0.01)


def test_the_load_clients_own_collector_is_off_while_it_plays_and_back_after() -> None:
    """Its pauses would count as the server's latency (docs/performance.md). Checked in a process
    of its own: freezing and unfreezing the collector's objects would change when this one's
    later collections come."""
    check = """
import gc, sys
sys.path.insert(0, "bench")
import load_client as load
assert gc.isenabled()
with load.collector_paused():
    assert not gc.isenabled()
    assert gc.get_freeze_count() > 0  # what the setup left is out of every later pass
assert gc.isenabled()
assert gc.get_freeze_count() == 0
"""
    run = subprocess.run(
        [sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr[-3000:]
