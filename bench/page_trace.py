"""Where a watching page's time goes between a socket message and the frame that shows it: a
Chromium performance trace of the pages of `bench/browser_latency.py` over a few actions, summed
per trace event for the opponent's page (and the spectator's).

The game is played as in `bench/browser_latency.py` (one browser, three pages). For each action
the opponent's and the spectator's main thread (CrRendererMain of its renderer process) is cut
from the message's arrival to the end of the frame that showed it ("painted"), and the time of
each event in that window is added up by name: script (the message's handlers), style
(`UpdateLayoutTree`, with the elements it restyled), `Layout` (the layout objects it found
dirty), `PrePaint`, `Paint`, `Layerize`, `Commit`, the hover hit test. The time is the main
thread's CPU time in the event (the trace's `tdur`: on a loaded machine the wall time is mostly
waiting for a core). Events nested in another of the same name count once; an event's time
includes what is nested in it (a forced layout inside a handler counts in both). It also gives
each page's CPU per action over the whole game: its main thread, the rastering of its tiles
(worker threads) and its compositor thread.

    .venv/bin/python bench/page_trace.py --moves 16
    .venv/bin/python bench/page_trace.py --moves 16 --invalidations   # what made them dirty
    .venv/bin/python bench/page_trace.py --moves 16 --keep /tmp/trace.json

The tracing itself slows the pages: compare the shares, and the figures of one build with the
other's traced the same way, not with `bench/browser_latency.py`'s.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.appserver import AppServer
from bench.browser_latency import new_page, open_room, play_one
from bench.chromium import CHROMIUM, CHROMIUM_ARGS

CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "disabled-by-default-devtools.timeline.frame",
    "blink.user_timing",
    "v8.execute",
]
INVALIDATIONS = "disabled-by-default-devtools.timeline.invalidationTracking"

#: The events summed, and how each is shown.
EVENTS = {
    "RunTask": "main thread busy (all tasks)",
    "EventDispatch": "events (the socket message, …)",
    "FunctionCall": "script (handlers, callbacks)",
    "RunMicrotasks": "microtasks",
    "FireAnimationFrame": "animation-frame callbacks",
    "EvaluateScript": "script (evaluated)",
    "ParseHTML": "HTML parsing",
    "UpdateLayoutTree": "style",
    "Layout": "layout",
    "HitTest": "hit test",
    "PrePaint": "pre-paint",
    "Paint": "paint",
    "PaintImage": "paint: images and gradients",
    "Layerize": "layerize",
    "Commit": "commit",
    "UpdateLayer": "update layer",
}

#: Marks the page's clock against the trace's: `performance.mark` returns its time, and the
#: trace notes the mark at its own timestamp.
SYNC_MARK = """(name) => {
    const mark = performance.mark(name);
    return performance.timeOrigin + mark.startTime;
}"""


def sync(page: Page, name: str) -> float:
    return float(page.evaluate(SYNC_MARK, name))


def main_threads(events: list[dict[str, Any]]) -> dict[int, int]:
    """Renderer process id → its main thread's id."""
    found = {}
    for event in events:
        if (
            event.get("ph") == "M"
            and event.get("name") == "thread_name"
            and event["args"].get("name") == "CrRendererMain"
        ):
            found[event["pid"]] = event["tid"]
    return found


def windowed(events: list[dict[str, Any]], pid: int, tid: int) -> list[dict[str, Any]]:
    """The complete events ('X', or 'B'/'E' pairs joined) of one thread, sorted by start."""
    out: list[dict[str, Any]] = []
    stack: list[dict[str, Any]] = []
    for event in sorted(
        (e for e in events if e.get("pid") == pid and e.get("tid") == tid), key=lambda e: e["ts"]
    ):
        phase = event.get("ph")
        if phase == "X":
            out.append(event)
        elif phase == "B":
            stack.append(dict(event, dur=0))
        elif phase == "E" and stack:
            begun = stack.pop()
            begun["dur"] = event["ts"] - begun["ts"]
            begun["args"] = {**begun.get("args", {}), "end": event.get("args", {})}
            out.append(begun)
    out.sort(key=lambda e: e["ts"])
    return out


def summed(thread: list[dict[str, Any]], start: float, end: float) -> dict[str, Any]:
    """Per event name: its thread's CPU ms (outermost of each name only); and the style and
    layout sizes."""
    ms: dict[str, float] = collections.defaultdict(float)
    covered_until: dict[str, float] = collections.defaultdict(float)
    elements = dirty = total = 0
    for event in thread:
        if event["ts"] < start or event["ts"] > end or event["name"] not in EVENTS:
            continue
        name = event["name"]
        if event["ts"] < covered_until[name]:
            continue  # nested in one of its own name
        covered_until[name] = event["ts"] + event.get("dur", 0)
        ms[name] += min(event.get("tdur", event.get("dur", 0)), event.get("dur", 0)) / 1000
        args = event.get("args", {})
        if name == "UpdateLayoutTree":
            elements += int(args.get("elementCount", 0) or 0)
        if name == "Layout":
            begin = args.get("beginData", {})
            dirty += int(begin.get("dirtyObjects", 0) or 0)
            total = max(total, int(begin.get("totalObjects", 0) or 0))
    return {"ms": dict(ms), "elements": elements, "dirty": dirty, "total": total}


