"""How long a room page takes to come alive with its modules preloaded, and without.

The room page names every ES module its entry imports (``<link rel="modulepreload">``,
`app.ui.templates.imported_modules`), so the browser asks for them all at once instead of one
level of the import graph per round trip. This opens a spectator's room page in Chromium, with an
empty cache, at an emulated network round trip (``--rtt`` ms, Chrome's own network emulation), as
served ("preload") and with the preload links cut out of the HTML on its way to the browser
("plain"), alternating which goes first; for each it times DOMContentLoaded, the load event and
the moment the page is live (its socket connected and the board drawn: ``#connection`` says
"live"), and counts the requests. It prints the medians per variant and the difference.

    .venv/bin/python bench/module_preload.py                     # 80 ms RTT, 5 rounds
    .venv/bin/python bench/module_preload.py --rtt 0 --rounds 9  # loopback as it is

Only loopback traffic; the server is started for the run and stopped after it.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Route, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chromium import CHROMIUM, CHROMIUM_ARGS
from load_servers import start_servers, stop_servers

PRELOAD = re.compile(r'<link rel="modulepreload"[^>]*>\s*')

# The page's own clock: navigation timing, and when the socket's board arrived.
TIMING = "() => { const n = performance.getEntriesByType('navigation')[0];"
TIMING += " return {dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd,"
TIMING += " requests: performance.getEntriesByType('resource').length + 1}; }"


def spectator_link(base: str) -> str:
    with httpx.Client(base_url=base, timeout=30) as client:
        created = client.post("/api/rooms", json={"host_seat": 0}).raise_for_status().json()
        client.post(f"/api/invites/{created['invite_link'].rsplit('/', 1)[1]}").raise_for_status()
        return str(created["spectator_link"])


def open_once(browser: Browser, link: str, rtt: float, plain: bool) -> dict[str, float]:
    """One cold load of the page: its timings in ms from the navigation's start."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    if rtt:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": rtt, "downloadThroughput": -1, "uploadThroughput": -1},
        )

    def cut_preloads(route: Route) -> None:
        response = route.fetch()
        body = response.text()
        if "text/html" in response.headers.get("content-type", ""):
            body = PRELOAD.sub("", body)
        route.fulfill(response=response, body=body)

    if plain:
        page.route(re.compile(r"/rooms/[^/?]+$"), cut_preloads)
    try:
        page.goto(link)
        page.locator("#connection[data-state='live']").wait_for(state="attached", timeout=30_000)
        live = page.evaluate("() => performance.now()")
        timing: dict[str, float] = page.evaluate(TIMING)
        return {**timing, "live": live}
    finally:
        context.close()


def measure(base: str, rounds: int, rtt: float) -> dict[str, Any]:
    link = spectator_link(base)
    runs: dict[str, list[dict[str, float]]] = {"preload": [], "plain": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            open_once(browser, link, rtt, plain=False)  # warm the server's caches
            for k in range(rounds):
                order = ("preload", "plain") if k % 2 == 0 else ("plain", "preload")
                for variant in order:
                    runs[variant].append(open_once(browser, link, rtt, variant == "plain"))
        finally:
            browser.close()
    result: dict[str, Any] = {"rtt_ms": rtt, "rounds": rounds}
    for variant, samples in runs.items():
        result[variant] = {
            key: round(statistics.median(s[key] for s in samples), 1)
            for key in ("dcl", "load", "live", "requests")
        }
    result["live_saved_ms"] = round(result["plain"]["live"] - result["preload"]["live"], 1)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rtt", type=float, default=80.0, help="emulated round trip, ms")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        servers = start_servers(f"sqlite:///{workdir / 'preload.sqlite3'}", 1, workdir)
        try:
            result = measure(servers[0].url, args.rounds, args.rtt)
        finally:
            stop_servers(servers)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"rtt {args.rtt:g} ms, medians of {args.rounds} cold loads each (ms from navigation)")
    for variant in ("preload", "plain"):
        r = result[variant]
        print(
            f"{variant:8} DOMContentLoaded {r['dcl']:7.1f}  load {r['load']:7.1f}"
            f"  live {r['live']:7.1f}  requests {r['requests']:g}"
        )
    print(f"live sooner with preload: {result['live_saved_ms']} ms")


if __name__ == "__main__":
    main()
