"""bench/browser_latency.py keeps working: a few actions played by clicking, each seen by the
opponent's and the spectator's page (no timing threshold: the machine is shared)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_latency_run_times_every_action_on_every_page(browser: object) -> None:
    # The `browser` fixture only says whether Chromium and Playwright are here: the script
    # launches a Chromium of its own.
    run = subprocess.run(
        [sys.executable, "bench/browser_latency.py", "--moves", "4", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["moves"] == 4
    for page in ("opponent", "spectator", "mover"):
        figures = result[page]
        assert 0 < figures["p50_ms"] <= figures["p90_ms"] <= figures["max_ms"]
        stages = result[f"{page}_stages"]
        assert stages["click_to_arrival_p50_ms"] > 0
        assert stages["handling_p50_ms"] >= 0 and stages["to_frame_p50_ms"] >= 0
    assert result["click_to_post_p50_ms"] >= 0
