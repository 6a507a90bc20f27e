"""Partial boards in real browsers: after a move each page gets only the parts that changed, and
every page's board stays the very board the server draws for it; a page that missed an update
asks for the whole board and is back in step."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import WebSocket, expect

from app.live.frames import PATCH_PREFIX, WHOLE_BOARD_PLEASE

from .conftest import Server
from .tablepage import Table, everyone_sees, room_id_of, start_room

pytestmark = pytest.mark.browser

#: The board as the page shows it and as the server draws it whole for the same viewer (the
#: room page, fetched without opening a socket), serialised by the browser alike: the forms'
#: one-off move ids, the folds the viewer opened or closed, the marks the page puts on what the
#: viewer may act on (from the board's data-playable) and the reasons it adds to the supply
#: cards' labels, htmx's emptied class lists aside.
SAME_BOARD = """async (html) => {
  function plain(board) {
    const copy = board.cloneNode(true);
    copy.removeAttribute("hx-swap-oob");
    copy.querySelectorAll("input[name=client_move_id]").forEach((i) => i.setAttribute("value", ""));
    copy.querySelectorAll("details").forEach((d) => d.removeAttribute("open"));
    copy.querySelectorAll(".can-act").forEach((e) => e.classList.remove("can-act"));
    copy.querySelectorAll("[data-label]").forEach((e) => {
      e.setAttribute("aria-label", e.dataset.label);
      e.removeAttribute("data-label");
    });
    [copy, ...copy.querySelectorAll("[class='']")].forEach((e) => {
      if (e.getAttribute("class") === "") e.removeAttribute("class");
    });
    return copy.outerHTML;
  }
  const drawn = new DOMParser().parseFromString(html, "text/html").getElementById("board");
  return [plain(document.getElementById("board")), plain(drawn)];
}"""

#: Drops the next partial board before the page sees it, as if it had been lost.
LOSE_NEXT_PATCH = """() => {
  window.addEventListener("htmx:wsBeforeMessage", function lose(evt) {
    if (!evt.detail.message.startsWith("<!--board-patch ")) return;
    window.removeEventListener("htmx:wsBeforeMessage", lose, true);
    evt.preventDefault();
    evt.stopImmediatePropagation();
  }, true);
}"""


class Frames:
    """The messages one page's room socket received and sent."""

    def __init__(self, table: Table) -> None:
        self.received: list[str] = []
        self.sent: list[str] = []
        table.page.on("websocket", self._follow)

    def _follow(self, socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: self.received.append(str(payload)))
        socket.on("framesent", lambda payload: self.sent.append(str(payload)))

    @property
    def patches(self) -> int:
        return sum(message.startswith(PATCH_PREFIX) for message in self.received)


#: The buildings the board lists as playable, and those the page marked.
MARKS = """() => {
  const board = document.getElementById("board");
  const marked = [...board.querySelectorAll(".can-act")].map(
    (e) => (e.dataset.building ? e : e.querySelector("[data-building]")).dataset.building);
  return [(board.dataset.playable || "").split(" ").filter(Boolean), marked];
}"""


#: Each supply card's reason: shown, and in its label, exactly while the viewer may move and may
#: not build it.
REASONS = """() => {
  const board = document.getElementById("board");
  const acting = board.dataset.acting === "true";
  return [...board.querySelectorAll(".card-supply .card-reason")].map((reason) => {
    const button = reason.closest(".card-button");
    const wanted = acting && !button.parentElement.classList.contains("can-act");
    const shown = reason.getClientRects().length > 0;
    const said = button.getAttribute("aria-label").endsWith(", " + reason.textContent);
    return [button.dataset.building, wanted, shown, said];
  });
}"""


def assert_same_board(server: Server, room: str, table: Table) -> int:
    """The board shown is the one drawn; the number of reasons shown on it."""
    html = table.page.request.get(f"{server.url}/rooms/{room}").text()
    shown, drawn = table.page.evaluate(SAME_BOARD, html)
    assert shown == drawn, f"{table.name}: the board shown is not the one drawn"
    playable, marked = table.page.evaluate(MARKS)
    assert set(marked) <= set(playable) and bool(marked) == bool(playable), table.name
    reasons = table.page.evaluate(REASONS)
    for building, wanted, shown, said in reasons:
        assert wanted == shown == said, (table.name, building, wanted, shown, said)
    return sum(shown for _building, _wanted, shown, _said in reasons)


def test_partial_boards_keep_two_players_and_a_spectator_in_step(
    server: Server, people: tuple[Table, Table, Table]
) -> None:
    host, guest, spectator = people
    frames = [Frames(table) for table in people]
    room = start_room(server.url, host, guest, spectator)
    rng = random.Random(17)
    reasons_shown = 0
    for version in range(1, 9):
        mover = host if host.page.locator("#board").get_attribute("data-to-move") == "0" else guest
        mover.play_any(rng)
        everyone_sees(version, *people)
        for table in people:
            reasons_shown += assert_same_board(server, room, table)
    assert reasons_shown > 0
    assert all(f.patches >= 8 for f in frames), [f.patches for f in frames]
    assert all(WHOLE_BOARD_PLEASE not in f.sent for f in frames)
    assert room_id_of(spectator.page) == room


