"""Looking back at a Le Havre game in the browser: from the game-over screen to the review, whose
slider and keys walk every position as the engine replays the exported record, with a score line
per seat; the record imports as the same game, a malformed one is refused naming its line, and
"play from here" opens a Le Havre room with the same seats that the forker plays on; the analysis
names each seat's costliest turns."""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from engine.games import game
from engine.lehavre.record import read_record

from .conftest import Server
from .tablepage import Table, follow

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RULES = game("lehavre")


def finished_room(base_url: str, players: int = 2) -> dict[str, Any]:
    """A short Le Havre room of friends played to its end through the JSON API."""
    body = {"game": "lehavre", "others": ["friend"] * (players - 1), "variant": "short"}
    created = httpx.post(f"{base_url}/api/rooms", json={**body, "host_seat": 0}).json()
    tokens = {created["seat"]: created["token"]}
    for link in created["invite_links"]:
        claimed = httpx.post(f"{base_url}/api/invites/{link.rsplit('/', 1)[1]}").json()
        tokens[claimed["seat"]] = claimed["token"]
    room_url = f"{base_url}/api/rooms/{created['room']}"
    rng, version = random.Random(players), 0
    seat = httpx.get(room_url, headers=_bearer(tokens[0])).json()["summary"]["current"]
    while seat is not None:
        legal = httpx.get(f"{room_url}/legal", headers=_bearer(tokens[seat])).json()["moves"]
        answer = httpx.post(
            f"{room_url}/moves",
            json={
                "move": rng.choice(legal),
                "version": version,
                "client_move_id": uuid.uuid4().hex,
            },
            headers=_bearer(tokens[seat]),
        )
        assert answer.status_code == 200, answer.text
        version, seat = answer.json()["version"], answer.json()["summary"]["current"]
    return {"room": created["room"], "tokens": tokens, "moves": version}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def shown_summary(page: Page, at: int) -> Any:
    expect(page.locator("#review-body")).to_have_attribute("data-at", str(at))
    return json.loads(page.locator("#review-summary").text_content() or "null")


def import_text(page: Page, base_url: str, text: str) -> None:
    page.goto(f"{base_url}/import")
    page.locator("#record-text").fill(text)
    page.locator("#import-button").click()


def test_a_finished_game_is_walked_exported_imported_and_forked(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    room = finished_room(server.url)
    last = room["moves"]
    table = Table(browser, "lehavre-reviewer")
    try:
        page = table.page
        page.goto(f"{server.url}/s/{room['tokens'][0]}")
        expect(page.locator("#lh-final")).to_be_visible()
        follow(page, "#review-link")
        with page.expect_download() as download:
            page.locator("#export-json").click()
        path = tmp_path / "lehavre.json"
        download.value.save_as(path)
        text = path.read_text()
        positions = read_record(text).positions()
        assert len(positions) == last + 1
        expect(page.locator("#export-text")).to_have_count(0)
        expect(page.locator("#score-graph polyline.graph-line")).to_have_count(2)
        final = RULES.scores(positions[-1])
        for seat in (0, 1):
            end = page.locator(f"#score-graph circle.graph-end[data-seat='{seat}']")
            expect(end).to_have_attribute("data-score", str(final[seat]))

        # The slider, the keys and the move list walk the game as the engine replays it.
        assert shown_summary(page, last) == RULES.summary(positions[-1])
        page.keyboard.press("Home")
        for at in range(6):
            assert shown_summary(page, at) == RULES.summary(positions[at]), at
            page.keyboard.press("ArrowRight")
        page.keyboard.press("End")
        shown_summary(page, last)
        page.keyboard.press("ArrowLeft")
        assert shown_summary(page, last - 1) == RULES.summary(positions[last - 1])
        page.locator("#review-slider").fill("17")
        assert shown_summary(page, 17) == RULES.summary(positions[17])
        page.locator(".review-move-list a[data-at='40']").click()
        assert shown_summary(page, 40) == RULES.summary(positions[40])
        expect(page.locator("#lh-harbour")).to_be_visible()
        table.shot("lehavre-review")

        # Play from position 40: the forker's seat, the computer in the other.
        seat = RULES.to_move(positions[40])
        page.locator("select[name='seat']").select_option(str(seat))
        page.locator("select[name='computer']").select_option("heuristic")
        page.locator("#fork-button").click()
        table.wait_live()
        expect(page.locator("#board")).to_have_attribute("data-to-move", str(seat))
        assert table.version == 40
        page.locator("#lh-move form button").first.click()
        expect(page.locator("#board")).not_to_have_attribute("data-version", "40")

        # The record imports as the same game, for looking only.
        import_text(page, server.url, text)
        assert shown_summary(page, last) == RULES.summary(positions[-1])
        expect(page.locator(".review-move-list a[data-at]")).to_have_count(last + 1)
        expect(page.locator("#fork-button")).to_have_count(0)
        page.locator(".review-move-list a[data-at='3']").click()
        assert shown_summary(page, 3) == RULES.summary(positions[3])

        # The analysis shows its progress, then each seat's costliest turns.
        page.locator("#analyse-button").click()
        expect(page.locator("#analysis-done")).to_be_visible(timeout=180_000)
        expect(page.locator("#analysis .turning-seat")).to_have_count(2)
        for point in page.locator(".turning-point").all():
            assert (point.get_attribute("data-seat") or "") in ("0", "1")
            assert float(point.get_attribute("data-loss") or 0) > 0
        table.shot("lehavre-analysis")

        # A malformed record is refused, naming its line; the page keeps the text.
        lines = text.splitlines()
        number = next(i for i, line in enumerate(lines) if '"type":"take"' in line)
        lines[number] = lines[number].replace('"type":"take"', '"type":"steal"')
        import_text(page, server.url, "\n".join(lines))
        expect(page.locator("#import-error")).to_contain_text(f"Line {number + 1}:")
        expect(page.locator("#record-text")).to_have_value("\n".join(lines))
        assert table.errors == []
    finally:
        table.close()
