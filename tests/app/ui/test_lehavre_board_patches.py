"""Le Havre's boards drawn on top of the group's board before (only the parts whose values changed
drawn again) are the boards drawn whole: the same frame, digests and keys, and their patches,
applied in order to the first whole board, rebuild the board drawn whole."""

from __future__ import annotations

import random

import pytest
from support.dom_patch import apply, board_of, normalised, parse

from app.live.frames import SHELL_KEY, BoardSummary
from app.reads.games import entry_of
from app.reads.roomview import LogEntry, RoomView
from app.ui.games import draw_board
from bench.lehavre_draw import SEATS, view
from engine.lehavre import State, new_game, random_setup
from engine.lehavre import apply as apply_move
from engine.lehavre.ai import choose


def _view(state: State, log: list[LogEntry], seat: int | None, rng: random.Random) -> RoomView:
    """The view of one version, with presence, spectators and the room's life come and gone."""
    return view(state, tuple(log), seat).with_facts(
        online=tuple(rng.random() < 0.8 for _ in range(SEATS)),
        absent=tuple(rng.random() < 0.1 for _ in range(SEATS)),
        spectators=rng.randrange(3),
        takeback_seat=rng.choice([None, None, None, 1]),
    )


@pytest.mark.parametrize(("seat", "lang"), [(0, "en"), (2, "cs"), (None, "pt_BR")])
def test_drawing_only_the_changed_parts_gives_the_same_board(seat: int | None, lang: str) -> None:
    state, rng = new_game(random_setup(SEATS, seed=5)), random.Random(5)
    log: list[LogEntry] = []
    first = draw_board(_view(state, log, seat, rng), lang=lang)
    page = parse(first.whole())
    before: BoardSummary = first.summary()
    skipped = 0
    for n in range(90):
        move = choose(state, "heuristic", rng)
        log.append(entry_of(n, state.current, move.text()))
        state = apply_move(state, move)
        now = _view(state, log, seat, rng)
        whole, board = draw_board(now, lang=lang), draw_board(now, lang=lang, before=before)
        assert (board.frame, board.shell) == (whole.frame, whole.shell), n
        assert board.hashes == whole.hashes and board.keys == whole.keys, n
        assert board.keys.keys() == {*board.hashes, SHELL_KEY}  # every part is keyed
        skipped += len(board.hashes) - len(board.parts)
        message = board.patch(before)
        if message is None:  # the shell changed: drawn whole again
            assert board.complete, n
            message = board.whole()
        apply(page, message)
        assert normalised(board_of(page)) == normalised(board_of(parse(whole.whole()))), n
        before = board.summary()
    assert skipped > 0
