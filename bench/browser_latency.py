"""How soon the pages show a move: from the click on confirm until the opponent's page, a
spectator's page and the mover's own page have drawn the new board, over a whole game, in real
Chromium pages.

Three browser contexts (three people: the two players and a spectator) open one room of a fresh
server (`python -m app`, its own SQLite file, or PostgreSQL with ``--database-url``). The player
to move plays as a person does: clicks a building it may act on, waits for the panel, and clicks
confirm (or the pass button when nothing else is possible); the move goes through the page's
form post (htmx, `POST /rooms/{id}/moves`), and every page, the mover's too, gets the board over
its socket (the post's answer is only the panel's message).

The times are taken inside the pages on one clock (`performance.timeOrigin + performance.now()`,
the same system clock in every page of one browser): the mover's page notes the click (a
capture listener, before htmx handles it), every page notes the first animation frame after
its `#board` carries the new version (the frame that shows it) and the end of that frame's
main-thread work (style, layout, paint: "painted"). It prints the median, 90th percentile and
maximum for the opponent, the spectator and the mover, and the medians of the stages on the
way (for a board that came over the socket): from the click until the socket message arrived
in the page (the post, the server's work, the socket),
the page's handling of the message (parsing, the swap, the page's own handlers), the wait from
there to the next frame, and that frame; and from the click until the mover's page sent its
post.

A frame's animation-frame callbacks run before its style and layout, unless something forced
them earlier: in a page the mouse is over (the mover's, and the opponent's, which clicked last)
the frame first updates the hover state, a hit test that needs the new layout. So "shown"
includes the layout for the players but not for the spectator; "painted" includes it for all.

    .venv/bin/python bench/browser_latency.py                 # one whole game (72 actions)
    .venv/bin/python bench/browser_latency.py --moves 30 --json
    .venv/bin/python bench/browser_latency.py --browsers 3     # a browser per page

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
            window.__sent = null;
        }
    }, true);
    document.addEventListener("htmx:beforeSend", () => {
        if (window.__clicked !== null && window.__sent === null) {
            window.__sent = performance.timeOrigin + performance.now();
        }
    });
}"""

#: In a watching page: a promise of the times at which `#board` came to carry `version`: the
#: socket message that brought it arrived (`htmx:wsBeforeMessage`), the page had handled that
#: message (swapped it in and run every handler: `htmx:wsAfterMessage`), the first frame after
#: it began (its animation-frame callbacks; the board element is swapped in whole, so the
#: document is observed), and that frame's style, layout and paint were done (the first task
#: after the frame: a message posted from the frame's callback).
AWAIT_VERSION = """(version) => {
    const now = () => performance.timeOrigin + performance.now();
    const has = () => {
        const board = document.getElementById("board");
        return board && Number(board.dataset.version) >= version;
    };
    const times = {arrived: null, handled: null, shown: null};
    let arrival = null;
    if (!window.__marking) {
        window.__marking = true;
        document.addEventListener("htmx:wsBeforeMessage", () => {
            if (window.__onArrival) window.__onArrival(now());
        }, true);
        document.addEventListener("htmx:wsAfterMessage", () => {
            if (window.__onHandled) window.__onHandled(now());
        }, true);
    }
    window.__onArrival = (at) => { arrival = at; };
    window.__onHandled = (at) => {
        if (times.handled === null && has()) { times.arrived = arrival; times.handled = at; }
    };
    window.__shown = new Promise((resolve) => {
        const shown = () => requestAnimationFrame(() => {
            times.shown = now();
            const after = new MessageChannel();
            after.port1.onmessage = () => { times.painted = now(); resolve(times); };
            after.port2.postMessage(null);
        });
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


def play_one(
    mover: Page, watchers: list[Page], rng: random.Random
) -> tuple[list[dict[str, float]], float]:
    """The mover makes one action by clicking. For each watcher and then the mover's own page,
    the ms from the click until the page got, handled and showed the move; and the ms from the
    click until the mover's page sent its post."""
    version = version_of(mover)
    mover.evaluate(NOTE_CLICK)
    watchers = [*watchers, mover]
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
    times = [page.evaluate("() => window.__shown") for page in watchers]
    clicked = float(mover.evaluate("() => window.__clicked"))
    sent = mover.evaluate("() => window.__sent")
    expect(mover.locator("#board")).to_have_attribute("data-version", str(version + 1))
    seen = [
        {
            stage: float(at) - clicked
            for stage, at in mark.items()
            if at is not None  # a board the page already held when it began to wait
        }
        for mark in times
    ]
    return seen, (float(sent) - clicked) if sent is not None else float("nan")


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "p50_ms": round(statistics.median(ordered), 1),
        "p90_ms": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 1),
        "max_ms": round(ordered[-1], 1),
    }