def test_a_page_that_missed_an_update_gets_the_whole_board(
    server: Server, people: tuple[Table, Table, Table]
) -> None:
    host, guest, spectator = people
    watching = Frames(spectator)
    room = start_room(server.url, host, guest, spectator)
    rng = random.Random(5)
    spectator.page.evaluate(LOSE_NEXT_PATCH)
    host.play_any(rng)
    everyone_sees(1, host, guest)
    assert spectator.version == 0  # the update was lost
    guest.play_any(rng)
    everyone_sees(2, host, guest, spectator)
    assert WHOLE_BOARD_PLEASE in watching.sent
    for table in people:
        assert_same_board(server, room, table)
    host.play_any(rng)
    everyone_sees(3, host, guest, spectator)
    assert_same_board(server, room, spectator)
    assert watching.sent.count(WHOLE_BOARD_PLEASE) == 1


#: Focuses a supply card of the first of these round parts that has one the mover may not
#: build now (so that the move leaves it a card); its round's id.
FOCUS_CARD = """([rounds, moverMay]) => {
  for (const round of rounds) {
    const card = [...document.querySelectorAll("#" + round + " button.card-button")].find(
      (button) => !moverMay.includes(button.dataset.building));
    if (!card) continue;
    card.focus();
    window.__focused = card;
    return document.activeElement === card ? round : null;
  }
  return null;
}"""

#: Whether the remembered element is still in the page, and still has the focus.
STILL_FOCUSED = (
    """() => [window.__focused.isConnected, document.activeElement === window.__focused]"""
)

#: Which element has the focus: its tag, id and class (what took it, when the card lost it).
FOCUS_HOLDER = """() => { const e = document.activeElement;
  return e ? [e.tagName, e.id, e.className].join(" ") : "nothing"; }"""

ROUND_PARTS = re.compile(r' id="(overview-round-\d+)"')


def test_focus_stays_on_a_card_when_the_opponent_s_move_redraws_its_round(
    server: Server, people: tuple[Table, Table, Table]
) -> None:
    """A keyboard user's focus on a supply card stays on it when the opponent's move redraws
    the card's round: the part is brought in line, not replaced."""
    host, guest, spectator = people
    watching = Frames(guest)
    start_room(server.url, host, guest, spectator)
    rng = random.Random(11)
    kept = 0
    for version in range(1, 17):
        board = host.page.locator("#board")
        if board.get_attribute("data-to-move") != "0":
            guest.play_any(rng)
            everyone_sees(version, *people)
            continue
        # A move most often redraws the round now (its cards' owners, their reasons).
        rounds = guest.page.eval_on_selector_all(
            "#overview .overview-round.is-current", "(rounds) => rounds.map((r) => r.id)"
        )
        may = (board.get_attribute("data-playable") or "").split()
        focused = guest.page.evaluate(FOCUS_CARD, [rounds, may])
        host.play_any(rng)
        everyone_sees(version, *people)
        if focused is None or focused not in ROUND_PARTS.findall(watching.received[-1]):
            continue
        connected, has_focus = guest.page.evaluate(STILL_FOCUSED)
        holder = guest.page.evaluate(FOCUS_HOLDER)
        assert connected and has_focus, f"version {version}: the focus left the card for {holder}"
        kept += 1
    assert kept > 0


#: Notes on each tile the building it shows now.
NOTE_TILES = """() => document.querySelectorAll("#board .tile[data-building]").forEach((tile) => {
  tile.__building = tile.dataset.building;
})"""

#: The tiles (their places among the board's tiles) now showing another building than noted:
#: tiles the last board drew over with another building's.
DRAWN_OVER = """() => [...document.querySelectorAll("#board .tile[data-building]")]
  .map((tile, i) => [i, tile.__building !== undefined && tile.__building !== tile.dataset.building])
  .filter(([, over]) => over).map(([i]) => i)"""


def test_a_tile_drawn_over_with_another_building_opens_that_building(
    server: Server, people: tuple[Table, Table, Table]
) -> None:
    """A partial board brings a wheel's tile in line with another building's tile in place: htmx
    binds its click again, to the new building's panel. (A tile or card whose class or label
    alone changed keeps its binding: every move of the game is clicked through them.)"""
    host, guest, spectator = people
    start_room(server.url, host, guest, spectator)
    rng = random.Random(5)
    checked = 0
    for version in range(1, 25):
        host.page.evaluate(NOTE_TILES)
        mover = host if host.page.locator("#board").get_attribute("data-to-move") == "0" else guest
        mover.play_any(rng)
        everyone_sees(version, *people)
        tiles = host.page.locator("#board .tile[data-building]")
        for place in host.page.evaluate(DRAWN_OVER)[:2]:
            building = tiles.nth(place).get_attribute("data-building")
            tiles.nth(place).click()
            expect(host.page.locator("#panel .panel-card")).to_have_attribute(
                "data-building", building or ""
            )
            checked += 1
        if checked >= 4:
            break
    assert checked >= 4
