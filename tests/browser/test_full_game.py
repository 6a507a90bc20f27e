"""A complete game of 72 actions played by clicking in two browsers while a third watches."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import Browser, expect

import engine

from .conftest import Server
from .tablepage import Table, room_state, start_room

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GAME_SECONDS = 240
"""A bound for the whole game; on two cores it takes well under a minute."""


def test_complete_game_ends_with_the_engine_scores(server: Server, browser: Browser) -> None:
    # The host reads Czech, the guest and the spectator English: one game, two languages.
    host = Table(browser, "host", locale="cs-CZ")
    guest, spectator = Table(browser, "guest"), Table(browser, "spy")
    try:
        room = start_room(server.url, host, guest, spectator)
        players = {0: host, 1: guest}
        rng = random.Random(2024)
        started = time.monotonic()
        version = 0
        total = engine.new_game().catalog.total_actions
        while version < total:
            assert time.monotonic() - started < GAME_SECONDS, f"stuck at version {version}"
            host.wait_version(version)
            guest.wait_version(version)
            mover = players[int(host.page.locator("#board").get_attribute("data-to-move") or 0)]
            mover.play_any(rng)
            version += 1
            if version in (12, 40):
                spectator.wait_version(version)
                spectator.shot(f"full-game-{version}")
        for table in (host, guest, spectator):
            table.wait_version(total)

        final = room_state(server.url, room, host.token())
        assert engine.is_finished(final)
        scores = engine.scores(final)
        for table in (host, guest, spectator):
            page = table.page
            expect(page.locator(".game-over")).to_be_visible()
            for seat in (0, 1):
                expect(page.locator(f"[data-final-score='{seat}']")).to_have_text(str(scores[seat]))
        if scores[0] == scores[1]:
            expect(spectator.page.locator("#game-over-title")).to_have_text("It's a draw!")
        else:
            winner = 0 if scores[0] > scores[1] else 1
            expect(spectator.page.locator("#game-over-title")).to_have_text(
                f"Player {winner + 1} wins!"
            )
            won = "Vyhráli jste!" if winner == 0 else "You win!"
            expect(players[winner].page.locator("#game-over-title")).to_have_text(won)
        breakdown = engine.score_breakdown(final, 0)
        rows = host.page.locator(".final-card[data-seat='0'] .breakdown tr")
        expect(rows).to_have_count(len(breakdown["buildings"]) + 2)
        expect(host.page.locator("#board .tile.can-act, .pass-form")).to_have_count(0)
        spectator.shot("game-over")
        host.shot("game-over-cs")

        # The rematch: both ask, then each player gets a link into the new room (boards swapped).
        host.page.locator("#rematch-button").click()
        expect(guest.page.locator("#rematch")).to_contain_text("Player 1 wants a rematch")
        guest.page.locator("#rematch-button").click()
        expect(host.page.locator("#rematch-link")).to_be_visible()
        guest.page.locator("#rematch-link").click()
        guest.wait_live()
        expect(guest.page.locator("#turn-banner")).to_have_text("Your turn")
        for table in (host, guest, spectator):
            assert table.errors == [], f"{table.name}: JavaScript errors {table.errors}"
    finally:
        for table in (host, guest, spectator):
            table.close()
