"""Le Havre in the real browser: rooms made on the home page, every seat joined by its own invite,
whole games played by clicking the panel of the player to move, every page and a spectator's in
step after each move; the table has no serious accessibility violation, on a phone too."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from .conftest import Server
from .tablepage import Table
from .test_accessibility import serious_violations

pytestmark = pytest.mark.browser


class LeHavreTable:
    """A Le Havre room with every seat taken by a browser context, and a spectator on a phone."""

    def __init__(self, browser: Browser, server: Server, players: int) -> None:
        self.host = Table(browser, "host")
        self.host.page.goto(server.url + "/")
        page = self.host.page
        page.check(f"input[name=players][value='{players}']")
        page.check("input[name=variant][value='short']")
        page.locator("form[action='/rooms/lehavre'] button[type=submit]").click()
        self.host.wait_live()
        self.seats = {0: self.host}
        for seat in range(1, players):
            link = page.locator(f"#invite-link-{seat}").input_value()
            self.seats[seat] = Table(browser, f"seat-{seat}")
            self.seats[seat].join(link)
        self.spectator = Table(browser, "spectator", width=390, height=844)
        self.spectator.open(page.locator("#spectator-link").input_value())

    @property
    def people(self) -> list[Table]:
        return [*self.seats.values(), self.spectator]

    def to_move(self) -> int | None:
        seat = self.host.page.locator("#board").get_attribute("data-to-move")
        return int(seat) if seat else None

    @staticmethod
    def shown(person: Table) -> tuple[str | None, str, str]:
        """What every viewer sees alike: whose move, the harbour, the buildings."""
        page = person.page
        return (
            page.locator("#board").get_attribute("data-to-move"),
            page.locator("#lh-harbour").inner_text(),
            page.locator("#lh-buildings").inner_text(),
        )

    def play(self, rng: random.Random, moves: int | None = None) -> int:
        """Click through `moves` moves (None: to the end); every page follows each one."""
        played = 0
        while (seat := self.to_move()) is not None and (moves is None or played < moves):
            mover = self.seats[seat]
            version = mover.version
            forms = mover.page.locator("#lh-move form")
            forms.nth(rng.randrange(forms.count())).locator("button").click()
            for person in self.people:
                person.wait_version(version + 1)
            shown = self.shown(self.host)
            for person in self.people[1:]:
                assert self.shown(person) == shown, person.name
            played += 1
        return played

    def close(self) -> None:
        for person in self.people:
            assert person.errors == [], f"{person.name}: JavaScript errors {person.errors}"
            person.close()


@pytest.fixture
def lehavre(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> Iterator[LeHavreTable]:
    table = LeHavreTable(browser, server, request.param)
    yield table
    table.close()


@pytest.mark.parametrize("lehavre", [3], indirect=True)
def test_a_whole_three_player_game_is_played_by_clicking(lehavre: LeHavreTable) -> None:
    assert lehavre.play(random.Random(3)) > 50
    for person in lehavre.people:
        expect(person.page.locator("#lh-final")).to_be_visible()
        assert person.page.locator("#lh-move form").count() == 0
    lehavre.host.shot("lehavre-3-over")


@pytest.mark.parametrize("lehavre", [1], indirect=True)
def test_the_solo_game_starts_at_once_and_ends(lehavre: LeHavreTable) -> None:
    assert lehavre.play(random.Random(1)) > 20
    expect(lehavre.host.page.locator("#lh-final")).to_be_visible()


@pytest.mark.parametrize("lehavre", [4], indirect=True)
def test_the_table_has_no_serious_accessibility_violation(lehavre: LeHavreTable) -> None:
    lehavre.play(random.Random(4), moves=12)
    seat = lehavre.to_move()
    assert seat is not None
    for person in (lehavre.seats[seat], lehavre.seats[(seat + 1) % 4], lehavre.spectator):
        assert serious_violations(person.page) == [], person.name
    lehavre.seats[seat].shot("lehavre-4-desktop")
    lehavre.spectator.shot("lehavre-4-phone")
