"""Le Havre in the real browser: rooms made on the home page, every seat joined by its own invite,
whole games played by clicking the panel of the player to move, every page and a spectator's in
step after each move (the round end's feeding too); the table has no serious accessibility violation, on a phone too."""

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

    def __init__(self, browser: Browser, server: Server, players: int, computers: int = 0) -> None:
        self.host = Table(browser, "host")
        self.host.page.goto(server.url + "/")
        page = self.host.page
        page.check(f"input[name=players][value='{players}']")
        page.check("input[name=variant][value='short']")
        page.select_option("#computer-count", str(computers))
        page.locator("form[action='/rooms/lehavre'] button[type=submit]").click()
        self.host.wait_live()
        self.seats = {0: self.host}
        for seat in range(1, players):
            invite = page.locator(f"#invite-link-{seat}")
            if invite.count() == 0:  # the computer's seat
                continue
            self.seats[seat] = Table(browser, f"seat-{seat}")
            self.seats[seat].join(invite.input_value())
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
        self.settle(-1)
        while (seat := self.to_move()) is not None and (moves is None or played < moves):
            mover = self.seats[seat]
            version = mover.version
            forms = mover.page.locator("#lh-move form")
            forms.nth(rng.randrange(forms.count())).locator("button").click()
            self.settle(version)
            shown = self.shown(self.host)
            for person in self.people[1:]:
                assert self.shown(person) == shown, person.name
            played += 1
        return played

    def settle(self, version: int) -> None:
        """Wait until every page shows one version after `version`, with a person (not the
        computer) to move or the game over."""
        for _ in range(600):
            boards = {self.board_of(person) for person in self.people}
            if len(boards) == 1:
                (shown_version, seat), *_ = boards
                if shown_version > version and seat in (None, *self.seats):
                    return
            self.host.page.wait_for_timeout(50)
        raise AssertionError(f"the pages did not settle after version {version}: {boards}")

    @staticmethod
    def board_of(person: Table) -> tuple[int, int | None]:
        """The version a page shows and whose move it says it is, read from one board."""
        while True:
            version = person.version
            seat = person.page.locator("#board").get_attribute("data-to-move")
            if person.version == version:
                return version, int(seat) if seat else None

    def close(self) -> None:
        for person in self.people:
            assert person.errors == [], f"{person.name}: JavaScript errors {person.errors}"
            person.close()


@pytest.fixture
def lehavre(
    browser: Browser, server: Server, request: pytest.FixtureRequest
) -> Iterator[LeHavreTable]:
    players, computers = request.param if isinstance(request.param, tuple) else (request.param, 0)
    table = LeHavreTable(browser, server, players, computers)
    yield table
    table.close()


@pytest.mark.parametrize("lehavre", [3], indirect=True)
def test_a_whole_three_player_game_is_played_by_clicking(lehavre: LeHavreTable) -> None:
    rng = random.Random(3)
    played = 0
    feeding = lehavre.host.page.locator("#lh-feeding.is-going-on")
    while feeding.count() == 0:  # to the first round end: everyone sees who owes and paid
        played += lehavre.play(rng, 1)
    expect(feeding.locator(".lh-fed-now")).to_have_count(1)
    lehavre.host.shot("lehavre-3-feeding")
    played += lehavre.play(rng)
    assert played > 50
    for person in lehavre.people:
        expect(person.page.locator("#lh-final")).to_be_visible()
        assert person.page.locator("#lh-move form").count() == 0
    lehavre.host.shot("lehavre-3-over")


@pytest.mark.parametrize("lehavre", [1], indirect=True)
def test_the_solo_game_starts_at_once_and_ends(lehavre: LeHavreTable) -> None:
    assert lehavre.play(random.Random(1)) > 20
    expect(lehavre.host.page.locator("#lh-final")).to_be_visible()
    page = lehavre.host.page
    page.goto(page.url.split("/rooms/")[0] + "/")
    game = page.locator(".your-game").first
    expect(game.locator(".your-game-opponent")).to_have_text("Le Havre, 1 player")
    expect(game.locator(".your-game-turn")).to_contain_text("You won")


@pytest.mark.parametrize("lehavre", [4], indirect=True)
def test_the_table_has_no_serious_accessibility_violation(lehavre: LeHavreTable) -> None:
    lehavre.play(random.Random(4), moves=12)
    seat = lehavre.to_move()
    assert seat is not None
    for person in (lehavre.seats[seat], lehavre.seats[(seat + 1) % 4], lehavre.spectator):
        assert serious_violations(person.page) == [], person.name
    lehavre.seats[seat].shot("lehavre-4-desktop")
    lehavre.spectator.shot("lehavre-4-phone")


@pytest.mark.parametrize("lehavre", [(4, 2)], indirect=True)
def test_a_four_player_game_with_two_computer_seats(lehavre: LeHavreTable) -> None:
    assert len(lehavre.seats) == 2
    assert lehavre.host.page.locator(".lh-computer").count() == 2
    assert lehavre.play(random.Random(42)) > 20
    for person in lehavre.people:
        expect(person.page.locator("#lh-final")).to_be_visible()
