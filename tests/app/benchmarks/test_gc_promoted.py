"""bench/gcprobe and bench/gc_promoted.py keep working: a tiny load with the probe on, read back.
No count is asserted (a few seconds of play may need no young pass at all)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.slow


def test_the_probe_counts_each_app_process_over_the_loads_play(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "GC_PROBE_DIR": str(tmp_path),
        "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'bench' / 'gcprobe'}",
    }
    options = ["--rooms", "2", "--interval", "0.5", "--duration", "4"]
    load = subprocess.run(
        [sys.executable, "bench/load.py", *options],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert load.returncode == 0, load.stderr[-3000:]
    report = tmp_path / "load.txt"
    report.write_text(load.stdout)
    moves = int(re.search(r"^ *moves: (\d+)$", load.stdout, re.MULTILINE)[1])  # type: ignore[index]
    assert moves > 0
    read = subprocess.run(
        [sys.executable, "bench/gc_promoted.py", str(tmp_path), str(report)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert read.returncode == 0, read.stderr[-3000:]
    lines = read.stdout.strip().splitlines()
    assert len(lines) == 1, read.stdout  # the server process, not the load's own
    found = re.fullmatch(
        r"promoted-\d+: (\d+) objects moved to the old generation in \d+ s of play, "
        r"[\d.]+ per move \((\d+) moves\); (\d+) full passes",
        lines[0],
    )
    assert found is not None, lines[0]
    assert int(found[2]) == moves
