"""A room's life in real browsers (issue 13): the seat kept through a spectator link, a new
seat link from the host, no move before both seats are taken, resign and abort."""

from __future__ import annotations

import json
import random
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

import engine
from app.reads.positions import effective_of
from bench.appserver import AppServer

from .conftest import Server
from .tablepage import Table, everyone_sees, first_action, room_id_of, room_state, start_room

pytestmark = pytest.mark.browser


def test_the_seat_survives_the_spectator_link_and_the_host_reissues_a_lost_one(
    server: Server, people: tuple[Table, Table, Table]
) -> None:
    host, guest, spectator = people
    start_room(server.url, host, guest, spectator)
    watch = host.link("#spectator-link")
    old_link = guest.link("#seat-link")

    # The guest opens the spectator link in their own browser: still the guest, and told so.
    guest.open(watch)
    expect(guest.page.locator("#kept-seat")).to_be_visible()
    expect(guest.page.locator("#turn-banner")).to_have_text("Waiting for Player 1")
    assert guest.link("#seat-link") == old_link

    # The host issues a new seat link for Player 2; the old one stops working at once.
    expect(guest.page.locator("#reissue-button")).to_have_count(0)  # only the host may
    host.page.locator("#reissue-button").click()
    host.page.locator("#reissue-confirm").click()
    expect(host.page.locator("#panel")).to_contain_text("Send this new seat link")
    found = re.search(r"https?://\S+/s/[A-Za-z0-9_-]+", host.page.locator("#panel").inner_text())
    assert found is not None
    new_link = found.group(0)
    for table in (host, spectator):
        expect(table.page.locator("#board .log-event")).to_contain_text(
            "Player 2 has a new seat link"
        )
    host.shot("roomlife-reissued")
    # The page the old link opened is cut off at once, and says why.
    expect(guest.page.locator("h1")).to_contain_text("This room needs a link")
    other = guest.context.browser
    assert other is not None
    lost = other.new_context()
    assert lost.new_page().goto(old_link).status == 404  # type: ignore[union-attr]
    lost.close()

    # The new link seats the guest again, who plays on.
    guest.open(new_link)
    expect(guest.page.locator("#turn-banner")).to_have_text("Waiting for Player 1")
    first_action(host, guest, spectator)


def test_nobody_moves_before_the_guest_joins_and_the_host_may_abort(
    server: Server, people: tuple[Table, Table, Table]
) -> None:
    host, _guest, spectator = people
    host.page.goto(server.url + "/")
    host.page.locator(".start-form input[name='host_seat'][value='0']").check()
    host.page.locator(".start-form button[type='submit']").click()
    host.wait_live()
    not_started = "The game has not started: it starts when both seats are taken."
    expect(host.page.locator("#turn-banner")).to_have_text(not_started)
    expect(host.page.locator("#not-started")).to_have_text(not_started)
    expect(host.page.locator("#seat-link")).to_be_visible()
    spectator.open(host.link("#spectator-link-top"))
    expect(spectator.page.locator("#turn-banner")).to_have_text(not_started)
    # A building's panel says so too, and offers no move.
    host.page.locator("#board [data-building='hardware_store']").first.click()
    expect(host.page.locator("#panel")).to_contain_text(not_started)
    host.shot("roomlife-not-started")

    host.page.locator("#abort-button").click()
    for table in (host, spectator):
        expect(table.page.locator("#game-over-title")).to_have_text(
            "The game was aborted: it has no result."
        )
    expect(spectator.page.locator("#board .log-event")).to_have_text("Player 1 aborted the game.")
    expect(host.page.locator("#rematch-button")).to_be_visible()


def test_a_player_resigns_after_confirming(
    server: Server, people: tuple[Table, Table, Table]
) -> None:
    host, guest, spectator = people
    room = start_room(server.url, host, guest, spectator)
    first_action(host, guest, spectator)
    expect(host.page.locator("#abort-button")).to_have_count(0)  # an action was taken

    guest.page.locator("#resign-button").click()
    expect(guest.page.locator("#resign-confirm")).to_be_visible()
    guest.page.locator("#resign-confirm").click()
    expect(host.page.locator("#game-over-title")).to_have_text("You win!")
    expect(host.page.locator("#game-over-reason")).to_have_text("Player 2 resigned.")
    expect(guest.page.locator("#game-over-reason")).to_have_text("You resigned.")
    expect(spectator.page.locator("#game-over-title")).to_have_text("Player 1 wins!")
    expect(spectator.page.locator("#board .log-event")).to_have_text("Player 2 resigned.")
    guest.shot("roomlife-resigned")
    # The game stays as it was: the log replays to the board everyone sees.
    assert room_state(server.url, room, host.token()).turn == 1

    # The rematch flow follows, as after a last move.
    host.page.locator("#rematch-button").click()
    guest.page.locator("#rematch-button").click()
    expect(host.page.locator("#rematch-link")).to_be_visible()
    expect(guest.page.locator("#rematch-link")).to_be_visible()


