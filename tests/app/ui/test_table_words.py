"""The table explains itself: payments in plain words, the legend of sectors, N and the
warehouse, in every language."""

from __future__ import annotations

import random

from app.ui.board import render_board
from app.ui.fields import payment_steps
from app.ui.words import words_for
from bench.games import positions, sample_view


def test_payments_read_as_moves_with_directions() -> None:
    en = words_for("en")
    assert payment_steps(en, {"fish": {"left": 1}}) == "move fish 1 step left"
    assert (
        payment_steps(en, {"fish": {"down": 1}, "grain": {"left": 2}})
        == "move fish 1 step down, grain 2 steps left"
    )
    assert payment_steps(en, {}) == "nothing"
    cs = words_for("cs")
    assert "o 5 polí doleva" in payment_steps(cs, {"clay": {"left": 5}})
    pt = words_for("pt_BR")
    assert "2 casas para baixo" in payment_steps(pt, {"wood": {"down": 2}})


def test_the_board_carries_a_legend_of_sectors_n_and_the_warehouse() -> None:
    state, log = positions(10, random.Random(2).choice)[-1]
    for lang, words in (
        ("en", ("How to read the table", "effect ×3", "sold at the end of the round", "N in")),
        ("cs", ("Jak číst stůl", "N v „×N“", "3 za každý řádek nahoru")),
        ("pt_BR", ("Como ler a mesa", "3 por linha para cima")),
    ):
        html = render_board(sample_view("r", state, log, None), lang=lang)
        for text in words:
            assert text in html, (lang, text)
