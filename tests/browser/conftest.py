"""Fixtures for the browser tests: a real server process and Debian's Chromium via Playwright.

Each server runs `python -m app` (migrations, then uvicorn) on a free port with its own embedded
SQLite database. Chromium is /usr/bin/chromium; when it (or Playwright) is missing the tests fail
under CI=true and are skipped otherwise. Screenshots go to tests/artifacts/ (ignored by git).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .tablepage import ARTIFACTS

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
IN_CI = os.environ.get("CI") == "true"

pytestmark = pytest.mark.browser


def _unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"the browser tests need Chromium and Playwright in CI: {reason}")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A `python -m app` process on 127.0.0.1 with its own data directory; can be restarted."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data_dir / "server.log"

    def start(self) -> None:
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("DATABASE_URL", "PUBLIC_URL")
        }
        env.update(
            DATA_DIR=str(self.data_dir),
            HOST="127.0.0.1",
            PORT=str(self.port),
            WS_PING_INTERVAL="5",
            WS_PING_TIMEOUT="5",
            ROOMS_PER_MINUTE="0",  # the tests open rooms faster than one address may
        )
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=log, stderr=log
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start within 30 s")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("browser-server"))
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        _unavailable(f"{CHROMIUM} is not installed")
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError as exc:
        _unavailable(f"playwright is not installed: {exc}")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    expect.set_options(timeout=15_000)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
