"""The load benchmark keeps working: tiny runs (a few rooms, a few seconds, SQLite unless marked)
on the app and on the bare baseline server lose nothing, fail nothing. No timing is asserted."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

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
    assert result["client_processes"] == 1 and result["client_cpu_s"][0] > 0


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


def test_runs_against_the_baseline_alternate_and_end_with_the_median_ratios() -> None:
    lines = run_load(
        "--against-baseline", "--repeat", "3", "--via", "page", "--rooms", "2", "--duration", "3"
    )
    pairs = [json.loads(line) for line in lines[:-2]]
    assert [pair["first"] for pair in pairs] == ["baseline", "app", "baseline"]
    for pair in pairs:
        for kind in ("baseline", "app"):
            result = pair[kind]
            assert result["server"] == kind and result["via"] == "page"
            assert result["errors"] == {} and result["moves"] > 0
            assert result["lost"] == 0 and result["mismatched"] == 0
    found = re.fullmatch(r"ratio cpu_per_move (\S+) p50 (\S+) p99 (\S+)", lines[-1])
    assert found, lines[-1]
    p50s = sorted(pair["app"]["p50_ms"] / pair["baseline"]["p50_ms"] for pair in pairs)
    assert float(found.group(2)) == pytest.approx(p50s[1], abs=0.01)
    # The line before gives every run's ratio, in the order run, and their spread.
    spread = re.fullmatch(
        r"ratios cpu_per_move( \S+){3} \((\S+)-(\S+)\) p50( \S+){3} \((\S+)-(\S+)\) "
        r"p99( \S+){3} \((\S+)-(\S+)\)",
        lines[-2],
    )
    assert spread, lines[-2]
    assert float(spread.group(5)) == pytest.approx(p50s[0], abs=0.01)
    assert float(spread.group(6)) == pytest.approx(p50s[2], abs=0.01)


def test_rooms_spread_over_client_processes_are_counted_together() -> None:
    result = json.loads(run_load("--rooms", "3", "--rooms-per-client", "1", "--duration", "4")[-1])
    assert result["client_processes"] == 3
    assert len(result["client_cpu_s"]) == 3 and all(cpu > 0 for cpu in result["client_cpu_s"])
    assert result["rooms"] == 3 and result["sockets"] == 9 and result["errors"] == {}
    assert result["lost"] == 0 and result["mismatched"] == 0 and result["moves"] > 0


@pytest.mark.postgres_only
def test_on_postgres_each_server_is_charged_its_own_backends_cpu(postgres_url: str) -> None:
    """bench/load.py makes its own databases on the cluster `postgres_url` lives on."""
    lines = run_load(
        "--against-baseline",
        "--db",
        "postgres",
        "--processes",
        "2",
        "--rooms",
        "2",
        "--duration",
        "3",
    )
    pair = json.loads(lines[0])
    for result in (pair["baseline"], pair["app"]):
        assert result["db"] == "postgres" and result["lost"] == 0 and result["moves"] > 0
        assert result["db_cpu_s"] >= 0
        total = result["server_cpu_ms_per_move"] + result["db_cpu_ms_per_move"]
        assert result["cpu_ms_per_move"] == pytest.approx(total, abs=0.02)


def test_the_baseline_payloads_are_drawn_by_the_app_with_their_sizes(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "bench/baseline_payloads.py", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    patch = (tmp_path / "baseline_patch.html").read_text()
    answer = (tmp_path / "baseline_answer.html").read_text()
    assert patch.startswith("<!--board-patch {")
    assert 'class="panel-card panel-message"' in answer and "data-version=" in answer
    assert f"baseline_patch.html: {len(patch.encode())} bytes" in run.stdout
    assert f"baseline_answer.html: {len(answer.encode())} bytes" in run.stdout
    # Le Havre's bare server (bench/baseline_lehavre.py): a patch and a whole board.
    lehavre_patch = (tmp_path / "baseline_lehavre_patch.html").read_text()
    lehavre_board = (tmp_path / "baseline_lehavre_board.html").read_text()
    assert lehavre_patch.startswith("<!--board-patch {") and "lh-board" in lehavre_patch
    assert 'id="board"' in lehavre_board and 'data-frame="' in lehavre_board
    for name, text in (("patch", lehavre_patch), ("board", lehavre_board)):
        assert f"baseline_lehavre_{name}.html: {len(text.encode())} bytes" in run.stdout


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


def test_the_load_client_and_the_baseline_play_the_numbers_of_the_apps_new_rooms() -> None:
    """A room's catalog decides what is legal after a round changes: the client follows each room
    with the catalog its creation answer names, and the baseline plays the app's default."""
    check = """
import sys
sys.path.insert(0, "bench")
import baseline_store, load_client
from app.reads import catalogs
assert baseline_store.CATALOG == catalogs.registry().default()
assert load_client.CATALOGS.get(baseline_store.CATALOG_ID) == baseline_store.CATALOG
"""
    run = subprocess.run(
        [sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr[-3000:]
