"""A standalone HTML page of the Le Havre table and its move panel, for looking at and screenshots.

Plays a seeded game forward (a random policy that prefers entering buildings and buying, so the
table fills up), then renders `app.ui.lehavre` for the player to move, with the page's CSS inlined
(the site's tokens, base and room stylesheets, then static/css/lehavre.css): the file opens anywhere, no server needed.

    .venv/bin/python bench/lehavre_table_preview.py --players 4 --seed 7 --moves 120 -o /tmp/lh.html
    .venv/bin/python bench/lehavre_table_preview.py --lang cs --viewer 0
    .venv/bin/python bench/lehavre_table_preview.py --screenshot /tmp/lehavre-table.png --width 1280
    .venv/bin/python bench/lehavre_table_preview.py --axe      # serious and critical axe findings

Screenshots and axe (axe-playwright-python) run in Debian's Chromium, /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.ui.lehavre.panel import panel_context  # noqa: E402
from app.ui.lehavre.table import table_context  # noqa: E402
from app.ui.templates import environment_for  # noqa: E402
from engine.lehavre import State, apply, legal_moves, new_game, random_setup  # noqa: E402

WEIGHTS = {"enter": 6, "buy": 2, "take": 4, "feed": 10, "sell": 0.2, "repay": 1, "end": 3}
"""How much the policy likes each kind of move (enough building and buying to fill a table)."""

PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Le Havre</title><style>{css}</style></head>
<body><main id="main" class="lh-page"><h1 class="visually-hidden">Le Havre</h1>{table}{panel}</main></body></html>
"""


def play(players: int, seed: int, moves: int) -> State:
    """The position after ``moves`` moves of a seeded random game (fewer if it ends first)."""
    state = new_game(random_setup(players, seed=seed))
    rng = random.Random(seed)
    for _ in range(moves):
        if state.phase == "over":
            break
        options = legal_moves(state)
        weights = [WEIGHTS[m.type] for m in options]
        state = apply(state, rng.choices(options, weights)[0])
    return state


def page(state: State, viewer: int | None, lang: str) -> str:
    env = environment_for(lang)
    table = env.get_template("lehavre/table.html").render(t=table_context(state, viewer, lang))
    panel_ctx = panel_context(state, viewer, lang, action="/moves")
    panel = env.get_template("lehavre/panel.html").render(panel=panel_ctx) if panel_ctx else ""
    css = "\n".join(
        (ROOT / "static" / "css" / name).read_text(encoding="utf-8")
        for name in ("tokens.css", "base.css", "room.css", "lehavre.css")
    )
    return PAGE.format(lang=lang.replace("_", "-"), css=css, table=table, panel=panel)


def in_browser(html: Path, width: int, shot: Path | None, axe: bool) -> list[str]:
    """Open the page in Chromium at ``width``: a full-page screenshot to ``shot``, and with
    ``axe`` the serious and critical accessibility violations, one line each."""
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import sync_playwright

    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
    args += ["--disable-component-update", "--no-first-run", "--disable-sync"]
    found = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        view = browser.new_page(viewport={"width": width, "height": 900})
        view.goto(html.resolve().as_uri())
        if shot:
            view.screenshot(path=str(shot), full_page=True)
        if axe:
            for v in Axe().run(view).response["violations"]:
                if v["impact"] in ("serious", "critical"):
                    found.append(f"{v['impact']}: {v['id']} ({len(v['nodes'])} nodes) {v['help']}")
        browser.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--moves", type=int, default=120)
    parser.add_argument("--viewer", type=int, default=None, help="default: the player to move")
    parser.add_argument("--lang", default="en")
    parser.add_argument("-o", "--out", type=Path, default=Path("/tmp/lehavre_table.html"))
    parser.add_argument("--screenshot", type=Path, default=None)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--axe", action="store_true")
    a = parser.parse_args()
    state = play(a.players, a.seed, a.moves)
    viewer = a.viewer if a.viewer is not None else state.current
    a.out.write_text(page(state, viewer, a.lang), encoding="utf-8")
    print(f"{a.out}: round {state.round}, phase {state.phase}, viewer {viewer}")
    if a.screenshot or a.axe:
        found = in_browser(a.out, a.width, a.screenshot, a.axe)
        if a.axe:
            print("\n".join(found) or "axe: no serious or critical violation")


if __name__ == "__main__":
    main()