def test_a_room_nobody_joined_is_removed_after_its_lifetime(
    browser: Browser, tmp_path: Path
) -> None:
    quick = AppServer(
        tmp_path,
        env={"ROOMS_PER_MINUTE": "0", "ROOM_SWEEP_INTERVAL": "0.3", "UNSTARTED_ROOM_DAYS": "7"},
    )
    quick.start()
    host = Table(browser, "host")
    try:
        host.page.goto(quick.url + "/")
        host.page.locator(".start-form button[type='submit']").click()
        host.wait_live()
        room_id = room_id_of(host.page)
        database = sqlite3.connect(tmp_path / "inland-port.sqlite3")
        with database:
            database.execute(
                "UPDATE rooms SET created_at = '2020-01-01 00:00:00.000000' WHERE id = ?",
                (room_id,),
            )
        database.close()
        deadline = time.monotonic() + 10
        while host.page.goto(f"{quick.url}/rooms/{room_id}").status != 404:  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the room was not removed"
            time.sleep(0.3)
        expect(host.page.locator("h1")).to_have_text("No such room")
    finally:
        host.close()
        quick.stop()


@pytest.fixture
def quick_absence(tmp_path: Path) -> Iterator[AppServer]:
    """A server where a player with no open page for 2 s counts as gone (heartbeat each 1 s)."""
    running = AppServer(
        tmp_path,
        env={"ROOMS_PER_MINUTE": "0", "ABSENT_AFTER": "2", "PRESENCE_TIMEOUT": "3"},
    )
    running.start()
    yield running
    running.stop()


def test_an_absent_opponent_the_computer_stands_in_the_owner_takes_over_then_a_claim(
    quick_absence: AppServer, people: tuple[Table, Table, Table]
) -> None:
    host, guest, spectator = people
    room = start_room(quick_absence.url, host, guest, spectator)
    guest_link = guest.link("#seat-link")
    first_action(host, guest, spectator)

    # The guest (to move) closes the page; after 2 s the host is offered what to do.
    guest.page.goto("about:blank")
    expect(host.page.locator("#standin-button")).to_be_visible()
    expect(spectator.page.locator("#standin-button")).to_have_count(0)  # only the player
    host.shot("roomlife-opponent-gone")
    host.page.locator("#standin-button").click()
    expect(spectator.page.locator("#standin-note")).to_have_text(
        "The computer plays for Player 2 while they are away."
    )
    host.wait_version(2)  # the computer played Player 2's turn
    expect(host.page.locator("#turn-banner")).to_have_text("Your turn")
    assert room_state(quick_absence.url, room, host.token()).turn == 2

    # The guest comes back and takes over.
    guest.open(guest_link)
    expect(guest.page.locator("#standin-note")).to_have_text(
        "The computer is playing for you while you were away."
    )
    guest.page.locator("#take-over-button").click()
    expect(spectator.page.locator("#board .log-event").first).to_have_text(
        "Player 2 is back and plays again."
    )
    expect(spectator.page.locator("#standin-note")).to_have_count(0)

    # The host moves; the guest leaves again on their turn; the host claims the game.
    host.play_any(random.Random(1))
    everyone_sees(3, host, guest, spectator)
    guest.page.goto("about:blank")
    host.page.locator("#claim-button").click()
    host.page.locator("#claim-confirm").click()
    expect(host.page.locator("#game-over-title")).to_have_text("You win!")
    expect(host.page.locator("#game-over-reason")).to_have_text(
        "The game was claimed: the opponent left."
    )
    expect(spectator.page.locator("#game-over-title")).to_have_text("Player 1 wins!")
    expect(spectator.page.locator("#board .log-event").first).to_have_text(
        "Player 1 claimed the game: the opponent left."
    )


def replayed(base_url: str, room_id: str, token: str) -> engine.GameState:
    """The position the stored log gives: its moves, with the takebacks applied."""
    response = httpx.get(
        f"{base_url}/api/rooms/{room_id}/moves", headers={"Authorization": f"Bearer {token}"}
    )
    response.raise_for_status()
    rows = [
        (m["seq"], m["seat"], json.dumps(m["move"], sort_keys=True, separators=(",", ":")))
        for m in response.json()["moves"]
    ]
    return engine.replay([json.loads(text) for _, _, text in effective_of(rows)])


def test_a_takeback_declined_then_accepted(
    server: Server, people: tuple[Table, Table, Table]
) -> None:
    host, guest, spectator = people
    room = start_room(server.url, host, guest, spectator)
    first_action(host, guest, spectator)

    host.page.locator("#takeback-button").click()
    expect(guest.page.locator("#takeback-request")).to_have_text(
        "Player 1 asks to take back their last action."
    )
    expect(spectator.page.locator("#takeback-request")).to_be_visible()
    expect(spectator.page.locator("#takeback-accept")).to_have_count(0)
    guest.shot("roomlife-takeback-asked")
    guest.page.locator("#takeback-decline").click()
    expect(spectator.page.locator("#board .log-event").first).to_have_text(
        "Player 2 declined the takeback."
    )
    expect(host.page.locator("#takeback-request")).to_have_count(0)
    assert host.version == 1

    host.page.locator("#takeback-button").click()
    guest.page.locator("#takeback-accept").click()
    for table in (host, guest, spectator):
        table.wait_version(2)
        expect(table.page.locator(".mat.seat-0 [data-building='hardware_store']")).to_have_count(0)
    expect(host.page.locator("#turn-banner")).to_have_text("Your turn")
    expect(spectator.page.locator("#board .log-entry").first).to_contain_text(
        "Player 1 took back their last action (the opponent agreed)"
    )
    state = replayed(server.url, room, host.token())
    assert state == engine.new_game()
    for seat, score in enumerate(engine.scores(state)):
        expect(spectator.page.locator(f".score-value[data-seat='{seat}']")).to_have_text(str(score))
