"""Accessibility in the real browser: axe-core (bundled by axe-playwright-python, no CDN) finds no
serious or critical violation on the home page, the table as a player and as a spectator, a
finished game, the rules and the review; and a whole turn is played with the keyboard alone."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

import engine
from engine.catalogs import built_in_registry

from .conftest import Server
from .tablepage import ACTIONABLE, Table

pytestmark = pytest.mark.browser

SERIOUS = ("serious", "critical")


def serious_violations(page: Page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']]}"
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]


class Room:
    """A room played through the JSON API: both seats' tokens and links."""

    def __init__(self, server: Server) -> None:
        self.api = httpx.Client(base_url=server.url + "/api")
        created = self.api.post("/rooms", json={"host_seat": 0}).json()
        invite = created["invite_link"].rsplit("/", 1)[1]
        guest = self.api.post(f"/invites/{invite}").json()
        self.id = created["room"]
        self.tokens = {0: created["token"], 1: guest["token"]}
        self.links = {0: created["seat_link"], 1: guest["seat_link"]}
        self.spectator = created["spectator_link"]
        self.state = engine.new_game(built_in_registry().get(created["catalog"]))
        self.version = 0

    def play(self, moves: int | None, rng: random.Random) -> None:
        """Play `moves` random actions (None: to the end), sells left out."""
        while self.state.to_move is not None and (moves is None or moves > 0):
            legal = engine.legal_moves(self.state)
            move = rng.choice([m for m in legal if m.type != "sell"] or legal)
            answer = self.api.post(
                f"/rooms/{self.id}/moves",
                json={
                    "move": move.to_json(),
                    "version": self.version,
                    "client_move_id": uuid.uuid4().hex,
                },
                headers={"Authorization": f"Bearer {self.tokens[self.state.to_move]}"},
            )
            assert answer.status_code == 200, answer.text
            self.state = engine.apply(self.state, move)
            self.version += 1
            if moves is not None:
                moves -= 1

    def close(self) -> None:
        self.api.close()


@pytest.fixture
def new_room(server: Server) -> Iterator[Callable[[], Room]]:
    """Rooms made through the API, whose clients are closed however the test ends (an unclosed
    one would warn, and fail whichever later test the collector frees it in)."""
    made: list[Room] = []

    def make() -> Room:
        made.append(Room(server))
        return made[-1]

    yield make
    for room in made:
        room.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_no_serious_violation(
    browser: Browser, server: Server, new_room: Callable[[], Room], width: int
) -> None:
    rng = random.Random(width)
    playing, finished = new_room(), new_room()
    playing.play(30, rng)
    finished.play(None, rng)
    player = Table(browser, "player", width=width, height=900)
    spectator = Table(browser, "spectator", width=width, height=900)
    console: list[str] = []
    for table in (player, spectator):
        table.page.on("console", lambda m: m.type == "error" and console.append(m.text))
    found: dict[str, list[str]] = {}
    seat = playing.state.to_move or 0

    def check(table: Table, name: str, url: str | None = None, live: bool = False) -> None:
        if url:
            table.page.goto(url)
        if live:
            table.wait_live()
        found[name] = serious_violations(table.page)

    check(player, "home", server.url + "/")
    check(player, "rules", server.url + "/rules")
    check(player, "table as player", playing.links[seat], live=True)
    player.open_building(player.page.locator(ACTIONABLE).first.get_attribute("data-building") or "")
    found["table with a panel open"] = serious_violations(player.page)
    check(spectator, "table as spectator", playing.spectator, live=True)
    check(player, "game over", finished.links[0], live=True)
    check(player, "review", f"{server.url}/rooms/{finished.id}/review")
    assert {name: v for name, v in found.items() if v} == {}
    for table in (player, spectator):
        assert table.errors == []
        table.close()
    assert console == []


# htmx binds swapped-in forms only when it settles them (20 ms later by default, more on a busy
# page): a slow settle must not let the keyboard reach the panel's form before it is bound.
@pytest.mark.parametrize("settle_delay_ms", [None, 1000])
def test_a_whole_turn_by_keyboard_alone(
    browser: Browser, new_room: Callable[[], Room], settle_delay_ms: int | None
) -> None:
    room = new_room()
    room.play(12, random.Random(7))
    seat = room.state.to_move
    assert seat is not None
    table = Table(browser, "keyboard", width=1280, height=900)
    table.open(room.links[seat])
    page = table.page
    if settle_delay_ms is not None:
        page.evaluate("(ms) => { htmx.config.defaultSettleDelay = ms; }", settle_delay_ms)
    version = table.version

    def tab_to(selector: str, limit: int = 400) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate(
                "(sel) => !!document.activeElement && document.activeElement.matches(sel)",
                selector,
            ):
                return
        raise AssertionError(f"Tab never reached {selector}")

    # A usable tile on a wheel (an SVG group) or a card of the supply, then its panel.
    tab_to("#board g.tile.can-act, #board li.can-act > button.card-button")
    page.keyboard.press("Enter")
    expect(page.locator("#panel .panel-card[data-building]")).to_be_visible()
    expect(page.locator("#panel-title")).to_be_focused()
    tab_to("#confirm-move", limit=80)
    page.keyboard.press("Enter")
    table.wait_version(version + 1)
    expect(page.locator("#panel .panel-message")).to_be_visible()
    assert table.errors == []
    table.close()