def invalidations(events: list[dict[str, Any]], pid: int, windows: list[tuple[float, float]]):
    """What made elements need style, layout or paint in the windows: (event, reason) → count."""
    counted: collections.Counter[str] = collections.Counter()
    for event in events:
        if event.get("pid") != pid or "InvalidationTracking" not in event.get("name", ""):
            continue
        if not any(a <= event["ts"] <= b for a, b in windows):
            continue
        data = event.get("args", {}).get("data", {})
        reason = data.get("reason") or data.get("changedClass") or data.get("changedId") or ""
        node = data.get("nodeName", "")
        counted[f"{event['name']}: {reason} ({node.split(' ')[0]})"] += 1
    return counted


def trace_game(url: str, moves: int, seed: int, path: Path, with_invalidations: bool):
    """Play `moves` actions under the trace; per action the opponent's and the spectator's
    (pid, arrival, painted) in the trace's µs."""
    rng = random.Random(seed)
    found: list[dict[str, tuple[str, float, float]]] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            host, guest, watcher = (new_page(browser) for _ in range(3))
            open_room(url, host, guest, watcher)
            names = {"host": host, "guest": guest, "spectator": watcher}
            categories = CATEGORIES + ([INVALIDATIONS] if with_invalidations else [])
            browser.start_tracing(page=host, path=str(path), categories=categories)
            clocks = {name: sync(page, "sync-" + name) for name, page in names.items()}
            for _ in range(moves):
                to_move = host.locator("#board").get_attribute("data-to-move")
                if to_move is None or host.locator(".game-over").count():
                    break
                mover, other = (host, guest) if to_move == "0" else (guest, host)
                seen, _sent = play_one(mover, [other, watcher], rng)
                other_name = "guest" if to_move == "0" else "host"
                found.append(
                    {
                        role: (name, marks["arrived"], marks["painted"])
                        for role, name, marks in (
                            ("opponent", other_name, seen[0]),
                            ("spectator", "spectator", seen[1]),
                        )
                        if "arrived" in marks
                    }
                )
                # play_one gives ms after the click: keep the click's time too.
                found[-1]["clicked"] = ("", float(mover.evaluate("() => window.__clicked")), 0.0)
            browser.stop_tracing()
        finally:
            browser.close()
    return found, clocks


def cpu_per_action(events: list[dict[str, Any]], pid_of: dict[str, int], actions: int):
    """Per page, the CPU time (ms per action over the whole traced game) of its main thread
    (every task), of rastering its tiles, and of its compositor thread."""
    threads = {
        (e["pid"], e["tid"]): e["args"].get("name", "")
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name"
    }
    kinds = {"CrRendererMain": "main", "Compositor": "compositor"}
    total: dict[str, float] = collections.defaultdict(float)
    page_of = {pid: name for name, pid in pid_of.items()}
    for event in events:
        page = page_of.get(event.get("pid", -1))
        if page is None or event.get("ph") != "X":
            continue
        thread = threads.get((event["pid"], event["tid"]), "")
        if event["name"] == "RasterTask":
            kind = "raster"
        elif event["name"] == "RunTask" and thread in kinds:
            kind = kinds[thread]
        else:
            continue
        total[f"{page} {kind}"] += min(event.get("tdur", event["dur"]), event["dur"]) / 1000
    return {key: round(ms / max(actions, 1), 2) for key, ms in sorted(total.items())}


def analyse(path: Path, found, clocks, with_invalidations: bool) -> dict[str, Any]:
    events = json.loads(path.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    marks = {e["name"]: e for e in events if e.get("name", "").startswith("sync-")}
    pid_of = {name[5:]: e["pid"] for name, e in marks.items()}
    # trace µs = (epoch ms − offset) × 1000, per page
    offset = {name: clocks[name] - marks["sync-" + name]["ts"] / 1000 for name in clocks}
    threads = main_threads(events)
    result: dict[str, Any] = {"cpu_ms_per_action": cpu_per_action(events, pid_of, len(found))}
    for role in ("opponent", "spectator"):
        rows, windows, pid = [], [], None
        for move in found:
            if role not in move:
                continue
            name, arrived, painted = move[role]
            clicked = move["clicked"][1]
            pid = pid_of[name]
            start = (clicked + arrived - offset[name]) * 1000
            end = (clicked + painted - offset[name]) * 1000 + 1000  # the frame's last task
            windows.append((start, end))
            rows.append(summed(windowed(events, pid, threads[pid]), start, end))
        if not rows:
            continue
        names = sorted({n for r in rows for n in r["ms"]}, key=lambda n: list(EVENTS).index(n))
        result[role] = {
            "actions": len(rows),
            "median_ms": {
                EVENTS[n]: round(statistics.median(r["ms"].get(n, 0.0) for r in rows), 2)
                for n in names
            },
            "restyled_elements_p50": statistics.median(r["elements"] for r in rows),
            "dirty_layout_objects_p50": statistics.median(r["dirty"] for r in rows),
            "layout_objects": max(r["total"] for r in rows),
        }
        if with_invalidations and pid is not None:
            result[role]["invalidations"] = dict(
                invalidations(events, pid, windows).most_common(25)
            )
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--invalidations", action="store_true", help="also trace what invalidated")
    parser.add_argument("--keep", type=Path, help="keep the trace file here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="inland-page-trace-") as data_dir:
        path = args.keep or Path(data_dir) / "trace.json"
        server = AppServer(Path(data_dir))
        server.start()
        try:
            found, clocks = trace_game(server.url, args.moves, args.seed, path, args.invalidations)
        finally:
            server.stop()
        print(json.dumps(analyse(path, found, clocks, args.invalidations), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
