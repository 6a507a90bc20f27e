"""What the bare servers (bench/baseline.py, bench/baseline_lehavre.py) send per move, drawn by
today's app and their sizes printed.

    .venv/bin/python bench/baseline_payloads.py             # rewrite both files, print their sizes
    .venv/bin/python bench/baseline_payloads.py --out DIR   # write them to DIR instead

It plays three seeded random games in memory (`bench/games.py`) and draws, as the app's sockets
send them, each viewer's board after every move (the player to move, the other player and a
spectator, in English): the first one whole, then only the parts each move changed
(`app.live.frames`). `baseline_patch.html` is the update of the median size among them.
`baseline_answer.html` is the page form's answer to a played move of the median size, drawn
from the same moves as `app.routes.panel` answers one: the panel's message, what the move did,
no board.

`baseline_lehavre_patch.html` is the same for Le Havre (bench/baseline_lehavre.py): the update of
the median size after each move of three seeded random games of four players
(`app.ui.lehavre.board`), as each seat and a spectator would get it;
`baseline_lehavre_board.html` the whole board of the median size among the same positions, what
a socket gets when it opens or asks for it.
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

from app.reads.roomview import RoomFacts, RoomView  # noqa: E402
from app.ui.board import draw_board  # noqa: E402
from app.ui.lehavre import board as lehavre_board  # noqa: E402
from app.ui.log import describe_events  # noqa: E402
from app.ui.templates import environment_for  # noqa: E402
from app.ui.words import words_for  # noqa: E402
from engine.games import game  # noqa: E402

PATCH_FILE = "baseline_patch.html"
ANSWER_FILE = "baseline_answer.html"
LEHAVRE_PATCH_FILE = "baseline_lehavre_patch.html"
LEHAVRE_BOARD_FILE = "baseline_lehavre_board.html"
LEHAVRE_SEATS = 4
LEHAVRE_MOVES = 300
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


def lehavre_view(state: object, version: int, seat: int | None) -> RoomView:
    """A Le Havre room of four friends, every seat taken and online, as `seat` (None: a
    spectator) sees it."""
    seats = (True,) * LEHAVRE_SEATS
    facts = RoomFacts(
        room_id="r" * 22,
        version=version,
        seats_claimed=seats,
        online=seats,
        spectators=1,
        open_invites=frozenset(),
        rematch_offered_by=(False, False),
        rematch_room_id=None,
        computer=None,
        computer_seat=None,
        host_seat=0,
        seats_held=seats,
        absent=(False,) * LEHAVRE_SEATS,
        game="lehavre",
        players=LEHAVRE_SEATS,
    )
    base = "http://127.0.0.1:8000"
    player = seat is not None
    return RoomView(
        facts=facts,
        version=version,
        state=state,  # type: ignore[arg-type]
        viewer_seat=seat,
        log=(),
        invite_link=None,
        spectator_link=f"{base}/w/watch" if player else None,
        seat_link=f"{base}/s/seat" if player else None,
        rematch=None,
    )


def lehavre_updates() -> tuple[list[str], list[str]]:
    """Every update the sockets of three seeded random Le Havre games would get after a move,
    and every whole board of those games."""
    rules = game("lehavre")
    found, wholes = [], []
    for seed in SEEDS:
        rng = random.Random(seed)
        states = [rules.start(rules.random_setup(LEHAVRE_SEATS, "full", seed))]
        while len(states) <= LEHAVRE_MOVES and not rules.finished(states[-1]):
            states.append(rules.apply(states[-1], rng.choice(rules.legal_moves(states[-1]))))
        for seat in (*range(LEHAVRE_SEATS), None):
            before = None
            for version, state in enumerate(states):
                board = lehavre_board.draw_board(lehavre_view(state, version, seat), lang=LANG)
                if before is not None:
                    found.append(board.patch(before) or board.whole())
                wholes.append(board.whole())
                before = board.summary()
    return found, wholes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="the directory to write to")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    lehavre, lehavre_wholes = lehavre_updates()
    made = ((PATCH_FILE, updates()), (ANSWER_FILE, answers()), (LEHAVRE_PATCH_FILE, lehavre))
    for name, texts in (*made, (LEHAVRE_BOARD_FILE, lehavre_wholes)):
        text = median_of(texts)
        (args.out / name).write_text(text)
        print(f"{args.out / name}: {len(text.encode())} bytes, the median of {len(texts)}")


if __name__ == "__main__":
    main()
