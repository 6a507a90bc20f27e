"""Looking back at a game in the browser: the review's slider and keys walk every position of a
finished game exactly as the engine replays it; the score graph ends at the final scores; a record
exported in either format imports as the same game, and a malformed one is refused naming its
line; the analysis shows its progress and finds a planted blunder; "play from here" starts a
playable room."""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

import engine
from engine.ai import choose_move
from engine.cli import random_game
from engine.notation import record_text
from engine.record import GameRecord

from .conftest import Server
from .tablepage import Table, follow

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def played_room(base_url: str, moves: list[str]) -> dict[str, Any]:
    """A room with both seats claimed in which `moves` were played through the JSON API.

    The moves are the engine's default catalog's (`provisional-1`): the room is played with it."""
    body = {"host_seat": 0, "catalog": engine.default_catalog().name}
    created = httpx.post(f"{base_url}/api/rooms", json=body).json()
    guest = httpx.post(f"{base_url}/api/invites/{created['invite_link'].rsplit('/', 1)[1]}").json()
    tokens = {created["seat"]: created["token"], guest["seat"]: guest["token"]}
    state = engine.new_game()
    for version, move in enumerate(moves):
        seat = state.to_move
        assert seat is not None
        answer = httpx.post(
            f"{base_url}/api/rooms/{created['room']}/moves",
            json={"move": json.loads(move), "version": version, "client_move_id": uuid.uuid4().hex},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert answer.status_code == 200, answer.text
        state = engine.apply(state, move)
    return {"room": created["room"], "tokens": tokens}


def shown_summary(page: Page, at: int) -> Any:
    expect(page.locator("#review-body")).to_have_attribute("data-at", str(at))
    return json.loads(page.locator("#review-summary").text_content() or "null")


def test_the_slider_and_keys_walk_a_finished_game(server: Server, browser: Browser) -> None:
    moves = random_game(random.Random(11))
    room = played_room(server.url, moves)
    positions = GameRecord.of(moves).positions()
    table = Table(browser, "reviewer")
    try:
        page = table.page
        page.goto(f"{server.url}/s/{room['tokens'][0]}")
        # The game-over screen draws the score graph; its last points are the final scores.
        final = engine.scores(positions[-1])
        for seat in (0, 1):
            end = page.locator(f"#score-graph circle.graph-end[data-seat='{seat}']")
            expect(end).to_have_attribute("data-score", str(final[seat]))
            expect(end).to_have_attribute("data-position", str(len(moves)))
        follow(page, "#review-link")
        assert shown_summary(page, len(moves)) == engine.summary(positions[-1])
        page.keyboard.press("Home")
        for at in range(len(moves) + 1):
            assert shown_summary(page, at) == engine.summary(positions[at]), at
            chips = page.locator(".score-strip .score-value")
            expect(chips.nth(0)).to_have_text(str(engine.scores(positions[at])[0]))
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Home")
        shown_summary(page, 0)
        page.keyboard.press("End")
        shown_summary(page, len(moves))
        page.keyboard.press("ArrowLeft")
        shown_summary(page, len(moves) - 1)
        page.locator("#review-slider").fill("17")
        assert shown_summary(page, 17) == engine.summary(positions[17])
        page.locator(".review-move-list a[data-at='40']").click()
        assert shown_summary(page, 40) == engine.summary(positions[40])
        assert page.url.endswith("?at=40")
        page.reload()
        assert shown_summary(page, 40) == engine.summary(positions[40])
        for seat in (0, 1):
            end = page.locator(f"#score-graph circle.graph-end[data-seat='{seat}']")
            expect(end).to_have_attribute("data-score", str(final[seat]))
        table.shot("review")
        # Readable on a phone: the graph fits the screen's width.
        phone = Table(browser, "phone", width=375, height=740)
        phone.page.goto(f"{server.url}/s/{room['tokens'][1]}")
        phone.page.goto(f"{server.url}/rooms/{room['room']}/review?at=20")
        box = phone.page.locator("#score-graph svg").bounding_box()
        assert box is not None and box["width"] <= 375
        phone.shot("review-phone")
        phone.close()
        assert table.errors == []
    finally:
        table.close()


def import_text(page: Page, base_url: str, text: str) -> None:
    page.goto(f"{base_url}/import")
    page.locator("#record-text").fill(text)
    page.locator("#import-button").click()


def test_export_then_import_gives_the_same_game(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    moves = random_game(random.Random(12))
    room = played_room(server.url, moves)
    table = Table(browser, "archivist")
    try:
        page = table.page
        page.goto(f"{server.url}/s/{room['tokens'][0]}")
        page.goto(f"{server.url}/rooms/{room['room']}/review")
        texts = {}
        for kind in ("json", "text"):
            with page.expect_download() as download:
                page.locator(f"#export-{kind}").click()
            path = tmp_path / f"record-{kind}"
            download.value.save_as(path)
            texts[kind] = path.read_text()
        for kind, text in texts.items():
            import_text(page, server.url, text)
            expect(page.locator(".review-page")).to_be_visible()
            assert shown_summary(page, len(moves)) == engine.summary(engine.replay(moves)), kind
            expect(page.locator(".review-move-list a[data-at]")).to_have_count(len(moves) + 1)
            expect(page.locator("#fork-button")).to_have_count(0)
            # The imported room's own record is the same game.
            with page.expect_download() as again:
                page.locator("#export-json").click()
            copy = tmp_path / f"copy-{kind}"
            again.value.save_as(copy)
            assert json.loads(copy.read_text())["moves"] == [json.loads(m) for m in moves]
        # A malformed record is refused, naming its line; the page keeps the text.
        lines = record_text(GameRecord.of(moves)).splitlines()
        lines[12] = "8. build the_moon"
        import_text(page, server.url, "\n".join(lines))
        expect(page.locator("#import-error")).to_contain_text("Line 13:")
        expect(page.locator("#record-text")).to_have_value("\n".join(lines))
        assert table.errors == []
    finally:
        table.close()


def planted_blunder(length: int = 20, at: int = 9) -> tuple[list[str], int]:
    """The normal bot's game in which action `at` throws the turn away (a Wood Trader trading
    nothing) while good actions were at hand; the moves and the blunder's index in them."""
    state, moves, rng, blunder = engine.new_game(), [], random.Random(1), -1
    while state.turn < length:
        if state.turn == at and blunder < 0:
            blunder = len(moves)
            move = engine.parse_move('{"building":"wood_trader","payments":[],"type":"use"}')
        else:
            move = choose_move(state, "normal", rng)
        state = engine.apply(state, move)
        moves.append(move.canonical)
    return moves, blunder


def test_the_analysis_finds_a_planted_blunder(server: Server, browser: Browser) -> None:
    moves, blunder = planted_blunder()
    table = Table(browser, "analyst")
    try:
        page = table.page
        import_text(page, server.url, record_text(GameRecord.of(moves)))
        page.locator("#analyse-button").click()
        expect(page.locator("#analysis-progress")).to_be_visible()
        expect(page.locator("#analysis-done")).to_be_visible(timeout=120_000)
        points = page.locator(".turning-point")
        expect(points.first).to_have_attribute("data-position", str(blunder))
        losses = [
            float(points.nth(i).get_attribute("data-loss") or 0) for i in range(points.count())
        ]
        assert losses == sorted(losses, reverse=True) and losses[0] > 0
        expect(points.first.locator(".preview-lines li").first).to_be_visible()
        expect(page.locator("#score-graph polyline.graph-margin")).to_have_count(1)
        table.shot("analysis")
        page.reload()
        expect(page.locator("#analysis-done")).to_be_visible()
        assert table.errors == []
    finally:
        table.close()


def test_play_from_a_mid_game_position(server: Server, browser: Browser) -> None:
    moves = random_game(random.Random(13))
    room = played_room(server.url, moves)
    at = 30
    state = engine.replay(moves[:at])
    table = Table(browser, "forker")
    try:
        page = table.page
        page.goto(f"{server.url}/s/{room['tokens'][0]}")
        page.goto(f"{server.url}/rooms/{room['room']}/review?at={at}")
        seat = state.to_move
        assert seat is not None
        page.locator("select[name='seat']").select_option(str(seat))
        page.locator("select[name='computer']").select_option("easy")
        page.locator("#fork-button").click()
        table.wait_live()
        expect(page.locator("#board")).to_have_attribute("data-version", str(at))
        assert page.locator("#board .score-value").nth(0).inner_text() == str(
            engine.scores(state)[seat]
        )
        # Our turn: make a move on the table, then the computer answers.
        page.locator("#board .tile.can-act, #board li.can-act > button.card-button").first.click()
        page.locator("#confirm-move").click()
        page.wait_for_function(
            "v => +document.getElementById('board').dataset.version > v", arg=at + 1
        )
        assert table.errors == []
    finally:
        table.close()
