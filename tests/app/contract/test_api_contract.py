"""The JSON API is what its OpenAPI says: Schemathesis, every check on, against a real server on
each database (the command docs/server.md gives for a run by hand).

The room it is given is started against the computer, so the seat token reaches every operation;
`tests/app/contract/schemathesis.toml` hands the room and the token to every request. The seed
and the number of examples are fixed: the same cases every run, well under a minute per database.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bench.appserver import ROOT, AppServer

pytestmark = pytest.mark.slow

CONFIG = Path(__file__).with_name("schemathesis.toml")
SEED = 1
MAX_EXAMPLES = 30


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[AppServer]:
    started = AppServer(tmp_path, database_url=database_url, env={"ROOMS_PER_MINUTE": "0"})
    started.start()
    yield started
    started.stop()


def test_schemathesis_finds_nothing(server: AppServer) -> None:
    room = httpx.post(
        f"{server.url}/api/rooms", json={"host_seat": 0, "computer": "easy"}, timeout=30
    )
    assert room.status_code == 201, room.text
    env = {**os.environ, "ST_ROOM": room.json()["room"], "ST_TOKEN": room.json()["token"]}
    run = subprocess.run(
        [
            str(Path(sys.executable).with_name("schemathesis")),
            "--config-file",
            str(CONFIG),
            "run",
            f"{server.url}/openapi.json",
            "--checks",
            "all",
            "--seed",
            str(SEED),
            "--max-examples",
            str(MAX_EXAMPLES),
            "--no-color",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    # Every phase ran, the stateful one included, and every generated case passed.
    for phase in ("Coverage", "Fuzzing", "Stateful"):
        assert re.search(rf"✅ {phase}", run.stdout), run.stdout[-3000:]
    counts = re.search(r"(\d+) generated, (\d+) passed", run.stdout)
    assert counts is not None and counts[1] == counts[2] and int(counts[1]) > 100, run.stdout[
        -3000:
    ]
