"""The board fragment the sockets send: its root, its controls per viewer, its drawing."""

from __future__ import annotations

import dataclasses
import json
import re

from support.boards import view_of

from app.reads.positions import takeback_entry
from app.reads.roomview import RoomEventEntry
from app.ui.board import render_board, result_text, turn_text
from app.ui.templates import script_json
from app.ui.words import words_for
from bench import games
from bench.games import Position

words = words_for("en")


def played(count: int) -> Position:
    """The position after `count` moves, each the first legal one that is not a sell."""
    return games.positions(count, lambda moves: next(m for m in moves if m.type != "sell"))[-1]


def test_the_fragment_root_is_the_board_with_its_version() -> None:
    state, log = played(4)
    html = render_board(view_of(state, 0, log))
    root = re.match(r"\s*<div ([^>]*)>", html)
    assert root is not None
    assert 'id="board"' in root.group(1)
    assert 'data-version="4"' in root.group(1)
    assert 'hx-swap-oob="true"' in root.group(1)


def test_players_get_controls_and_spectators_none() -> None:
    state, log = played(2)
    player = render_board(view_of(state, state.to_move, log))
    spectator = render_board(view_of(state, None, log))
    assert "hx-get=" in player and "<button" in player
    assert "hx-get=" not in spectator and "hx-post=" not in spectator
    assert "<button" not in spectator and "<form" not in spectator
    assert "2 spectators watching" in spectator


def test_text_from_outside_is_escaped() -> None:
    state, log = played(0)
    html = render_board(view_of(state, 0, log))
    assert "http://test/w/&lt;watch&gt;" in html
    assert "<watch>" not in html


def test_the_log_reads_newest_first() -> None:
    state, log = played(3)
    html = render_board(view_of(state, 0, log))
    entries = re.findall(r'data-seq="(\d+)"', html)
    assert entries == ["2", "1", "0"]
    assert "End of round A" in html


def test_turn_and_result_words_depend_on_who_looks() -> None:
    assert turn_text(words, 0, 0) == "Your turn"
    assert turn_text(words, 0, 1) == "Waiting for Player 1"
    assert turn_text(words, 1, None) == "Player 2 to move"
    assert turn_text(words, None, 0) == "Game over"
    assert result_text(words, None, 0) == "It's a draw!"
    assert result_text(words, 1, 1) == "You win!"
    assert result_text(words, 0, None) == "Player 1 wins!"


def test_the_computer_standing_in_is_thinking_in_the_absent_players_seat() -> None:
    state, log = played(1)
    absent = state.to_move
    assert absent == 1
    view = view_of(state, 0, log).with_facts(standin_seat=absent)
    html = render_board(view)
    banner = re.search(r'<p class="turn-banner([^"]*)" id="turn-banner"[^>]*>(.*?)</p>', html)
    assert banner is not None
    assert "thinking" in banner.group(1)
    assert banner.group(2) == "The computer is thinking for Player 2…"
    # once the present player is to move, their banner is theirs again
    state, log = played(2)
    html = render_board(view_of(state, 0, log).with_facts(standin_seat=absent))
    assert "The computer is thinking" not in html and ">Your turn<" in html


def test_the_log_numbers_only_the_moves() -> None:
    """Happenings and takebacks are notes without a number; a move's number is the step of the
    game it leads to, so the move played again after a takeback has the number it had."""
    state, log = played(3)
    first, second, third = log
    retaken = dataclasses.replace(third, seq=4)
    entries = (first, second, third, takeback_entry(3, third.seat, 1), retaken)
    events = (
        RoomEventEntry(seq=0, kind="seat_link_reissued", seat=1, at_version=1),
        RoomEventEntry(seq=1, kind="takeback_asked", seat=third.seat, at_version=3),
        RoomEventEntry(seq=2, kind="resigned", seat=0, at_version=5),
    )
    view = view_of(state, 0, entries).with_facts(events=events)
    html = render_board(view)
    log_list = re.search(r'<div class="log-list"[^>]*>(.*?)</div>', html, re.S)
    assert log_list is not None
    items = re.findall(r'<li class="log-entry ([^"]*)"[^>]*?(?: value="(\d+)")?>', log_list[1])
    assert [(cls.split()[-1], value) for cls, value in items] == [
        ("log-event", ""),  # resigned
        ("seat-" + str(retaken.seat), "3"),
        ("log-note", ""),  # the takeback
        ("log-event", ""),  # asked to take back
        ("seat-" + str(third.seat), "3"),
        ("seat-" + str(second.seat), "2"),
        ("log-event", ""),  # a new seat link
        ("seat-" + str(first.seat), "1"),
    ]


def test_json_in_a_script_element_cannot_close_it() -> None:
    """A value inside `<script>` is JSON with `<`, `>` and `&` escaped: a building id that reads
    `</script>` (a catalog file's) stays inside the element and reads back the same."""
    text = json.dumps({"building": "</script><img src=x onerror=alert(1)>&amp;"})
    written = str(script_json(text))
    assert "<" not in written and ">" not in written and "&" not in written
    assert json.loads(written) == json.loads(text)
