"""The table on a phone (390 × 844) in mid-game: a player's own view fits in about two screens
and never scrolls sideways; the folded parts (the opponent's board, the legend, selling, the room
links) open with a tap and show what they hold."""

from __future__ import annotations

import random

from playwright.sync_api import Browser, expect

from .conftest import Server
from .tablepage import Table
from .test_accessibility import Room

WIDTH, HEIGHT = 390, 844

# Two screens of the table, plus the site header (about 90 px, scrolled past once) and the
# space kept free under the page for the fixed action bar (56 px): the table itself has to
# fit in two screenfuls. The chat and the turn signals come after the table, not in it.
LIMIT = 2 * HEIGHT + 90 + 56

MEASURE = """() => ({
  bottom: document.getElementById("board").getBoundingClientRect().bottom + window.scrollY,
  sideways: document.documentElement.scrollWidth - window.innerWidth,
  open: [...document.querySelectorAll("#board details[data-fold][open]")].map((d) => d.id),
})"""


def view_height(table: Table) -> dict[str, object]:
    """The player's view with the supply folded (it opens on the viewer's turn: one tap)."""
    overview = table.page.locator("#overview")
    if overview.get_attribute("open") is not None:
        overview.locator("summary").click()
        expect(overview).not_to_have_attribute("open", "")
    return table.page.evaluate(MEASURE)  # type: ignore[no-any-return]


def test_a_players_view_fits_two_phone_screens(browser: Browser, server: Server) -> None:
    room = Room(server)
    room.play(60, random.Random(390))
    acting = room.state.to_move
    assert acting is not None
    tables = {
        seat: Table(browser, f"phone-seat-{seat}", width=WIDTH, height=HEIGHT) for seat in (0, 1)
    }
    for seat, table in tables.items():
        table.open(room.links[seat])
        measured = view_height(table)
        where = "to move" if seat == acting else "waiting"
        table.shot(f"phone-{where.replace(' ', '-')}-full")
        assert measured["sideways"] <= 0, f"{where}: the page scrolls sideways"
        assert measured["open"] == [], f"{where}: parts left open on a phone: {measured['open']}"
        assert measured["bottom"] <= LIMIT, f"{where}: the table is {measured['bottom']} px tall"
        table.shot(f"phone-{where.replace(' ', '-')}", full_page=False)

    # Folded is not gone: each part opens with a tap, and stays open over the next board.
    page = tables[acting].page
    other = 1 - acting
    fold = page.locator(f"#mat-fold-{other}")
    fold.locator("summary").click()
    expect(fold.locator(".wheel-disc")).to_be_visible()
    page.locator("#legend > summary").click()
    expect(page.locator("#legend .sector-legend")).to_be_visible()
    sell = page.locator("#sell-row")
    if sell.count():
        sell.locator("summary").click()
        expect(sell.locator("button[data-sell]").first).to_be_visible()
    page.locator("#links > summary").click()
    expect(page.locator("#links .link-field").first).to_be_visible()
    assert page.evaluate(MEASURE)["sideways"] <= 0
    version = room.version
    room.play(1, random.Random(1))
    tables[acting].wait_version(version + 1)
    expect(page.locator(f"#mat-fold-{other}")).to_have_attribute("open", "")
    expect(page.locator("#legend")).to_have_attribute("open", "")
    tables[acting].shot("phone-opened")
    for table in tables.values():
        assert table.errors == []
        table.close()
    room.close()
