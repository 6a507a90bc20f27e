"""The chat and the way back to a game, as three people see them in their own browsers."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import Server
from .tablepage import Table, start_room

pytestmark = pytest.mark.browser


#: Stands in for the browser's notifications, sound and hidden tab, recording what the page asks.
SIGNALS = """
window.__signals = [];
Object.defineProperty(document, "hidden", {configurable: true, get: () => window.__hidden === true});
class FakeNotification {
  constructor(title) { window.__signals.push("notification:" + title); }
  static requestPermission() {
    FakeNotification.permission = "granted";
    return Promise.resolve("granted");
  }
}
FakeNotification.permission = "default";
window.Notification = FakeNotification;
class FakeAudio {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    window.__signals.push("sound");
    return {frequency: {}, connect() {}, start() {}, stop() {}};
  }
  createGain() {
    return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect() {}};
  }
}
window.AudioContext = FakeAudio;
"""


def say(page: Page, channel: str, text: str) -> None:
    field = page.locator(f"#chat-{channel}-text")
    field.fill(text)
    field.press("Enter")
    expect(field).to_have_value("")


def test_players_and_spectators_chat_live_and_after_a_reload(
    server: Server, people: tuple[Table, Table, Table]
) -> None:
    host, guest, spectator = people
    start_room(server.url, host, guest, spectator)
    players = "#chat-players-log"

    # Both directions, live; the spectator reads the players' chat by default but cannot write.
    say(host.page, "players", "Good luck!")
    expect(guest.page.locator(players)).to_contain_text("Good luck!")
    # The spectator, looking at the board, is pointed to the chat below.
    expect(spectator.page.locator("#chat-new")).to_be_visible()
    spectator.page.locator("#chat-new").click()
    expect(spectator.page.locator("#chat-new")).to_be_hidden()
    say(guest.page, "players", "<script>document.title='owned'</script><b>bold</b>")
    for person in (host, guest, spectator):
        line = person.page.locator(f"{players} .chat-line").last
        expect(line.locator(".chat-text")).to_have_text(
            "<script>document.title='owned'</script><b>bold</b>"
        )
        expect(line.locator("b, script")).to_have_count(0)
    expect(spectator.page.locator("#chat-players-text")).to_have_count(0)
    expect(host.page.locator("#chat-announce")).to_have_text(  # for screen readers
        "Player 2: <script>document.title='owned'</script><b>bold</b>"
    )
    expect(guest.page.locator(f"{players} .chat-line.mine")).to_have_count(1)

    # The spectators' chat: spectators write, players read, and a player may hide it.
    say(spectator.page, "spectators", "Nice opening")
    expect(host.page.locator("#chat-spectators-log")).to_contain_text("Nice opening")
    expect(host.page.locator("#chat-spectators-text")).to_have_count(0)
    guest.page.locator("[data-chat-hide]").click()
    expect(guest.page.locator("#chat-spectators-log")).to_be_hidden()
    host.shot("chat")

    # After a reload everything is still there (and the guest's choice to hide is remembered).
    for person in (host, guest, spectator):
        person.page.reload()
        person.wait_live()
    expect(spectator.page.locator(players)).to_contain_text("Good luck!")
    expect(host.page.locator("#chat-spectators-log")).to_contain_text("Nice opening")
    expect(guest.page.locator("#chat-spectators-log")).to_be_hidden()
    assert "owned" not in host.page.title()

    # The host keeps the players' chat private: the spectator's page stops showing it at once.
    host.page.locator(".chat-setting input[name='spectators_read']").uncheck()
    expect(spectator.page.locator(players)).not_to_contain_text("Good luck!")
    expect(spectator.page.locator("#chat-players-access")).to_contain_text("Only the two players")

    # A sixth message within ten seconds is refused, and the page says why.
    for n in range(4):
        say(spectator.page, "spectators", f"message {n + 2}")
    field = spectator.page.locator("#chat-spectators-text")
    field.fill("one too many")
    field.press("Enter")
    expect(spectator.page.locator("#chat-spectators-error")).to_contain_text("Too many messages")
    expect(field).to_have_value("one too many")  # kept, to send again in a moment


def test_your_turn_in_the_tab_and_your_games_on_the_home_page(
    server: Server, people: tuple[Table, Table, Table]
) -> None:
    host, guest, _ = people
    guest.context.add_init_script(SIGNALS)
    room = start_room(server.url, host, guest)

    # The tab says whose turn it is, and its icon carries a dot on yours.
    expect(host.page).to_have_title(re.compile(r"^Your turn · "))
    expect(guest.page).not_to_have_title(re.compile("Your turn"))
    assert "icon-turn" in (host.page.locator("link[rel='icon']").get_attribute("href") or "")
    expect(host.page.locator("#turn-sound")).not_to_be_checked()  # the sound is off by default
    host.page.locator("#turn-sound").check()
    host.page.reload()
    expect(host.page.locator("#turn-sound")).to_be_checked()  # remembered in this browser

    # The guest asks for a notification and a sound, then looks at another tab.
    notify = guest.page.locator("#turn-notify")
    notify.click()
    expect(notify).to_have_attribute("aria-pressed", "true")
    guest.page.locator("#turn-sound").check()
    guest.page.evaluate("() => { window.__signals.length = 0; window.__hidden = true; }")
    host.open_building("hardware_store")
    host.confirm()
    expect(guest.page).to_have_title(re.compile(r"^Your turn · "))
    expect(host.page).not_to_have_title(re.compile("Your turn"))
    signals = guest.page.evaluate("() => window.__signals")
    assert "notification:Your turn" in signals and "sound" in signals

    # The home page lists the game, with the way back; never a token.
    guest.page.goto(server.url + "/")
    game = guest.page.locator(f".your-game[data-room='{room}']")
    expect(game).to_contain_text("against a friend")
    expect(game).to_contain_text("Round A")
    expect(game).to_contain_text("Your turn")
    expect(game).to_contain_text("just now")
    guest.shot("your-games", full_page=False)
    assert "/s/" not in guest.page.content() and "/i/" not in guest.page.content()
    game.get_by_role("link").click()
    expect(guest.page).to_have_url(f"{server.url}/rooms/{room}")
    guest.wait_live()
    expect(guest.page.locator("#board")).to_have_attribute("data-acting", "true")
