"""A complete game against the easy computer, started from the home page, while a spectator
watches; then the rematch, which the computer opens."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import Browser, expect

import engine

from .conftest import Server
from .tablepage import ACTIONABLE, Table, room_id_of, room_state

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GAME_SECONDS = 240
"""A bound for the whole game; on two cores it takes well under a minute."""

HUMANS_TURN = """([seat, version]) => {
  const board = document.getElementById("board");
  return board && +board.dataset.version > version && board.dataset.toMove !== String(1 - seat);
}"""
"""The board has moved past `version` and the computer is no longer to move."""


def play_one(table: Table, rng: random.Random) -> None:
    """One action on the page (pass when nothing else is possible); the board then moves on."""
    page = table.page
    version = table.version
    choices = page.locator(ACTIONABLE)
    count = choices.count()
    if count == 0:
        page.locator(".pass-form button").click()
    else:
        target = choices.nth(rng.randrange(count))
        building = target.get_attribute("data-building") or ""
        target.click()
        expect(page.locator("#panel .panel-card")).to_have_attribute("data-building", building)
        page.locator("#confirm-move").click()
    page.wait_for_function(HUMANS_TURN, arg=[0, version])


def test_a_complete_game_against_the_easy_computer(server: Server, browser: Browser) -> None:
    host, spectator = Table(browser, "host"), Table(browser, "spy")
    try:
        page = host.page
        page.goto(server.url + "/")
        page.locator(".start-form input[name='host_seat'][value='0']").check()
        page.locator(".start-form input[name='computer'][value='easy']").check()
        page.locator(".start-form button[type='submit']").click()
        host.wait_live()
        room = room_id_of(page)
        # No invite: the computer holds the other seat, is named, and is present.
        expect(page.locator("#invite-link")).to_have_count(0)
        expect(page.locator("#mat-title-1")).to_have_text("Computer (easy)")
        expect(page.locator(".presence .presence-dot.online")).to_have_count(2)
        expect(page.locator(".presence")).to_contain_text("Computer (easy) online")
        expect(page.locator("#turn-banner")).to_have_text("Your turn")
        host.shot("computer-start")

        spectator.open(host.link("#spectator-link"))
        expect(page.locator("#spectator-count")).to_have_text("1 spectator watching")
        expect(spectator.page.locator("#mat-title-1")).to_have_text("Computer (easy)")

        rng = random.Random(66)
        started = time.monotonic()
        board = page.locator("#board")
        while board.get_attribute("data-to-move") == "0":
            assert time.monotonic() - started < GAME_SECONDS, f"stuck at version {host.version}"
            play_one(host, rng)
            if host.version in (21, 41):
                spectator.wait_version(host.version)
                spectator.shot(f"computer-{host.version}")
        expect(board).to_have_attribute("data-to-move", "")

        final = room_state(server.url, room, host.token())
        assert engine.is_finished(final)
        # Neither side sold (the easy bot never does, nor did the clicks): one move per action.
        total = host.version
        assert total == final.catalog.total_actions
        spectator.wait_version(total)
        scores = engine.scores(final)
        for table in (host, spectator):
            expect(table.page.locator(".game-over")).to_be_visible()
            for seat in (0, 1):
                expect(table.page.locator(f"[data-final-score='{seat}']")).to_have_text(
                    str(scores[seat])
                )
        if scores[0] > scores[1]:
            expect(page.locator("#game-over-title")).to_have_text("You win!")
        elif scores[1] > scores[0]:
            expect(page.locator("#game-over-title")).to_have_text("Computer (easy) wins.")
            expect(spectator.page.locator("#game-over-title")).to_have_text("Computer (easy) wins!")
        expect(page.locator("#board .tile.can-act, .pass-form")).to_have_count(0)
        host.shot("computer-game-over")

        # The rematch opens at once: the computer agrees, takes the first seat and opens the game.
        page.locator("#rematch-button").click()
        page.locator("#rematch-link").click()
        host.wait_live()
        expect(page.locator("#mat-title-0")).to_have_text("Computer (easy)")
        expect(page.locator("#turn-banner")).to_have_text("Your turn")
        expect(page.locator("#board .log-entry")).to_have_count(1)
        for table in (host, spectator):
            assert table.errors == [], f"{table.name}: JavaScript errors {table.errors}"
    finally:
        host.close()
        spectator.close()
