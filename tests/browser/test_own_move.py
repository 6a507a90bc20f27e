"""The mover's own page: a played move is answered with the panel's message only ("Done"), and
the board of the new version comes over the mover's socket, as the opponent's does; with the
socket down when the answer arrives, the board catches up when it is back."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Response, WebSocketRoute, expect

from .conftest import Server
from .tablepage import ACTIONABLE, Table, room_id_of, start_room

pytestmark = pytest.mark.browser

PATCH = "<!--board-patch "


class HeldSocket:
    """The page's socket through a proxy that can hold the boards the server sends back (the
    chat and anything else pass at once), as a slow network would."""

    def __init__(self, table: Table) -> None:
        self.holding = False
        self.held: list[str | bytes] = []
        self._page_side: WebSocketRoute | None = None
        table.page.route_web_socket("**/ws/rooms/**", self._route)

    def _route(self, ws: WebSocketRoute) -> None:
        self._page_side = ws
        server = ws.connect_to_server()
        server.on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        assert self._page_side is not None
        text = message if isinstance(message, str) else ""
        if self.holding and (text.startswith(PATCH) or 'id="board"' in text[:200]):
            self.held.append(message)
        else:
            self._page_side.send(message)

    def release(self) -> None:
        assert self._page_side is not None
        self.holding = False
        held, self.held = self.held, []
        for message in held:
            self._page_side.send(message)


def panel_requests(table: Table) -> list[str]:
    """The panel GETs the page makes from now on (a refresh of the panel would be one)."""
    seen: list[str] = []
    table.page.on("request", lambda r: "/panel?" in r.url and seen.append(r.url))
    return seen


def confirm_and_answer(table: Table) -> Response:
    """Open the first building the page offers, confirm, and return the move's answer."""
    building = table.page.locator(ACTIONABLE).first.get_attribute("data-building")
    assert building
    table.open_building(building)

    def is_move(response: Response) -> bool:
        return response.url.endswith("/moves") and response.request.method == "POST"

    with table.page.expect_response(is_move) as answer:
        table.page.locator("#confirm-move").click()
    return answer.value


def say_in_chat(server: Server, room: str, token: str, text: str) -> None:
    response = httpx.post(
        f"{server.url}/api/rooms/{room}/chat",
        json={"channel": "players", "text": text},
        headers={"Authorization": f"Bearer {token}"},
    )
    response.raise_for_status()


def test_the_mover_sees_its_move_from_its_socket_and_the_panel_says_done(
    browser: Browser, server: Server
) -> None:
    host, guest = Table(browser, "host"), Table(browser, "guest")
    socket = HeldSocket(host)
    try:
        start_room(server.url, host, guest)
        room = room_id_of(host.page)
        page = host.page
        socket.holding = True  # the board of the move stays on its way until released
        answer = confirm_and_answer(host)
        assert answer.status == 200
        body = answer.text()
        assert 'id="board"' not in body and PATCH not in body
        done = page.locator("#panel .panel-message")
        expect(page.locator("#panel-title")).to_have_text("Done")
        expect(done).to_have_attribute("data-version", "1")
        guest.wait_version(1)
        assert host.version == 0  # only the socket brings the mover's board

        # Meanwhile the panel (version 1) is ahead of the board (version 0): a message on the
        # socket (the chat) must not have the panel asked for again, nor "Done" replaced.
        asked = panel_requests(host)
        say_in_chat(server, room, guest.token(), "well played")
        expect(page.locator("#chat")).to_contain_text("well played")
        socket.release()
        host.wait_version(1)
        expect(page.locator("#panel-title")).to_have_text("Done")
        page.wait_for_timeout(300)
        assert asked == []
        expect(page.locator("#panel-title")).to_have_text("Done")

        # A building's panel opened after the move but before its board arrived is not asked
        # for again when the board catches up with it.
        guest_building = guest.page.locator(ACTIONABLE).first.get_attribute("data-building")
        assert guest_building
        guest.open_building(guest_building)
        guest.page.locator("#confirm-move").click()
        host.wait_version(2)
        socket.holding = True
        answer = confirm_and_answer(host)
        assert answer.status == 200
        building = page.locator(ACTIONABLE).first.get_attribute("data-building")
        assert building
        host.open_building(building)
        expect(page.locator("#panel .panel-card")).to_have_attribute("data-version", "3")
        assert host.version == 2
        asked = panel_requests(host)
        say_in_chat(server, room, guest.token(), "your turn")
        expect(page.locator("#chat")).to_contain_text("your turn")
        page.wait_for_timeout(300)
        assert asked == []
        socket.release()
        host.wait_version(3)
        page.wait_for_timeout(300)
        assert asked == []

        # Once the board is newer than the panel (the opponent moved), the panel is asked for
        # again: after the player's own moves as before them.
        guest.play_any(random.Random(4))
        host.wait_version(4)
        expect(page.locator("#panel .panel-card")).to_have_attribute("data-version", "4")
        expect(page.locator("#panel .panel-card")).to_have_attribute("data-building", building)
        for table in (host, guest):
            assert table.errors == [], table.errors
    finally:
        host.close()
        guest.close()


AWAY = """() => {
  const connect = htmx.createWebSocket;
  window.socketAway = true;
  htmx.createWebSocket = (url) =>
    connect(window.socketAway ? url.replace("/ws/rooms/", "/ws/rooms/away-") : url);
  document.getElementById('room')['htmx-internal-data'].webSocket.socket.close(4000);
}"""
"""Close the page's socket and keep every attempt to reopen it failing until `socketAway` is
false (a reconnect to a room that does not exist is refused)."""


def test_a_move_answered_while_the_socket_is_down_shows_once_it_is_back(
    browser: Browser, server: Server
) -> None:
    host, guest = Table(browser, "host"), Table(browser, "guest")
    try:
        start_room(server.url, host, guest)
        page = host.page
        page.evaluate(AWAY)
        expect(page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
        answer: Any = confirm_and_answer(host)
        assert answer.status == 200
        expect(page.locator("#panel-title")).to_have_text("Done")
        guest.wait_version(1)
        page.wait_for_timeout(500)
        assert host.version == 0  # nothing brings the board while the socket is down
        page.evaluate("() => { window.socketAway = false; }")
        host.wait_live()
        host.wait_version(1)  # the reconnect's whole board
        expect(page.locator("#panel-title")).to_have_text("Done")
        guest.play_any(random.Random(2))
        host.wait_version(2)
        assert host.errors == [] and guest.errors == []
    finally:
        host.close()
        guest.close()
