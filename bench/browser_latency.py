"""How soon the other pages show a move: from the click on confirm until the opponent's page and a
spectator's page have drawn the new board, over a whole game, in real Chromium pages.

Three browser contexts (three people: the two players and a spectator) open one room of a fresh
server (`python -m app`, its own SQLite file, or PostgreSQL with ``--database-url``). The player
to move plays as a person does: clicks a building it may act on, waits for the panel, and clicks
confirm (or the pass button when nothing else is possible); the move goes through the page's
form post (htmx, `POST /rooms/{id}/moves`), the other pages get the board over their sockets.

The times are taken inside the pages on one clock (`performance.timeOrigin + performance.now()`,
the same system clock in every page of one browser): the mover's page notes the click (a
capture listener, before htmx handles it), the other pages note the first animation frame after
their `#board` carries the new version (the frame that shows it). It prints the median, 90th
percentile and maximum for the opponent and the spectator.

    .venv/bin/python bench/browser_latency.py                 # one whole game (72 actions)
    .venv/bin/python bench/browser_latency.py --moves 30 --json

Debian's Chromium (/usr/bin/chromium) through Playwright; loopback traffic only.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, Page, expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.appserver import AppServer
from bench.chromium import CHROMIUM, CHROMIUM_ARGS

WAIT_MS = 30_000
ACTIONABLE = "#board .tile.can-act, #board li.can-act > button.card-button"

#: In the mover's page: note when confirm (or pass) is clicked, before anything else handles it.
NOTE_CLICK = """() => {
    window.__clicked = null;
    if (window.__noting) return;
    window.__noting = true;
    document.addEventListener("click", (event) => {
        if (event.target.closest("#confirm-move, .pass-form button")) {
            window.__clicked = performance.timeOrigin + performance.now();
        }
    }, true);
}"""

#: In a watching page: a promise of the time of the first frame drawn once `#board` carries
#: `version` (the board element is swapped in whole, so the document is observed).
AWAIT_VERSION = """(version) => {
    window.__shown = new Promise((resolve) => {
        const has = () => {
            const board = document.getElementById("board");
            return board && Number(board.dataset.version) >= version;
        };
        const shown = () => requestAnimationFrame(
            () => resolve(performance.timeOrigin + performance.now()));
        if (has()) { shown(); return; }
        const observer = new MutationObserver(() => {
            if (has()) { observer.disconnect(); shown(); }
        });
        observer.observe(document, {subtree: true, childList: true, attributes: true,
                                    attributeFilter: ["data-version"]});
    });
}"""


def new_page(browser: Browser) -> Page:
    context = browser.new_context(viewport={"width": 1440, "height": 1000}, locale="en-US")
    context.set_default_timeout(WAIT_MS)
    return context.new_page()


def wait_live(page: Page) -> None:
    expect(page.locator("#connection")).to_have_attribute("data-state", "live")


def version_of(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version") or "-1")


def open_room(url: str, host: Page, guest: Page, spectator: Page) -> None:
    """The host opens a room from the home page (moving first); the guest takes the invite, the
    spectator opens the spectator link."""
    host.goto(url + "/")
    host.locator(".start-form input[name='host_seat'][value='0']").check()
    host.locator(".start-form button[type='submit']").click()
    wait_live(host)
    invite = host.locator("#invite-link").input_value()
    watch = host.locator("#spectator-link-top").input_value()
    guest.goto(invite)
    guest.locator("#join-button").click()
    wait_live(guest)
    spectator.goto(watch)
    wait_live(spectator)
    expect(host.locator(".presence .presence-dot.online")).to_have_count(2)


def play_one(mover: Page, watchers: list[Page], rng: random.Random) -> list[float]:
    """The mover makes one action by clicking; the ms until each watcher showed it."""
    version = version_of(mover)
    mover.evaluate(NOTE_CLICK)
    for page in watchers:
        page.evaluate(AWAIT_VERSION, version + 1)
    choices = mover.locator(ACTIONABLE)
    count = choices.count()
    if count == 0:
        mover.locator(".pass-form button").click()
    else:
        target = choices.nth(rng.randrange(count))
        building = target.get_attribute("data-building") or ""
        target.click()
        expect(mover.locator("#panel .panel-card")).to_have_attribute("data-building", building)
        mover.locator("#confirm-move").click()
    shown = [float(page.evaluate("() => window.__shown")) for page in watchers]
    clicked = float(mover.evaluate("() => window.__clicked"))
    expect(mover.locator("#board")).to_have_attribute("data-version", str(version + 1))
    return [at - clicked for at in shown]


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "p50_ms": round(statistics.median(ordered), 1),
        "p90_ms": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 1),
        "max_ms": round(ordered[-1], 1),
    }


def measure(url: str, moves: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    opponent_ms: list[float] = []
    spectator_ms: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            host, guest, spectator = (new_page(browser) for _ in range(3))
            open_room(url, host, guest, spectator)
            players = (host, guest)
            for _ in range(moves):
                to_move = host.locator("#board").get_attribute("data-to-move")
                if to_move is None or host.locator(".game-over").count():
                    break
                mover = players[int(to_move)]
                opponent = players[1 - int(to_move)]
                seen = play_one(mover, [opponent, spectator], rng)
                opponent_ms.append(seen[0])
                spectator_ms.append(seen[1])
        finally:
            browser.close()
    return {
        "moves": len(opponent_ms),
        "opponent": summary(opponent_ms),
        "spectator": summary(spectator_ms),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=72, help="actions to play (a game has 72)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON line")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="inland-browser-latency-") as data_dir:
        server = AppServer(Path(data_dir), database_url=args.database_url)
        server.start()
        try:
            result = measure(server.url, args.moves, args.seed)
        finally:
            server.stop()
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>10}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
