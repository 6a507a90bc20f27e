"""The round end's feeding on the Le Havre table (app/ui/lehavre/feeding.py): while it goes on,
every player in feeding order with what they owe, who pays now and what the paid ones gave (and
the loans a short payment took); through the round that follows, who paid what; in every language,
and drawn in the harbour part of the board."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.reads.games import entry_of
from app.reads.roomview import LogEntry
from app.ui.lehavre.feeding import Feeding, feeding
from app.ui.lehavre.table import table_context
from app.ui.lehavre.words import words_for
from app.ui.templates import environment_for
from engine.lehavre import State, apply, new_game, random_setup
from engine.lehavre.ai import choose
from engine.lehavre.flow import food_owed
from engine.lehavre.moves import Move
from engine.lehavre.rules import feed_choice

NAMES = ("Ann", "Bob", "Cid")


class Game:
    """A seeded 3-player game played by the heuristic player, with its log as a room keeps it."""

    def __init__(self, seed: int = 5) -> None:
        self.state: State = new_game(random_setup(3, seed=seed))
        self.log: list[LogEntry] = []
        self.rng = random.Random(seed)

    def play(self, move: Move | None = None) -> None:
        move = move if move is not None else choose(self.state, "heuristic", self.rng)
        self.log.append(entry_of(len(self.log), self.state.current, move.text()))
        self.state = apply(self.state, move)

    def until(self, phase: str) -> None:
        for _ in range(1000):
            if self.state.phase == phase:
                return
            self.play()
        raise AssertionError(f"no {phase} phase in 1,000 moves")

    def feeding(self, lang: str = "en") -> Feeding | None:
        return feeding(self.state, self.log, words_for(lang), NAMES)


def test_the_feeding_going_on_tells_who_owes_pays_and_paid() -> None:
    game = Game()
    assert game.feeding() is None  # the first round: no round end yet
    game.until("feed")
    first = game.feeding()
    assert first is not None and first.going_on and first.round == 1
    payer = game.state.current
    owed = food_owed(game.state, game.state.players[payer], game.state.cards[0])
    assert first.seats[0].seat == payer
    assert first.seats[0].state == "now" and f"owes {owed} food" in first.seats[0].said
    assert {f.state for f in first.seats[1:]} <= {"waiting", "free"}
    game.play(feed_choice(game.state))
    after = game.feeding()
    assert after is not None and after.seats[0].state == "paid"
    assert after.seats[0].said.startswith(f"owed {owed} food, paid ")


def test_a_short_payment_says_the_loans_it_took() -> None:
    game = Game()
    game.until("feed")
    seat = game.state.current
    broke = replace(game.state.players[seat], goods=(0,) * len(game.state.players[seat].goods))
    game.state = game.state.with_player(seat, broke)
    game.play(feed_choice(game.state))
    paid = next(f for f in game.feeding().seats if f.seat == seat)  # type: ignore[union-attr]
    assert paid.said == "owed 2 food, paid nothing and took 1 loan"


def test_who_paid_what_stays_through_the_next_round() -> None:
    game = Game()
    game.until("feed")
    game.until("main")
    over = game.feeding()
    assert over is not None and not over.going_on and over.round == 1
    assert all(f.said.startswith("paid ") or f.state == "free" for f in over.seats)
    while game.state.phase != "feed":
        assert game.feeding() == over or game.state.phase not in ("main", "after")
        game.play()
    assert game.feeding().round == 2  # type: ignore[union-attr]


@pytest.mark.parametrize("lang", ["en", "cs", "pt_BR"])
def test_the_feeding_is_drawn_in_every_language(lang: str) -> None:
    game = Game()
    game.until("feed")
    game.play(feed_choice(game.state))
    shown = game.feeding(lang)
    assert shown is not None
    html = (
        environment_for(lang)
        .get_template("lehavre/harbour.html")
        .render(t=table_context(game.state, 0, lang, NAMES, game.log), names=NAMES)
    )
    assert 'id="lh-feeding"' in html
    for fed in shown.seats:
        assert fed.said in html
    english = game.feeding("en")
    assert english is not None
    assert (shown.seats[0].said == english.seats[0].said) == (lang == "en")
