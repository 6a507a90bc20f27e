"""The board's own morph (static/js/morph.js) against idiomorph, the library htmx's authors keep,
on the same boards in the same Chromium.

It draws the boards of seeded random games as a player sees them after every move (the app's own
drawing, `bench/games.py`), loads them into a page with the room's stylesheets, and brings the
shown board in line with each next one, by each morph in turn (alternating which goes first per
game): the time of the morph plus the style and layout it causes (read by asking for the page's
height), how many elements were put in new (an element put in new loses its focus, its text
selection and its transitions), and whether the result equals the drawn board. idiomorph is
fetched from the npm registry for the run (`npm pack`); nothing of it is kept.

    .venv/bin/python bench/morph_compare.py                 # 3 games of 120 moves, 3 rounds
    .venv/bin/python bench/morph_compare.py --games 2 --moves 60 --json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Route, sync_playwright

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from games import positions, sample_view  # noqa: E402

from app.ui.board import draw_board  # noqa: E402

IDIOMORPH = "idiomorph@0.8.0"
STATIC = HERE.parent / "static"
ORIGIN = "http://bench.local"
STYLES = ("tokens", "base", "room", "board", "wheel", "warehouse", "supply", "log", "panel")

PAGE = f"""<!doctype html><html><head><meta charset="utf-8">
{"".join(f'<link rel="stylesheet" href="/static/css/{name}.css">' for name in STYLES)}
<script type="module">
import {{ morph }} from "/static/js/morph.js";
import {{ Idiomorph }} from "/idiomorph.esm.js";
const apply = {{
  own: (shown, drawn) => morph(shown, drawn),
  idiomorph: (shown, drawn) => Idiomorph.morph(shown, drawn, {{ morphStyle: "outerHTML" }}),
}};
window.run = (boards, variant) => {{
  const host = document.getElementById("host");
  host.innerHTML = boards[0];
  document.body.offsetHeight;
  const times = [];
  let created = 0, unequal = 0;
  const seen = new MutationObserver(() => {{}});
  for (let i = 1; i < boards.length; i++) {{
    const template = document.createElement("template");
    template.innerHTML = boards[i];
    const drawn = template.content.firstElementChild;
    const expected = drawn.cloneNode(true);
    seen.observe(host, {{ childList: true, subtree: true }});
    const start = performance.now();
    apply[variant](host.firstElementChild, drawn);
    document.body.offsetHeight;
    times.push(performance.now() - start);
    for (const r of seen.takeRecords()) for (const n of r.addedNodes) if (n.nodeType === 1)
      created += 1 + n.querySelectorAll("*").length;
    seen.disconnect();
    if (!host.firstElementChild.isEqualNode(expected)) unequal += 1;
  }}
  return {{ times, created, unequal }};
}};
window.ready = true;
</script></head><body><main id="host"></main></body></html>"""


def boards(games: int, moves: int) -> list[list[str]]:
    """Each game's boards as the first player sees them, one after every move."""
    drawn = []
    for seed in range(1, games + 1):
        game = positions(moves, random.Random(seed).choice)
        views = (sample_view("r" * 22, state, log, 0) for state, log in game)
        drawn.append([draw_board(view, lang="en").whole() for view in views])
    return drawn


def fetch_idiomorph(workdir: Path) -> bytes:
    subprocess.run(
        ["npm", "pack", IDIOMORPH, "--silent"], cwd=workdir, check=True, stdout=subprocess.DEVNULL
    )
    packed = next(workdir.glob("idiomorph-*.tgz"))
    with tarfile.open(packed) as archive:
        member = archive.extractfile("package/dist/idiomorph.esm.js")
        assert member is not None
        return member.read()


def serve(page: Page, idiomorph: bytes) -> None:
    def answer(route: Route) -> None:
        path = route.request.url.removeprefix(ORIGIN)
        if path == "/":
            route.fulfill(body=PAGE, content_type="text/html")
        elif path == "/idiomorph.esm.js":
            route.fulfill(body=idiomorph, content_type="text/javascript")
        elif path.startswith("/static/") and ".." not in path:
            kind = "text/javascript" if path.endswith(".js") else "text/css"
            route.fulfill(
                body=(STATIC / path.removeprefix("/static/")).read_bytes(), content_type=kind
            )
        else:
            route.fulfill(status=404)

    page.route(f"{ORIGIN}/**", answer)
    page.goto(f"{ORIGIN}/")
    page.wait_for_function("window.ready === true")


def measure(games: list[list[str]], rounds: int, idiomorph: bytes) -> dict[str, Any]:
    runs: dict[str, dict[str, Any]] = {
        v: {"times": [], "created": 0, "unequal": 0} for v in ("own", "idiomorph")
    }
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            serve(page, idiomorph)
            for k in range(rounds):
                for g, game in enumerate(games):
                    order = ("own", "idiomorph") if (k + g) % 2 == 0 else ("idiomorph", "own")
                    for variant in order:
                        result = page.evaluate("([b, v]) => window.run(b, v)", [game, variant])
                        runs[variant]["times"] += result["times"]
                        runs[variant]["created"] += result["created"]
                        runs[variant]["unequal"] += result["unequal"]
        finally:
            browser.close()
    updates = rounds * sum(len(game) - 1 for game in games)
    out: dict[str, Any] = {"updates": updates}
    for variant, r in runs.items():
        times = sorted(r["times"])
        out[variant] = {
            "p50_ms": round(statistics.median(times), 2),
            "p90_ms": round(times[int(len(times) * 0.9)], 2),
            "mean_ms": round(statistics.fmean(times), 2),
            "elements_created_per_update": round(r["created"] / updates, 1),
            "unequal": r["unequal"],
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--moves", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    drawn = boards(args.games, args.moves)
    with tempfile.TemporaryDirectory() as tmp:
        idiomorph = fetch_idiomorph(Path(tmp))
    result = measure(drawn, args.rounds, idiomorph)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{result['updates']} updates of a whole board each, per morph")
    for variant in ("own", "idiomorph"):
        r = result[variant]
        print(
            f"{variant:10} p50 {r['p50_ms']:6.2f} ms  p90 {r['p90_ms']:6.2f} ms  mean {r['mean_ms']:6.2f} ms"
            f"  elements put in new {r['elements_created_per_update']:7.1f}  unequal {r['unequal']}"
        )


if __name__ == "__main__":
    main()
