"""The wheels in a real browser over a whole random game, at 1280 and 390 px: no two tiles'
boxes overlap, each tile lies inside its sector's wedge, no text on the table (wheels,
warehouses, cards, log) is under 12 CSS px, and the page neither scrolls sideways nor logs an
error."""

from __future__ import annotations

import random
import uuid
from typing import Any

import httpx
import pytest

import engine
from app.ui.wheel import SECTOR_LABELS
from engine.catalogs import built_in_registry

from .conftest import Server
from .tablepage import Table

pytestmark = pytest.mark.browser

MEASURE = """() => {
  const result = [];
  for (const svg of document.querySelectorAll("#board .wheel-disc")) {
    const frame = svg.getBoundingClientRect();
    const scale = frame.width / 400;
    const cx = frame.left + frame.width / 2, cy = frame.top + frame.height / 2;
    const tiles = [...svg.querySelectorAll("g.tile")].map((g) => {
      const r = g.getBoundingClientRect();
      return {sector: g.dataset.sector, left: r.left, top: r.top, right: r.right, bottom: r.bottom};
    });
    const texts = [...svg.querySelectorAll("text")].map(
      (t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    result.push({cx, cy, radius: 196 * scale, tiles, texts});
  }
  const small = [];
  for (const el of document.querySelectorAll("#board *")) {
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || el.closest(".visually-hidden")) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    const svg = el.closest("svg");
    const view = svg && svg.viewBox && svg.viewBox.baseVal;
    if (view && view.width) size *= svg.getBoundingClientRect().width / view.width;
    if (size < 11.95) small.push(`${el.getAttribute("class") || el.tagName} ${size.toFixed(1)}px`);
  }
  return {wheels: result, small, scroll: document.documentElement.scrollWidth - window.innerWidth};
}"""


def inside_wedge(wheel: dict[str, Any], tile: dict[str, Any]) -> bool:
    index = SECTOR_LABELS.index(tile["sector"])
    centre = -90.0 + 60.0 * index
    for x in (tile["left"], tile["right"]):
        for y in (tile["top"], tile["bottom"]):
            dx, dy = x - wheel["cx"], y - wheel["cy"]
            if dx * dx + dy * dy > wheel["radius"] ** 2:
                return False
            angle = engine_angle(dx, dy)
            off = (angle - centre + 180.0) % 360.0 - 180.0
            if abs(off) > 30.0 + 0.5:
                return False
    return True


def engine_angle(dx: float, dy: float) -> float:
    import math

    return math.degrees(math.atan2(dy, dx))


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return not (
        a["right"] <= b["left"]
        or b["right"] <= a["left"]
        or a["bottom"] <= b["top"]
        or b["bottom"] <= a["top"]
    )


def check(table: Table, where: str) -> None:
    # A phone folds the opponent's board (and the legend): open everything to measure it all.
    table.page.evaluate(
        "() => document.querySelectorAll('#board details').forEach((d) => { d.open = true; })"
    )
    measured = table.page.evaluate(MEASURE)
    assert measured["scroll"] <= 0, f"{where}: the page scrolls sideways"
    assert measured["small"] == [], f"{where}: text under 12 px"
    assert len(measured["wheels"]) == 2
    for wheel in measured["wheels"]:
        assert min(wheel["texts"]) >= 11.95, f"{where}: wheel text under 12 px"
        tiles = wheel["tiles"]
        for k, tile in enumerate(tiles):
            assert inside_wedge(wheel, tile), f"{where}: a tile leaves its wedge: {tile}"
            for other in tiles[k + 1 :]:
                assert not overlap(tile, other), f"{where}: tiles overlap: {tile} {other}"


def test_wheels_stay_legible_over_a_random_game(browser: Any, server: Server) -> None:
    with httpx.Client(base_url=server.url + "/api") as api:
        play_and_measure(browser, api)


def play_and_measure(browser: Any, api: httpx.Client) -> None:
    """Play a random game through the API, measuring both tables every 12 actions."""
    created = api.post("/rooms", json={"host_seat": 0}).json()
    invite = created["invite_link"].rsplit("/", 1)[1]
    guest = api.post(f"/invites/{invite}").json()
    room, tokens = created["room"], {0: created["token"], 1: guest["token"]}
    tables = {
        1280: Table(browser, "wide", width=1280, height=900),
        390: Table(browser, "phone", width=390, height=844),
    }
    console: list[str] = []
    for table in tables.values():
        table.page.on("console", lambda m: m.type == "error" and console.append(m.text))
        table.open(created["seat_link"])
    rng = random.Random(16)
    state = engine.new_game(built_in_registry().get(created["catalog"]))
    version = 0
    checked = 0
    while state.to_move is not None:
        move = rng.choice(engine.legal_moves(state))
        answer = api.post(
            f"/rooms/{room}/moves",
            json={"move": move.to_json(), "version": version, "client_move_id": uuid.uuid4().hex},
            headers={"Authorization": f"Bearer {tokens[state.to_move]}"},
        )
        assert answer.status_code == 200, answer.text
        state = engine.apply(state, move)
        version += 1
        if version % 12 == 0 or state.to_move is None:
            for width, table in tables.items():
                table.wait_version(version)
                check(table, f"{width} px at version {version}")
            checked += 1
    tables[1280].shot("wheels-1280")
    tables[390].shot("wheels-390")
    assert checked > 5
    for table in tables.values():
        assert table.errors == []
        table.close()
    api.close()
    assert console == []
