"""The answer to a move stays in the panel: a panel asked for before the move was answered (a
control's change, a refresh after a socket's board) arrives late and is not swapped in."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Route, expect

from .conftest import Server
from .tablepage import ACTIONABLE, Table, start_room

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("refresh", [False, True], ids=["change", "socket-refresh"])
def test_the_done_message_survives_a_late_panel(
    browser: Browser, server: Server, refresh: bool
) -> None:
    host, guest = Table(browser, "host"), Table(browser, "guest")
    start_room(server.url, host, guest)
    page = host.page
    building = page.locator(ACTIONABLE).first.get_attribute("data-building")
    assert building
    host.open_building(building)

    held: list[Route] = []

    def hold(route: Route) -> None:
        if route.request.method == "GET" and not held:
            held.append(route)  # answered later, after the move's own answer
        else:
            route.continue_()

    page.route("**/panel?*", hold)
    headers: dict[str, Any] = {"X-Panel-Refresh": "1"} if refresh else {}
    page.evaluate(
        """([building, headers]) => { htmx.ajax('GET',
             `/rooms/${document.getElementById('board').dataset.room}/panel?building=${building}`,
             {target: '#panel', swap: 'innerHTML', headers: headers}); }""",
        [building, headers],
    )
    page.wait_for_timeout(200)
    assert len(held) == 1
    host.confirm()
    done = page.locator("#panel .panel-message")
    expect(done).to_be_visible()
    text = done.inner_text()
    with page.expect_response(lambda r: "/panel?" in r.url):
        held[0].continue_()
    page.wait_for_timeout(500)
    expect(done).to_be_visible()
    assert done.inner_text() == text
    for table in (host, guest):
        assert table.errors == []
        table.close()
