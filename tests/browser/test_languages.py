"""One room, two languages: a host reading Czech and a guest reading English, live."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from .conftest import Server
from .tablepage import ARTIFACTS, Table, room_id_of, start_room

pytestmark = pytest.mark.browser


@pytest.fixture
def players(browser: Browser) -> Iterator[tuple[Table, Table]]:
    host = Table(browser, "host-cs", locale="cs-CZ")
    guest = Table(browser, "guest-en", locale="en-US")
    yield host, guest
    for person in (host, guest):
        assert person.errors == [], f"{person.name}: JavaScript errors {person.errors}"
        person.close()


def test_a_czech_host_and_an_english_guest_share_a_room(
    server: Server, players: tuple[Table, Table]
) -> None:
    host, guest = players

    # The host's browser asks for Czech: the home page and the new room speak it.
    host.page.goto(server.url + "/")
    expect(host.page.locator("html")).to_have_attribute("lang", "cs")
    host.page.get_by_label("Začínám já").check()
    host.page.get_by_role("button", name="Založit místnost").click()
    host.wait_live()
    expect(host.page.locator("#connection")).to_have_text("Připojeno")
    expect(host.page.locator("#invite-title")).to_have_text("Čeká se na soupeře…")
    guest.join(host.link("#invite-link"))
    expect(host.page.locator(".presence")).to_contain_text("Hráč 2 je online")
    expect(guest.page.locator(".presence")).to_contain_text("Player 1 online")

    # Each sees the building names and the plural of the actions left in their own language.
    expect(host.page.locator("#turn-banner")).to_have_text("Jste na tahu")
    expect(host.page.locator(".actions-left")).to_contain_text("V tomto kole zbývají 3 akce")
    expect(guest.page.locator(".actions-left")).to_contain_text("3 actions left in this round")
    clay_mound = "li.card [data-building='clay_mound']"
    expect(host.page.locator(clay_mound)).to_contain_text("Jíloviště")
    expect(host.page.locator(clay_mound)).to_have_attribute(
        "aria-label", "Jíloviště, cena 3 franky"
    )
    expect(guest.page.locator(clay_mound)).to_contain_text("Clay Mound")

    # The host builds; the panel, the confirmation and both logs tell it in each language.
    host.open_building("hardware_store")
    expect(host.page.locator("#confirm-move")).to_have_text("Postavit: Stavebniny")
    host.confirm()
    expect(host.page.locator("#panel .panel-message")).to_contain_text(
        "Hráč 1 postavil budovu Stavebniny a zaplatil 1 dřevo, 2 jíly"
    )
    guest.wait_version(1)
    expect(host.page.locator(".log-entry").first).to_have_text(
        "Hráč 1 postavil budovu Stavebniny a zaplatil 1 dřevo, 2 jíly"
    )
    expect(guest.page.locator(".log-entry").first).to_have_text(
        "Player 1 built Hardware Store, paying 1 wood, 2 clay"
    )
    expect(guest.page.locator("#turn-banner")).to_have_text("Your turn")
    expect(host.page.locator("#turn-banner")).to_have_text("Čeká se na Hráče 2")

    # The guest's move reaches the host over the socket, drawn in Czech.
    guest.open_building("grocery_store")
    guest.confirm()
    host.wait_version(2)
    expect(host.page.locator(".log-entry").first).to_have_text(
        "Hráč 2 postavil budovu Potraviny a zaplatil 1 rybu, 1 obilí"
    )
    expect(host.page.locator(".actions-left")).to_contain_text("V tomto kole zbývá 1 akce")
    host.page.locator("#board").scroll_into_view_if_needed()
    host.shot("languages-table-cs")

    # The guest switches to Czech from the page; the room reloads in Czech and stays live.
    room = room_id_of(guest.page)
    guest.page.locator(".lang-switch button[data-lang='cs']").click()
    guest.page.wait_for_url(f"**/rooms/{room}")
    guest.wait_live()
    expect(guest.page.locator("html")).to_have_attribute("lang", "cs")
    expect(guest.page.locator(".log-entry").first).to_have_text(
        "Hráč 2 postavil budovu Potraviny a zaplatil 1 rybu, 1 obilí"
    )
    host.open_building("wood_company")
    host.confirm()
    guest.wait_version(3)
    expect(guest.page.locator(".round-current")).to_have_text("B")
    expect(guest.page.locator(".log-entry").first).to_contain_text("Konec kola A")

    # The rules page, from the table, in the reader's language with the table's pictures.
    with guest.page.expect_popup() as popup:
        guest.page.locator(".rules-link").click()
    rules = popup.value
    expect(rules.locator("h1")).to_have_text("Pravidla v kostce")
    expect(rules.locator(".rules .wheel-disc")).to_have_count(1)
    expect(rules.locator(".rules svg.warehouse")).to_have_count(1)
    rules.screenshot(path=str(ARTIFACTS / "languages-rules-cs.png"), full_page=True)
    rules.close()


def test_a_czech_player_whose_move_is_refused_reads_the_reason_in_czech(
    server: Server, players: tuple[Table, Table]
) -> None:
    host, guest = players
    start_room(server.url, host, guest)
    host.open_building("hardware_store")
    # The panel's form holds the canonical move the server offered; this player sends it
    # without its payment, which the rules refuse: Hardware Store costs 1 wood and 2 clay.
    unpaid = '{"building":"hardware_store","payment":{},"type":"build"}'
    host.page.locator("#panel .confirm-form input[name='move']").evaluate(
        "(input, move) => { input.value = move; }", unpaid
    )
    host.page.locator("#confirm-move").click()
    expect(host.page.locator("#panel-title")).to_have_text("Tah neproběhl")
    expect(host.page.locator("#move-error")).to_have_text(
        "Touto platbou nelze zaplatit budovu Stavebniny (1 dřevo a\xa02 jíly): "
        "zaplatí 0 jílů, ne 2 jíly."
    )
    assert host.version == 0
    host.shot("languages-refused-cs")
