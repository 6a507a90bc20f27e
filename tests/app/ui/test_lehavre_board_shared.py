"""Le Havre's boards for the viewers of one version, drawn with one `Shared` memo as the hub draws
them (the harbour, the buildings and the other players' areas drawn once), are the boards each
viewer gets drawn alone."""

from __future__ import annotations

import random

from app.reads.games import entry_of
from app.ui.cache import Shared
from app.ui.games import draw_board
from bench.lehavre_draw import SEATS, view
from engine.lehavre import apply, new_game, random_setup
from engine.lehavre.ai import choose


def test_boards_drawn_with_one_memo_are_the_boards_drawn_alone() -> None:
    state, rng, log = new_game(random_setup(SEATS, seed=3)), random.Random(3), []
    for n in range(120):
        move = choose(state, "heuristic", rng)
        log.append(entry_of(n, state.current, move.text()))
        state = apply(state, move)
        if n % 17:
            continue
        shared: Shared = {}
        for lang in ("en", "cs"):
            for seat in (*range(SEATS), None):
                alone = draw_board(view(state, tuple(log), seat), lang=lang)
                memo = draw_board(view(state, tuple(log), seat), lang=lang, shared=shared)
                assert memo.hashes == alone.hashes and memo.frame == alone.frame, (n, lang, seat)
        assert shared  # the memo was used
