"""The board fragment the sockets send: its root, its controls per viewer, its drawing."""

from __future__ import annotations

import re

import engine
from app.roomview import LogEntry, RoomView
from app.views import WHEEL_BOX, render_board, tile_positions
from bench import games
from bench.games import Position


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


def test_tiles_stay_on_the_wheel_box() -> None:
    for sector in range(6):
        for count in range(1, 11):
            spots = tile_positions(sector, count)
            assert len(spots) == count
            for x, y in spots:
                assert 0 < x < 100 and 0 < y < 100
    assert WHEEL_BOX > 200
