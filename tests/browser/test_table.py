"""Two players and a spectator at one table, each in their own browser context."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Browser, expect

import engine

from .conftest import Server, browser_server
from .tablepage import ACTIONABLE, Table, everyone_sees, room_state, start_room

pytestmark = pytest.mark.browser


def test_two_players_and_a_spectator_play_live(
    server: Server, people: tuple[Table, Table, Table]
) -> None:
    host, guest, spectator = people
    room = start_room(server.url, host, guest, spectator)
    everyone = (host, guest, spectator)
    host.shot("table-start")

    # The spectator sees the same table, with no controls at all.
    expect(spectator.page.locator("#board button, #board form")).to_have_count(0)
    expect(spectator.page.locator("#panel")).to_contain_text("spectator")
    expect(spectator.page.locator("#turn-banner")).to_have_text("Player 1 to move")
    expect(host.page.locator("#turn-banner")).to_have_text("Your turn")
    expect(guest.page.locator("#turn-banner")).to_have_text("Waiting for Player 1")

    # Round A. A build: the Hardware Store, whose cost has only one payment.
    host.open_building("hardware_store")
    expect(host.page.locator("#panel .preview")).to_contain_text("Player 1 built Hardware Store")
    host.confirm()
    everyone_sees(1, *everyone)
    expect(spectator.page.locator(".mat.seat-0 [data-building='hardware_store']")).to_have_count(1)

    # A payment with a choice: the Grocery Store's 2 food, paid with 2 fish instead of 1 + 1.
    guest.open_building("grocery_store")
    expect(guest.page.locator("#panel .preview")).to_contain_text("1 fish, 1 grain")
    guest.pick("#ctl-payment-1")
    expect(guest.page.locator("#panel .preview")).to_contain_text("paying 2 fish")
    expect(guest.page.locator("#panel .changes")).to_contain_text("fish 4 → 2")
    guest.shot("panel-payment-choice", full_page=False)
    guest.confirm()
    everyone_sees(2, *everyone)
    assert room_state(server.url, room, host.token()).players[1].goods["fish"] == (0, 2)

    host.open_building("wood_company")
    host.confirm()
    everyone_sees(3, *everyone)
    expect(spectator.page.locator(".round-current")).to_have_text("B")

    # Round B, out of turn: the host may look but not act, and the server refuses a post.
    host.open_building("hardware_store")
    expect(host.page.locator("#panel")).to_contain_text("It is Player 2's turn")
    expect(host.page.locator("#confirm-move")).to_have_count(0)
    refused = host.page.request.post(
        f"{server.url}/rooms/{room}/moves",
        form={
            "move": '{"building":"farmland","payment":{},"type":"build"}',
            "version": "3",
            "client_move_id": "out-of-turn",
        },
    )
    assert refused.status == 403  # the status the JSON API answers not_your_turn with
    assert "not your turn" in refused.text()
    everyone_sees(3, *everyone)

    # The opponent's building: the guest uses the host's Hardware Store (1 franc fee), with clay.
    guest.open_building("hardware_store")
    expect(guest.page.locator("#panel")).to_contain_text("You pay 1 franc to Player 1")
    guest.pick("#ctl-good-wood")
    expect(guest.page.locator("#panel .preview")).to_contain_text(
        "Player 2 used Player 1's Hardware Store (2): paid 1 franc to Player 1"
    )
    guest.confirm()
    everyone_sees(4, *everyone)
    expect(host.page.locator(".mat.seat-0 .coin strong")).to_have_text("4")
    expect(spectator.page.locator(".log-entry").first).to_contain_text("chose wood, +2 wood")

    # An illegal attempt shows the engine's reason and changes nothing.
    host.page.evaluate(
        """([room]) => htmx.ajax('POST', `/rooms/${room}/moves`, {target: '#panel',
             swap: 'innerHTML', values: {move: '{"type":"build","building":"pier","payment":{}}',
             version: '4', client_move_id: 'illegal-1'}})""",
        [room],
    )
    expect(host.page.locator("#move-error")).to_contain_text("Pier")
    everyone_sees(4, *everyone)

    # A sell (the turn goes on), then the use of an own building.
    host.sell("hardware_store")
    everyone_sees(5, *everyone)
    assert host.dialogs == ["Sell Hardware Store for half its value?"]
    expect(host.page.locator("#turn-banner")).to_have_text("Your turn")
    expect(spectator.page.locator(".log-entry").first).to_contain_text(
        "Player 1 sold Hardware Store for 6 francs"
    )
    host.open_building("wood_company")
    expect(host.page.locator("#panel .preview")).to_contain_text("Player 1 used Wood Company (2)")
    host.confirm()
    everyone_sees(6, *everyone)

    guest.open_building("grocery_store")
    guest.confirm()
    everyone_sees(7, *everyone)
    expect(spectator.page.locator(".round-current")).to_have_text("C")
    spectator.shot("spectator-round-c")

    # Beyond round B: a few more actions with whatever each page offers.
    rng = random.Random(5)
    for _ in range(4):
        mover = (
            host if host.page.locator("#board").get_attribute("data-acting") == "true" else guest
        )
        version = mover.version
        mover.play_any(rng)
        everyone_sees(version + 1, *everyone)
    expect(spectator.page.locator(".round-current")).to_have_text("D")
    host.shot("table-round-d")

    state = room_state(server.url, room, host.token())
    scores = [int(s) for s in spectator.page.locator(".score-value").all_inner_texts()]
    assert scores == list(engine.scores(state))


def test_reload_and_dropped_socket_keep_the_game_going(
    server: Server, people: tuple[Table, Table, Table]
) -> None:
    host, guest, _ = people
    start_room(server.url, host, guest)
    rng = random.Random(11)
    host.play_any(rng)
    guest.wait_version(1)

    # A reload shows the current board at once, and the game goes on from it.
    host.page.reload()
    host.wait_live()
    assert host.version == 1
    guest.play_any(rng)
    host.wait_version(2)

    # A socket closed with a code the ws extension does not retry: the page comes back anyway.
    guest.page.evaluate(
        "document.getElementById('room')['htmx-internal-data'].webSocket.socket.close(4000)"
    )
    expect(guest.page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
    expect(guest.page.locator("#connection")).to_contain_text("Reconnecting")
    host.play_any(rng)
    guest.wait_live()
    guest.wait_version(3)
    guest.play_any(rng)
    host.wait_version(4)


def test_server_restart_reconnects_without_a_click(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    own = browser_server(tmp_path_factory.mktemp("restart-server"))
    own.start()
    host, guest = Table(browser, "host"), Table(browser, "guest")
    try:
        start_room(own.url, host, guest)
        rng = random.Random(3)
        host.play_any(rng)
        guest.wait_version(1)
        own.stop()
        expect(host.page.locator("#connection")).to_have_attribute("data-state", "reconnecting")
        host.shot("reconnecting", full_page=False)
        # A click while the server is away gets no answer, and the page says so.
        trouble = guest.page.locator("#request-trouble")
        guest.page.locator(ACTIONABLE).first.click()
        expect(trouble).to_have_text("The server cannot be reached. Try again in a moment.")
        guest.shot("unreachable", full_page=False)
        own.start()
        host.wait_live()
        guest.wait_live()
        guest.play_any(rng)
        expect(trouble).to_be_hidden()
        host.wait_version(2)
        assert host.errors == [] and guest.errors == []
    finally:
        host.close()
        guest.close()
        own.stop()


def test_phone_width_and_keyboard(server: Server, browser: Browser) -> None:
    host, guest = Table(browser, "host"), Table(browser, "phone", width=390, height=844)
    try:
        start_room(server.url, host, guest)
        host.play_any(random.Random(1))
        guest.wait_version(1)
        page = guest.page
        # Nothing sticks out sideways on a phone.
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        guest.shot("phone-table")
        # Keyboard only: focus a building in the supply, open it with Enter, land in the panel.
        card = page.locator("#board li.card-supply.can-act > button").first
        card.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#panel-title")).to_be_focused()
        expect(page.locator("#confirm-move")).to_be_visible()
        guest.shot("phone-panel", full_page=False)
        labels = page.locator("#board .tile, #board .card-button").evaluate_all(
            "els => els.filter(e => !e.getAttribute('aria-label')).length"
        )
        assert labels == 0
        warehouse = page.get_by_role("img", name=re.compile(r"Warehouse of Player 2: fish \d+"))
        expect(warehouse).to_have_count(1)
    finally:
        host.close()
        guest.close()
