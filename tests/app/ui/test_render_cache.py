"""The board renderer reuses what it drew before (cards, tiles, log entries): never the wrong piece."""

from __future__ import annotations

import gc
import random
import re
from typing import Any

import babel.localedata
import pytest

import engine
from app.__main__ import warm_up_pages
from app.i18n import LANGUAGES, language
from app.reads.roomview import LogEntry, RoomView
from app.ui.board import render_board
from app.ui.cache import card_html, clear_caches, tile_html
from app.ui.templates import environment_for
from bench.games import Position, positions, sample_view


def game(seed: int, moves: int) -> list[Position]:
    """Every position of a seeded random game."""
    return positions(moves, random.Random(seed).choice)


def view(
    room: str, state: engine.GameState, log: tuple[LogEntry, ...], seat: int | None
) -> RoomView:
    return sample_view(room, state, log, seat, online=(True, False))


def same(html: str) -> str:
    """The board without its fresh client_move_ids (each render draws new ones)."""
    return re.sub(r'name="client_move_id" value="[0-9a-f]+"', "", html)


def cold(board: RoomView, lang: str = "en") -> str:
    clear_caches()
    return same(render_board(board, lang=lang))


def test_a_warm_render_equals_a_first_render_through_a_whole_game() -> None:
    clear_caches()
    positions = game(5, 60)
    warm = {}
    for index, (state, log) in enumerate(positions):
        for seat in (state.to_move, None):
            for lang in ("en", "cs"):
                html = same(render_board(view("r1", state, log, seat), lang=lang))
                if index % 15 == 0:
                    warm[(index, seat, lang)] = html
    for (index, seat, lang), html in warm.items():
        state, log = positions[index]
        assert html == cold(view("r1", state, log, seat), lang), (index, seat, lang)


def test_two_games_in_rooms_of_the_same_name_keep_their_own_log() -> None:
    clear_caches()
    state_a, log_a = game(1, 12)[-1]
    state_b, log_b = game(2, 12)[-1]
    first = same(render_board(view("room", state_a, log_a, None)))
    second = same(render_board(view("room", state_b, log_b, None)))
    assert second == cold(view("room", state_b, log_b, None))
    assert first == cold(view("room", state_a, log_a, None))
    assert first != second


def test_a_log_entry_is_drawn_once_per_language_and_kept_as_untracked_text() -> None:
    """A logged move's drawing stays on its entry as plain text, which the collector does not
    track (a memo of Markup under keys holding the entry was walked by every full pass); each
    language has its own, and `clear_caches` makes the next board draw it anew."""
    clear_caches()
    state, log = game(6, 9)[-1]
    english = render_board(view("r", state, log, None))
    czech = render_board(view("r", state, log, None), lang="cs")
    newest = log[-1]
    assert len(newest.drawn) == 2
    assert all(type(html) is str for html in newest.drawn.values())
    assert not gc.is_tracked(newest.drawn)
    english_entry, czech_entry = newest.drawn.values()
    assert english_entry in english and czech_entry in czech and english_entry != czech_entry
    kept = dict(newest.drawn)
    assert same(render_board(view("r", state, log, None))) == same(english)
    assert newest.drawn == kept  # taken from the entry, not drawn again
    clear_caches()
    assert same(render_board(view("r", state, log, None))) == same(english)
    assert len(newest.drawn) == 3  # drawn anew after clear_caches


def test_a_players_cards_link_to_the_panel_of_the_boards_own_room() -> None:
    """The tiles and cards are drawn once for every room: their links are relative, resolved
    against the board's ``data-room`` (static/js/panel.js)."""
    clear_caches()
    state, log = game(3, 20)[-1]
    seat = state.to_move
    one = render_board(view("room-one", state, log, seat))
    drawn = card_html.cache_info().currsize + tile_html.cache_info().currsize
    two = render_board(view("room-two", state, log, seat))
    assert card_html.cache_info().currsize + tile_html.cache_info().currsize == drawn
    assert 'data-room="room-one"' in one and "room-two" not in one
    assert 'data-room="room-two"' in two and "room-one" not in two
    links = re.findall(r'hx-get="([^"]*)"', one)
    assert links and links == re.findall(r'hx-get="([^"]*)"', two)
    assert all(link.startswith(("panel?building=", "/rooms/room-one/")) for link in links)
    assert any(link.startswith("panel?building=") for link in links)


def test_a_change_of_presence_or_links_is_drawn() -> None:
    clear_caches()
    state, log = game(4, 10)[-1]
    board = view("r", state, log, 0)
    before = render_board(board)
    after = render_board(board.with_facts(online=(True, True), spectators=3))
    assert "Player 2 away" in before and "Player 2 online" in after
    assert "3 spectators watching" in after


def test_remembered_translations_keep_escaping_and_language_apart() -> None:
    from markupsafe import Markup

    source = '{{ _("%(player)s (you)", player=name) }}|{{ ngettext("%(num)s franc", "%(num)s francs", n) }}'
    english = environment_for("en").from_string(source)
    czech = environment_for("cs").from_string(source)
    for _ in range(2):  # the second round comes from memory
        assert english.render(name="<b>", n=2) == "&lt;b&gt; (you)|2 francs"
        assert english.render(name=Markup("<b>"), n=2) == "<b> (you)|2 francs"
        assert english.render(name="<b>", n=1) == "&lt;b&gt; (you)|1 franc"
        assert czech.render(name="Eva", n=5) == "Eva (vy)|5 franků"


def test_after_the_warm_up_at_start_no_board_compiles_a_template_or_reads_locale_data(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`warm_up_pages` (what a server does at start) compiles every template of every language
    and reads their locale data, so no board drawn and no page rendered later waits for Jinja's
    compiler or for Babel's files."""
    warm_up_pages()

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"done after the start: {args}")

    for lang in LANGUAGES:
        monkeypatch.setattr(environment_for(lang), "compile", refuse)
    monkeypatch.setattr(babel.localedata, "load", refuse)
    clear_caches()
    for state, log in game(7, 60)[::6]:
        for seat in (state.to_move, None):
            for lang in LANGUAGES:
                assert 'id="board"' in render_board(view("r1", state, log, seat), lang=lang)
    for lang in LANGUAGES:
        assert language(lang).number(98765.25) and language(lang).join(["x", "y", "z"])
        env = environment_for(lang)
        for name in env.list_templates(extensions=["html"]):
            env.get_template(name)
