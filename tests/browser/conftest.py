"""Fixtures for the browser tests: a real server process and Debian's Chromium via Playwright.

Each server runs `python -m app` (migrations, then uvicorn) on a free port with its own embedded
SQLite database. Chromium is /usr/bin/chromium; when it (or Playwright) is missing the tests fail
under CI=true and are skipped otherwise. Screenshots go to tests/artifacts/ (ignored by git).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from bench.appserver import AppServer
from bench.chromium import CHROMIUM, CHROMIUM_ARGS

from .tablepage import ARTIFACTS, Table

IN_CI = os.environ.get("CI") == "true"

pytestmark = pytest.mark.browser


def _unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"the browser tests need Chromium and Playwright in CI: {reason}")
    pytest.skip(reason)


#: The browser tests call the server process `Server`.
Server = AppServer


def browser_server(data_dir: Path) -> Server:
    """A server on its own embedded SQLite database that pings the sockets every 5 s.

    The tests open rooms faster than one address may (ROOMS_PER_MINUTE=0 lifts that limit)."""
    return AppServer(
        data_dir,
        env={"WS_PING_INTERVAL": "5", "WS_PING_TIMEOUT": "5", "ROOMS_PER_MINUTE": "0"},
    )


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = browser_server(tmp_path_factory.mktemp("browser-server"))
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


@pytest.fixture
def people(browser: Browser) -> Iterator[tuple[Table, Table, Table]]:
    """Three people at one table (host, guest, spectator); none may meet a JavaScript error."""
    host, guest, spectator = Table(browser, "host"), Table(browser, "guest"), Table(browser, "spy")
    yield host, guest, spectator
    for person in (host, guest, spectator):
        assert person.errors == [], f"{person.name}: JavaScript errors {person.errors}"
        person.close()
