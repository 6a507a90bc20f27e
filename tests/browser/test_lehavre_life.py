"""The room's life around a Le Havre game of three, in the real browser: a takeback every other
player accepts, one declined, a seat's new link (its old page closes), the chat between the
three seats, and a resignation (the computer plays on for the seat)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

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
