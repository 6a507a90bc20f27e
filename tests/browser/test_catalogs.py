"""The host picks the catalog (the game's numbers) on the home page; the table names it for the
players and a spectator, and the room is played with it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from engine.catalogs import built_in_registry

from .conftest import Server
from .tablepage import Table, room_id_of, room_state

pytestmark = pytest.mark.browser


def test_the_host_picks_a_catalog_and_the_table_shows_it(server: Server, browser: Browser) -> None:
    host, guest, czech = Table(browser, "host"), Table(browser, "guest"), Table(browser, "cs")
    try:
        page = host.page
        page.goto(server.url + "/")
        select = page.locator(".start-form select[name='catalog']")
        expect(select).to_have_value("provisional-3")  # the fair one unless the host changes it
        expect(select.locator("option")).to_have_count(3)
        select.select_option("provisional-1")
        host.shot("catalog-home", full_page=False)
        page.locator(".start-form input[name='host_seat'][value='0']").check()
        page.locator(".start-form button[type='submit']").click()
        host.wait_live()
        room = room_id_of(page)

        note = page.locator("#catalog-note")
        expect(note.locator("summary")).to_have_text(
            "Numbers: provisional-1 (provisional numbers of the first games)"
        )
        note.locator("summary").click()
        expect(note).to_contain_text("provisional numbers: numbers chosen by this site")
        host.shot("catalog-host")

        invite, watch = host.link("#invite-link"), host.link("#spectator-link-top")
        guest.join(invite)
        expect(guest.page.locator("#catalog-note summary")).to_contain_text("provisional-1")
        czech.context.add_cookies([{"name": "lang", "value": "cs", "url": server.url}])
        czech.open(watch)
        expect(czech.page.locator("#catalog-note summary")).to_have_text(
            "Čísla: provisional-1 (prozatímní čísla prvních her)"
        )
        state = room_state(server.url, room, host.token())
        assert state.catalog is built_in_registry().get("provisional-1")
    finally:
        for person in (host, guest, czech):
            assert person.errors == [], f"{person.name}: JavaScript errors {person.errors}"
            person.close()
