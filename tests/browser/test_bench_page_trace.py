"""bench/page_trace.py keeps working: a few actions traced, each page's work summed per event
(no timing threshold: the machine is shared)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_trace_sums_the_watching_pages_work(browser: object) -> None:
    # The `browser` fixture only says whether Chromium and Playwright are here: the script
    # launches a Chromium of its own.
    run = subprocess.run(
        [sys.executable, "bench/page_trace.py", "--moves", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout)
    for page in ("host", "guest", "spectator"):
        assert result["cpu_ms_per_action"][f"{page} main"] > 0
    for role in ("opponent", "spectator"):
        figures = result[role]
        assert figures["actions"] == 3
        assert figures["median_ms"]["style"] >= 0 and figures["median_ms"]["paint"] >= 0
        assert figures["restyled_elements_p50"] > 0
        assert 0 < figures["dirty_layout_objects_p50"] <= figures["layout_objects"]
