"""Page weight: everything a browser transfers for the first load of the table page.

Starts the server (or targets a running one with ``--url``), opens a room, seats the guest, plays
``--moves`` random legal moves through the JSON API (a mid-game table by default), then loads the
room page in a real Chromium (Debian's /usr/bin/chromium through Playwright) as the host, the
guest and a spectator, each with an empty cache. It adds up every HTTP response of that first load
(the HTML page, CSS, JS, vendored htmx, images, favicon: body and headers as transferred) and,
separately, the board the WebSocket sends on connect (htmx swaps it over the one already in the
page). Target: the HTTP total ≤ 150 KB.

    .venv/bin/python bench/page_weight.py
    .venv/bin/python bench/page_weight.py --moves 80 --screenshot /tmp/table.png --json

Chromium must exist at /usr/bin/chromium (see /work/shared/RECIPES.md); traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, Response, WebSocket, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chromium import CHROMIUM, CHROMIUM_ARGS
from load_servers import start_servers, stop_servers

TARGET_KB = 150


def prepare_room(base: str, moves: int, seed: int) -> dict[str, str]:
    """A room with both seats taken and ``moves`` random moves made; the three viewers' links."""
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=30) as client:
        created = client.post("/api/rooms", json={"host_seat": 0}).raise_for_status().json()
        invite = created["invite_link"].rsplit("/", 1)[1]
        claimed = client.post(f"/api/invites/{invite}").raise_for_status().json()
        tokens = {0: created["token"], 1: claimed["token"]}
        room = created["room"]
        for _ in range(moves):
            summary = client.get(
                f"/api/rooms/{room}", headers={"Authorization": f"Bearer {tokens[0]}"}
            ).json()
            seat = summary["summary"]["to_move"]
            if summary["finished"] or seat is None:
                break
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            legal = client.get(f"/api/rooms/{room}/legal", headers=auth).json()
            body = {
                "move": rng.choice(legal["moves"]),
                "version": legal["version"],
                "client_move_id": f"weight-{legal['version']}",
            }
            client.post(f"/api/rooms/{room}/moves", json=body, headers=auth).raise_for_status()
    return {
        "host": created["seat_link"],
        "guest": claimed["seat_link"],
        "spectator": created["spectator_link"],
    }


def first_load(page: Page, link: str) -> dict[str, Any]:
    """Open ``link`` (it sets the room's cookie and redirects to the table) and count the bytes."""
    responses: list[Response] = []
    frames: list[int] = []
    page.on("response", lambda response: responses.append(response))

    def on_socket(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: frames.append(len(payload)))

    page.on("websocket", on_socket)
    page.goto(link, wait_until="networkidle")
    deadline = time.monotonic() + 15
    while not frames and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    parts: list[dict[str, Any]] = []
    for response in responses:
        sizes = response.request.sizes()
        parts.append(
            {
                "url": response.url.split("://", 1)[1].split("/", 1)[1],
                "status": response.status,
                "body": sizes["responseBodySize"],
                "headers": sizes["responseHeadersSize"],
            }
        )
    http_bytes = sum(p["body"] + p["headers"] for p in parts)
    return {
        "http_kb": round(http_bytes / 1000, 1),
        "responses": parts,
        "socket_board_kb": round(frames[0] / 1000, 1) if frames else None,
        "within_target": http_bytes <= TARGET_KB * 1000,
    }


def measure(base: str, moves: int, seed: int, screenshot: str | None) -> dict[str, Any]:
    links = prepare_room(base, moves, seed)
    result: dict[str, Any] = {"moves": moves, "target_kb": TARGET_KB}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for viewer, link in links.items():
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                result[viewer] = first_load(page, link)
                if screenshot and viewer == "host":
                    page.screenshot(path=screenshot, full_page=True)
                context.close()
        finally:
            browser.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="target a running server instead of starting one")
    parser.add_argument("--moves", type=int, default=40, help="random moves before loading")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--screenshot", help="save the host's full page as this PNG")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON line")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        parser.error(f"Chromium is needed at {CHROMIUM}")
    workdir = Path(tempfile.mkdtemp(prefix="inland-weight-"))
    servers = []
    try:
        if args.url:
            base = args.url.rstrip("/")
        else:
            servers = start_servers(f"sqlite:///{workdir / 'weight.sqlite3'}", 1, workdir)
            base = servers[0].url
        result = measure(base, args.moves, args.seed, args.screenshot)
    finally:
        stop_servers(servers)
        shutil.rmtree(workdir, ignore_errors=True)
    if args.json:
        print(json.dumps(result))
    else:
        for viewer in ("host", "guest", "spectator"):
            figures = result[viewer]
            print(
                f"{viewer:>10}: {figures['http_kb']} KB over HTTP "
                f"({len(figures['responses'])} responses), then the socket's board "
                f"{figures['socket_board_kb']} KB"
            )
            for part in figures["responses"]:
                print(
                    f"{'':>12}{part['status']} /{part['url'][:60]:<60} "
                    f"{(part['body'] + part['headers']) / 1000:7.1f} KB"
                )
    ok = all(result[v]["within_target"] for v in ("host", "guest", "spectator"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
