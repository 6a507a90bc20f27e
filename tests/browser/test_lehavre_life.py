"""The room's life around a Le Havre game of three, in the real browser: a takeback every other
player accepts, one declined, a seat's new link (its old page closes), the chat between the
three seats, and a resignation (the computer plays on for the seat)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser, expect

from .tablepage import Table
from .test_chat import say
from .test_lehavre import LeHavreTable, lehavre

pytestmark = pytest.mark.browser

__all__ = ["lehavre"]


def act_once(table: LeHavreTable) -> tuple[int, int, str]:
    """The player to move takes one action; (their seat, the version before, the harbour before)."""
    table.settle(-1)
    seat = table.to_move()
    assert seat is not None
    mover = table.seats[seat]
    version = mover.version
    harbour = mover.page.locator("#lh-harbour").inner_text()
    mover.page.locator("#lh-move form").first.locator("button").click()
    table.settle(version)
    return seat, version, harbour


@pytest.mark.parametrize("lehavre", [3], indirect=True)
def test_a_takeback_both_others_accept(lehavre: LeHavreTable) -> None:
    seat, version, harbour = act_once(lehavre)
    asker = lehavre.seats[seat]
    others = [table for s, table in lehavre.seats.items() if s != seat]
    asker.page.locator("#takeback-button").click()
    for person in [*others, lehavre.spectator]:
        expect(person.page.locator("#takeback-request")).to_contain_text(
            f"Player {seat + 1} asks to take back their last action."
        )
    expect(asker.page.locator("#takeback-accept")).to_have_count(0)
    expect(lehavre.spectator.page.locator("#takeback-accept")).to_have_count(0)
    others[0].page.locator("#takeback-accept").click()
    expect(others[0].page.locator("#takeback-accept")).to_have_count(0)
    waiting = [s for s in lehavre.seats if s != seat][1]
    for person in lehavre.people:
        expect(person.page.locator("#takeback-waiting")).to_have_text(
            f"It waits for: Player {waiting + 1}."
        )
    others[1].page.locator("#takeback-accept").click()
    for person in lehavre.people:
        person.wait_version(version + 2)
        expect(person.page.locator("#room-life-news")).to_have_text(
            f"Player {seat + 1}'s last action was taken back."
        )
        assert person.page.locator("#lh-harbour").inner_text() == harbour, person.name
        expect(person.page.locator("#takeback-request")).to_have_count(0)
    assert lehavre.to_move() == seat
    lehavre.play(random.Random(5), moves=3)  # the game goes on


@pytest.mark.parametrize("lehavre", [3], indirect=True)
def test_a_takeback_one_declines(lehavre: LeHavreTable) -> None:
    seat, version, harbour = act_once(lehavre)
    asker = lehavre.seats[seat]
    others = [s for s in lehavre.seats if s != seat]
    asker.page.locator("#takeback-button").click()
    lehavre.seats[others[1]].page.locator("#takeback-decline").click()
    for person in lehavre.people:
        expect(person.page.locator("#room-life-news")).to_have_text(
            f"Player {others[1] + 1} declined the takeback."
        )
        expect(person.page.locator("#takeback-request")).to_have_count(0)
        assert person.version == version + 1
    assert asker.page.locator("#lh-harbour").inner_text() != harbour
    lehavre.play(random.Random(6), moves=2)


@pytest.mark.parametrize("lehavre", [3], indirect=True)
def test_a_seat_gets_a_new_link(lehavre: LeHavreTable, browser: Browser) -> None:
    holder = lehavre.seats[1]
    old = holder.link("#seat-link")
    elsewhere = Table(browser, "seat-1-elsewhere")
    newcomer = Table(browser, "seat-1-new")
    try:
        elsewhere.open(old)
        holder.page.locator("#reissue-button").click()
        holder.page.locator("#reissue-confirm").click()
        # the page open with the old link closes and says the link no longer opens the room
        expect(elsewhere.page.locator("h1")).to_have_text("This room needs a link")
        # the player's own browser keeps the seat, now with the new link
        holder.wait_live()
        expect(holder.page.locator("#seat-link")).not_to_have_value(old)
        new = holder.link("#seat-link")
        newcomer.open(new)
        expect(newcomer.page.locator("#reissue-button")).to_have_count(1)
        expect(newcomer.page.locator("#seat-link")).to_have_value(new)
        lehavre.play(random.Random(7), moves=2)  # every page follows, the new one too
        newcomer.wait_version(holder.version)
        assert elsewhere.errors == [] and newcomer.errors == []
    finally:
        elsewhere.close()
        newcomer.close()


@pytest.mark.parametrize("lehavre", [3], indirect=True)
def test_three_seats_chat(lehavre: LeHavreTable) -> None:
    for seat, person in lehavre.seats.items():
        say(person.page, "players", f"Hello from seat {seat + 1}")
    for person in lehavre.people:
        log = person.page.locator("#chat-players-log")
        for seat in lehavre.seats:
            expect(log).to_contain_text(f"Hello from seat {seat + 1}")


@pytest.mark.parametrize("lehavre", [3], indirect=True)
def test_one_of_three_resigns_and_the_computer_plays_on(lehavre: LeHavreTable) -> None:
    lehavre.play(random.Random(8), moves=2)
    quitter = lehavre.seats.pop(2)
    try:
        quitter.page.locator("#resign-button").click()
        expect(quitter.page.locator("#resign")).to_contain_text(
            "The computer plays your seat to the end."
        )
        quitter.page.locator("#resign-confirm").click()
        for person in [*lehavre.people, quitter]:
            expect(person.page.locator("#lh-seats")).to_contain_text(
                "resigned; the computer plays on"
            )
        expect(quitter.page.locator("#resign-button")).to_have_count(0)
        assert lehavre.play(random.Random(9), moves=8) == 8  # the game goes on
        assert lehavre.to_move() is not None
        expect(quitter.page.locator("#board")).to_have_attribute(
            "data-version", str(lehavre.host.version)
        )
    finally:
        assert quitter.errors == []
        quitter.close()
