"""What the bare server (bench/baseline.py) sends per move, drawn by today's app and its size printed.

    .venv/bin/python bench/baseline_payloads.py             # rewrite both files, print their sizes
    .venv/bin/python bench/baseline_payloads.py --out DIR   # write them to DIR instead

It plays three seeded random games in memory (`bench/games.py`) and draws, as the app's sockets
send them, each viewer's board after every move (the player to move, the other player and a
spectator, in English): the first one whole, then only the parts each move changed
(`app.live.frames`). `baseline_patch.html` is the update of the median size among them.
`baseline_answer.html` is the page form's answer to a played move of the median size, drawn
from the same moves as `app.routes.panel` answers one: the panel's message, what the move did,
no board.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from games import positions, sample_view  # noqa: E402

from app.ui.board import draw_board  # noqa: E402
from app.ui.log import describe_events  # noqa: E402
from app.ui.templates import environment_for  # noqa: E402
from app.ui.words import words_for  # noqa: E402

PATCH_FILE = "baseline_patch.html"
ANSWER_FILE = "baseline_answer.html"
SEEDS = (1, 2, 3)
MOVES = 400
LANG = "en"


def median_of(texts: list[str]) -> str:
    """The text of the median size (in UTF-8 bytes; the lower one of an even count)."""
    median = statistics.median_low(len(text.encode()) for text in texts)
    return next(text for text in texts if len(text.encode()) == median)


def updates() -> list[str]:
    """Every update the sockets of three seeded random games would get after a move."""
    found = []
    for seed in SEEDS:
        game = positions(MOVES, random.Random(seed).choice)
        for seat in (0, 1, None):
            before = None
            for state, log in game:
                view = sample_view("r" * 22, state, log, seat, base_url="http://127.0.0.1:8000")
                board = draw_board(view, lang=LANG)
                if before is not None:
                    found.append(board.patch(before) or board.whole())
                before = board.summary()
    return found


def answers() -> list[str]:
    """The page form's answer to each move of the same games (templates/panel_message.html)."""
    words = words_for(LANG)
    template = environment_for(LANG).get_template("panel_message.html")
    found = []
    for seed in SEEDS:
        game = positions(MOVES, random.Random(seed).choice)
        for state, log in game[1:]:
            entry = log[-1]
            names = words.building_names(state.catalog)
            lines = describe_events(words, entry.events, names)
            found.append(
                template.render(
                    title=words.lang.gettext("Done"),
                    error=None,
                    lines=lines,
                    hint=None,
                    version=len(log),
                    board=None,
                )
            )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="the directory to write to")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, texts in ((PATCH_FILE, updates()), (ANSWER_FILE, answers())):
        text = median_of(texts)
        (args.out / name).write_text(text)
        print(f"{args.out / name}: {len(text.encode())} bytes, the median of {len(texts)}")


if __name__ == "__main__":
    main()