def stages(marks: list[dict[str, float]]) -> dict[str, float]:
    """Medians of each stage: click → message arrived → handled (parsed, swapped, handlers run)
    → next frame begun → that frame's style, layout and paint done."""
    whole = [m for m in marks if "arrived" in m and "handled" in m]
    if not whole:
        return {}
    return {
        "click_to_arrival_p50_ms": round(statistics.median(m["arrived"] for m in whole), 1),
        "handling_p50_ms": round(statistics.median(m["handled"] - m["arrived"] for m in whole), 1),
        "to_frame_p50_ms": round(statistics.median(m["shown"] - m["handled"] for m in whole), 1),
        "frame_p50_ms": round(statistics.median(m["painted"] - m["shown"] for m in whole), 1),
    }


def measure(url: str, moves: int, seed: int, *, browsers: int = 1) -> dict[str, object]:
    """Play `moves` actions; the three pages share one browser, or each has its own
    (``browsers=3``: no shared display compositor or browser process)."""
    rng = random.Random(seed)
    opponent: list[dict[str, float]] = []
    spectator: list[dict[str, float]] = []
    own: list[dict[str, float]] = []
    posted: list[float] = []
    with sync_playwright() as playwright:
        launched = [
            playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for _ in range(browsers)
        ]
        try:
            host, guest, watcher = (new_page(launched[i % browsers]) for i in range(3))
            open_room(url, host, guest, watcher)
            players = (host, guest)
            for _ in range(moves):
                to_move = host.locator("#board").get_attribute("data-to-move")
                if to_move is None or host.locator(".game-over").count():
                    break
                mover = players[int(to_move)]
                other = players[1 - int(to_move)]
                seen, sent = play_one(mover, [other, watcher], rng)
                opponent.append(seen[0])
                spectator.append(seen[1])
                own.append(seen[2])
                posted.append(sent)
        finally:
            for browser in launched:
                browser.close()
    return {
        "moves": len(opponent),
        "opponent": summary([m["shown"] for m in opponent]),
        "spectator": summary([m["shown"] for m in spectator]),
        "mover": summary([m["shown"] for m in own]),
        "opponent_painted": summary([m["painted"] for m in opponent]),
        "spectator_painted": summary([m["painted"] for m in spectator]),
        "mover_painted": summary([m["painted"] for m in own]),
        "opponent_stages": stages(opponent),
        "spectator_stages": stages(spectator),
        "mover_stages": stages(own),
        "click_to_post_p50_ms": round(statistics.median(posted), 1) if posted else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=72, help="actions to play (a game has 72)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument(
        "--browsers",
        type=int,
        choices=(1, 3),
        default=1,
        help="one browser for the three pages (default), or one browser each",
    )
    parser.add_argument("--json", action="store_true", help="print the result as one JSON line")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="inland-browser-latency-") as data_dir:
        server = AppServer(Path(data_dir), database_url=args.database_url)
        server.start()
        try:
            result = measure(server.url, args.moves, args.seed, browsers=args.browsers)
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
