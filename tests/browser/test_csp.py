"""The Content-Security-Policy in real Chromium: no page, swap or socket message breaks it.

`Table` records every console message about the policy as an error, so a blocked inline style,
script, `eval` or connection fails these tests (and every other browser test).
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser, expect

from .conftest import Server
from .tablepage import Table, start_room

pytestmark = pytest.mark.browser


def test_pages_and_a_played_game_raise_no_policy_violation(
    server: Server, browser: Browser
) -> None:
    host, guest, spectator = Table(browser, "host"), Table(browser, "guest"), Table(browser, "spy")
    try:
        response = host.page.goto(server.url + "/rules")
        assert response is not None
        assert "script-src 'self'" in response.headers["content-security-policy"]
        expect(host.page.locator("h1")).to_be_visible()
        room = start_room(server.url, host, guest, spectator)
        # The wheel tiles stand where the SVG's attributes put them (no inline style).
        rng = random.Random(7)
        players = {0: host, 1: guest}
        for version in range(10):
            for table in (host, guest, spectator):
                table.wait_version(version)
            mover = players[int(host.page.locator("#board").get_attribute("data-to-move") or 0)]
            mover.play_any(rng)
        spectator.wait_version(10)
        tile = host.page.locator("#board .tile-on-wheel .tile-box").first
        x, y = (float(tile.get_attribute(a) or 0) for a in ("x", "y"))
        assert x > 0 and y > 0, (x, y)
        host.shot("csp-table")
        # The language switcher (a form post and a redirect) and the table again.
        guest.page.locator(".lang-switch button[data-lang='cs']").click()
        guest.wait_live()
        expect(guest.page.locator("html")).to_have_attribute("lang", "cs")
        assert guest.page.url.endswith(f"/rooms/{room}")
        for table in (host, guest, spectator):
            assert table.errors == [], f"{table.name}: {table.errors}"
    finally:
        for table in (host, guest, spectator):
            table.close()


def test_the_api_docs_load_from_this_origin_only(server: Server, browser: Browser) -> None:
    table = Table(browser, "reader")
    requested: list[str] = []
    table.page.on("request", lambda request: requested.append(request.url))
    try:
        table.page.goto(server.url + "/docs")
        expect(table.page.locator(".opblock").first).to_be_visible()
        expect(
            table.page.locator(".opblock-summary-path", has_text="/api/rooms").first
        ).to_be_visible()
        assert requested and all(url.startswith(server.url) for url in requested), requested
        assert table.errors == [], table.errors
    finally:
        table.close()
