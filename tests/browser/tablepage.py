"""Driving the table page the way a person does: click a building, pick, confirm."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

import engine
from engine.catalogs import built_in_registry

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
"""Screenshots land here (ignored by git): look at them."""
WAIT_MS = 15_000
ACTIONABLE = "#board .tile.can-act, #board li.can-act > button.card-button"


class Table:
    """One browser context (one person) at one room's table."""

    def __init__(
        self,
        browser: Browser,
        name: str,
        *,
        width: int = 1440,
        height: int = 1000,
        locale: str = "en-US",
    ):
        """``locale`` is the browser's language (its Accept-Language header)."""
        self.name = name
        self.context = browser.new_context(
            viewport={"width": width, "height": height}, locale=locale
        )
        self.context.set_default_timeout(WAIT_MS)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        # Selling asks "Sell X for half its value?": the players here always mean it.
        self.dialogs: list[str] = []
        self.page.on(
            "dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.accept())
        )
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        # Chromium reports what the Content-Security-Policy blocked on the console.
        self.page.on(
            "console",
            lambda message: (
                "Content Security Policy" in message.text and self.errors.append(message.text)
            ),
        )

    def close(self) -> None:
        self.context.close()

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.wait_live()

    def join(self, invite_url: str) -> None:
        """Open an invite link and take the seat with its button."""
        self.page.goto(invite_url)
        self.page.locator("#join-button").click()
        self.wait_live()

    def wait_live(self) -> None:
        expect(self.page.locator("#connection")).to_have_attribute("data-state", "live")

    @property
    def version(self) -> int:
        return int(self.page.locator("#board").get_attribute("data-version") or "-1")

    def wait_version(self, version: int) -> None:
        expect(self.page.locator("#board")).to_have_attribute("data-version", str(version))

    def shot(self, name: str, *, full_page: bool = True) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)

    # --- acting -------------------------------------------------------------------------

    def open_building(self, building: str) -> None:
        """Click a building (on a wheel or in the supply) and wait for its panel."""
        self.page.locator(f"#board [data-building='{building}']").first.click()
        expect(self.page.locator("#panel .panel-card")).to_have_attribute("data-building", building)

    def pick(self, selector: str) -> None:
        """Change one control of the panel and wait for the panel to come back."""
        self.page.locator("#panel .panel-card").evaluate("card => { card.dataset.stamp = '1'; }")
        self.page.locator(f"#panel {selector}").first.click()
        expect(self.page.locator("#panel .panel-card[data-stamp]")).to_have_count(0)

    def confirm(self) -> None:
        """Press the panel's confirm button and wait until the move is on the board."""
        version = self.version
        self.page.locator("#confirm-move").click()
        self.wait_moved(version + 1)

    def sell(self, building: str) -> None:
        version = self.version
        self.page.locator(f"#board button[data-sell='{building}']").click()
        self.wait_version(version + 1)

    def play_any(self, rng: random.Random) -> None:
        """Make one action with whatever the page offers (pass when nothing else is possible)."""
        version = self.version
        choices = self.page.locator(ACTIONABLE)
        count = choices.count()
        if count == 0:
            self.page.locator(".pass-form button").click()
            self.wait_moved(version + 1)
            return
        target = choices.nth(rng.randrange(count))
        building = target.get_attribute("data-building")
        target.click()
        expect(self.page.locator("#panel .panel-card")).to_have_attribute(
            "data-building", building or ""
        )
        self.page.locator("#confirm-move").click()
        self.wait_moved(version + 1)

    def wait_moved(self, version: int) -> None:
        """Wait until this player's move made `version` and its answer settled in the panel,
        which takes the focus (a keyboard user's next Tab starts there)."""
        self.wait_version(version)
        expect(self.page.locator("#panel .panel-message")).to_be_visible()
        expect(self.page.locator("#panel-title")).to_be_focused()

    # --- what the page holds ----------------------------------------------------------------

    def link(self, selector: str) -> str:
        return self.page.locator(selector).input_value()

    def token(self) -> str:
        """This player's seat token, read from the seat link the page offers."""
        return self.link("#seat-link").rsplit("/", 1)[1]

    def log_top(self) -> str:
        return self.page.locator("#board .log-entry").first.inner_text()


def follow(page: Page, selector: str) -> None:
    """Click the link `selector` and wait until the page it opens has loaded: its module scripts
    have run, so the keys pressed next reach them."""
    with page.expect_navigation(wait_until="load"):
        page.locator(selector).click()


def room_state(base_url: str, room_id: str, token: str) -> Any:
    """The engine position of a room, replayed from the move log the JSON API serves with the
    room's catalog."""
    response = httpx.get(
        f"{base_url}/api/rooms/{room_id}/moves", headers={"Authorization": f"Bearer {token}"}
    )
    response.raise_for_status()
    log = response.json()
    catalog = built_in_registry().get(log["catalog"])
    return engine.replay([m["move"] for m in log["moves"]], catalog)


def room_id_of(page: Page) -> str:
    return page.url.rstrip("/").rsplit("/", 1)[1]


def start_room(base_url: str, host: Table, guest: Table, spectator: Table | None = None) -> str:
    """The host creates a room from the home page (moving first); the others use its links.

    The steps find the controls by their form names, so the host's page may be in any language.
    """
    host.page.goto(base_url + "/")
    host.page.locator(".start-form input[name='host_seat'][value='0']").check()
    host.page.locator(".start-form button[type='submit']").click()
    host.wait_live()
    expect(host.page.locator("#invite-title")).to_be_visible()
    invite = host.link("#invite-link")
    watch = host.link("#spectator-link-top")
    guest.join(invite)
    # The host's page turns from "waiting" into the table by itself.
    expect(host.page.locator("#invite-title")).to_have_count(0)
    expect(host.page.locator(".presence .presence-dot.online")).to_have_count(2)
    if spectator is not None:
        spectator.open(watch)
        expect(guest.page.locator("#spectator-count")).to_have_text("1 spectator watching")
    return room_id_of(host.page)


def first_action(host: Table, *others: Table) -> None:
    """The host, to move first, uses the Hardware Store; every page shows version 1."""
    host.open_building("hardware_store")
    host.confirm()
    everyone_sees(1, host, *others)


def everyone_sees(version: int, *tables: Table) -> None:
    for table in tables:
        table.wait_version(version)
    tops = {table.log_top() for table in tables}
    assert len(tops) == 1, tops
