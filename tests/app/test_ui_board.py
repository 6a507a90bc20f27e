"""The board fragment the sockets send: its root, its controls per viewer, its drawing."""

from __future__ import annotations

import re

import engine
from app.roomview import LogEntry, RoomView
from app.ui.board import render_board, result_text, turn_text
from app.ui.words import words_for
from bench import games
from bench.games import Position

words = words_for("en")


def room_view(
    state: engine.GameState, viewer: int | None, log: tuple[LogEntry, ...] = ()
) -> RoomView:
    return games.room_view("room1", state, log, viewer, spectators=2, spectator_token="<watch>")


def played(count: int) -> Position:
    """The position after `count` moves, each the first legal one that is not a sell."""
    return games.positions(count, lambda moves: next(m for m in moves if m.type != "sell"))[-1]


def test_the_fragment_root_is_the_board_with_its_version() -> None:
    state, log = played(4)
    html = render_board(room_view(state, 0, log))
    root = re.match(r"\s*<div ([^>]*)>", html)
    assert root is not None
    assert 'id="board"' in root.group(1)
    assert 'data-version="4"' in root.group(1)
    assert 'hx-swap-oob="true"' in root.group(1)


def test_players_get_controls_and_spectators_none() -> None:
    state, log = played(2)
    player = render_board(room_view(state, state.to_move, log))
    spectator = render_board(room_view(state, None, log))
    assert "hx-get=" in player and "<button" in player
    assert "hx-get=" not in spectator and "hx-post=" not in spectator
    assert "<button" not in spectator and "<form" not in spectator
    assert "2 spectators watching" in spectator


def test_text_from_outside_is_escaped() -> None:
    state, log = played(0)
    html = render_board(room_view(state, 0, log))
    assert "http://test/w/&lt;watch&gt;" in html
    assert "<watch>" not in html


def test_the_log_reads_newest_first() -> None:
    state, log = played(3)
    html = render_board(room_view(state, 0, log))
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
