"""The CPU time of drawing one Le Havre version's boards for all its viewers, as the hub does.

It plays a seeded game of four with the heuristic player in memory and, after each move, draws the
board of each seat and of a spectator (English) with one `Shared` memo per version and each
viewer's previous board, as `app.live.painters` draws a room's groups. It prints the mean CPU time
per version (five boards).

    .venv/bin/python bench/lehavre_draw.py                 # 240 moves, seed 3
    .venv/bin/python bench/lehavre_draw.py --moves 400 --seed 5
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.live.frames import BoardSummary
from app.reads.games import entry_of
from app.reads.roomview import LogEntry, RoomFacts, RoomView
from app.ui.cache import Shared
from app.ui.games import draw_board
from engine.lehavre import State, apply, new_game, random_setup
from engine.lehavre.ai import choose

SEATS = 4


def facts(version: int) -> RoomFacts:
    return RoomFacts(
        room_id="r" * 22,
        version=version,
        seats_claimed=(True,) * SEATS,
        online=(True,) * SEATS,
        spectators=1,
        open_invites=frozenset(),
        rematch_offered_by=(False, False),
        rematch_room_id=None,
        computer=None,
        computer_seat=None,
        seats_held=(True,) * SEATS,
        absent=(False,) * SEATS,
        game="lehavre",
        players=SEATS,
    )


def view(state: State, log: tuple[LogEntry, ...], seat: int | None) -> RoomView:
    return RoomView(
        facts=facts(len(log)),
        version=len(log),
        state=state,
        viewer_seat=seat,
        log=log,
        invite_link=None,
        spectator_link=None,
        seat_link=None,
        rematch=None,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=240)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    state, rng = new_game(random_setup(SEATS, seed=args.seed)), random.Random(args.seed)
    versions: list[tuple[State, tuple[LogEntry, ...]]] = []
    log: list[LogEntry] = []
    for n in range(args.moves):
        move = choose(state, "heuristic", rng)
        log.append(entry_of(n, state.current, move.text()))
        state = apply(state, move)
        versions.append((state, tuple(log)))
        if state.phase == "over":
            break
    before: dict[int | None, BoardSummary] = {}
    start = time.process_time()
    for state, played in versions:
        shared: Shared = {}
        for seat in (*range(SEATS), None):
            board = draw_board(view(state, played, seat), before=before.get(seat), shared=shared)
            before[seat] = board.summary()
    spent = (time.process_time() - start) / len(versions)
    print(f"{len(versions)} versions: {spent * 1000:.2f} ms CPU per version ({SEATS + 1} boards)")


if __name__ == "__main__":
    main()
