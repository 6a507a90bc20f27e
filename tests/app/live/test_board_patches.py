"""Partial boards (app.live.frames, app.ui.parts): applying every update of a game in order to the
first whole board gives the very board drawn last."""

from __future__ import annotations

import json
import random
import re
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.dom_patch import apply, board_of, elements, normalised, parse

from app.i18n import LANGUAGES
from app.live.frames import PATCH_PREFIX, BoardSummary
from app.reads.roomview import RoomView
from app.ui import part_keys, parts
from app.ui.board import draw_board, render_board
from app.ui.cache import PARTS, PartMemo
from bench import games


def _no_move_ids(html: str) -> str:
    """A part with its forms' one-off move ids left out."""
    return re.sub(r'name="client_move_id" value="[0-9a-f]+"', "", html)


def _view(game: list[games.Position], at: int, seat: int | None, rng: random.Random) -> RoomView:
    state, log = game[at]
    # Presence and spectators come and go between moves too, and so does the room's life: a
    # takeback asked, a player away, the host's seat-link reissue.
    online = (rng.random() < 0.9, rng.random() < 0.8)
    view = games.sample_view("r1", state, log, seat, online=online, spectators=rng.randrange(3))
    return view.with_facts(
        takeback_seat=rng.choice([None, None, None, 0, 1]),
        absent=(rng.random() < 0.2, rng.random() < 0.2),
        host_seat=rng.choice([None, 0]),
        seats_held=(True, rng.random() < 0.8),
    )


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    seat=st.sampled_from([0, 1, None]),
    lang=st.sampled_from(sorted(LANGUAGES)),
    skip_rate=st.sampled_from([0.0, 0.3]),
)
def test_the_updates_of_a_game_rebuild_the_last_board(
    seed: int, seat: int | None, lang: str, skip_rate: float
) -> None:
    """The socket's rule: a patch on top of the board last sent, the whole board after a board
    it skipped (a slow socket sends only the newest)."""
    rng = random.Random(seed)
    game = games.positions(rng.randrange(20, 120), rng.choice)
    first = draw_board(_view(game, 0, seat, rng), lang=lang)
    page = parse(first.whole())
    sent: str = first.frame
    before: BoardSummary = first.summary()
    patches = 0
    last = len(game) - 1
    for at in range(1, len(game)):
        for _change in range(rng.choice([1, 1, 2])):  # a move, sometimes presence as well
            view = _view(game, at, seat, rng)
            board = draw_board(view, lang=lang)
            skipped = rng.random() < skip_rate and at < last
            if not skipped:
                if board.frame == sent:
                    message = None
                elif sent == before.frame:
                    message = board.patch(before) or board.whole()
                else:
                    message = board.whole()
                if message is not None:
                    patches += message.startswith(PATCH_PREFIX)
                    apply(page, message)
                    sent = board.frame
                    assert normalised(board_of(page)) == normalised(board_of(parse(board.whole())))
            before = board.summary()
    assert patches > 0
    final = parse(render_board(view, lang=lang))
    assert board_of(page).attrs["data-version"] == str(last)
    assert normalised(board_of(page)) == normalised(board_of(final))


def test_a_patch_carries_only_the_parts_that_changed() -> None:
    game = games.positions(12, random.Random(7).choice)
    before = draw_board(games.sample_view("r1", *game[10], None))
    after = draw_board(games.sample_view("r1", *game[11], None))
    patch = after.patch(before.summary())
    assert patch is not None and patch.startswith(PATCH_PREFIX)
    head = json.loads(patch[len(PATCH_PREFIX) : patch.index("-->")])
    assert head["base"] == before.frame and head["frame"] == after.frame
    assert head["version"] == "11"
    ids = [part.attrs["id"] for part in elements(parse(patch[patch.index("-->") + 3 :]))]
    changed = [name for name in after.parts if before.hashes[name] != after.hashes[name]]
    assert ids == changed
    assert "log-newest" in ids and "mat-head-1" in ids  # the mover's francs
    assert "mat-head-0" not in ids  # the turn passing is the board's data-to-move, not a header
    assert "log-earlier" not in ids  # moves 1-8 stay as they were
    assert "overview-round-11" not in ids  # the last round's supply is not touched yet
    assert len(patch) < len(after.whole()) / 2


def test_the_same_board_has_the_same_frame_and_the_forms_fresh_move_ids() -> None:
    game = games.positions(6, random.Random(3).choice)
    state, log = game[-1]
    view = games.sample_view("r1", state, log, state.to_move)
    one, two = draw_board(view), draw_board(view)
    assert one.frame == two.frame
    ids_one = one.whole().split('name="client_move_id" value="')[1:]
    ids_two = two.whole().split('name="client_move_id" value="')[1:]
    assert ids_one and ids_one != ids_two
    moved = draw_board(games.sample_view("r1", state, log, state.to_move, spectators=3))
    assert moved.frame != one.frame


def test_a_changed_shell_is_sent_whole() -> None:
    game = games.positions(4, random.Random(5).choice)
    board = draw_board(games.sample_view("r1", *game[3], 0))
    other = BoardSummary(board.frame + "x", board.shell + 1, board.hashes)
    assert board.patch(other) is None


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    seat=st.sampled_from([0, 1, None]),
    lang=st.sampled_from(sorted(LANGUAGES)),
)
def test_drawing_only_the_changed_parts_gives_the_same_board(
    seed: int, seat: int | None, lang: str
) -> None:
    """The hub's rule: on top of the board a socket shows, only the parts whose values changed
    are drawn; the board has the same frame and digests as one drawn whole, and its patch
    rebuilds the board drawn whole."""
    rng = random.Random(seed)
    game = games.positions(rng.randrange(20, 120), rng.choice)
    first = draw_board(_view(game, 0, seat, rng), lang=lang)
    page = parse(first.whole())
    before: BoardSummary = first.summary()
    skipped_parts = 0
    for at in range(1, len(game)):
        for _change in range(rng.choice([1, 1, 2])):
            view = _view(game, at, seat, rng)
            whole = draw_board(view, lang=lang)
            board = draw_board(view, lang=lang, before=before)
            assert (board.frame, board.shell) == (whole.frame, whole.shell)
            assert board.hashes == whole.hashes and board.keys == whole.keys
            skipped_parts += len(board.hashes) - len(board.parts)
            if board.frame != before.frame:
                message = board.patch(before)
                if message is None:  # the shell changed: drawn whole again
                    assert board.complete
                    message = board.whole()
                apply(page, message)
            assert normalised(board_of(page)) == normalised(board_of(parse(whole.whole())))
            before = board.summary()
    assert skipped_parts > 0


def test_a_board_of_the_changed_parts_goes_only_as_a_patch() -> None:
    game = games.positions(12, random.Random(7).choice)
    before = draw_board(games.sample_view("r1", *game[10], None))
    after = draw_board(games.sample_view("r1", *game[11], None), before=before.summary())
    assert not after.complete
    assert "overview-round-11" not in after.parts and "log-newest" in after.parts
    with pytest.raises(ValueError):
        after.whole()
    assert after.patch(before.summary()) is not None
    older = draw_board(games.sample_view("r1", *game[9], None)).summary()
    assert after.patch(older) is None or all(
        name in after.parts for name in after.hashes if older.hashes.get(name) != after.hashes[name]
    )


def test_what_the_player_may_act_on_is_listed_on_the_board_not_drawn_into_its_tiles() -> None:
    """A turn passing changes the marks (``data-playable``, applied by static/js/marks.js), not
    the wheels: the same tiles whether the player may act or the computer stands in."""
    game = games.positions(30, random.Random(3).choice)
    state, log = game[-1]
    seat = state.to_move
    assert seat is not None
    acting = draw_board(games.sample_view("r1", state, log, seat))
    waiting = draw_board(games.sample_view("r1", state, log, seat).with_facts(standin_seat=seat))
    assert acting.attrs["playable"] and not waiting.attrs["playable"]
    assert acting.frame != waiting.frame
    for part in ("mat-wheel-0", "mat-wheel-1", "mat-locked-0", "mat-locked-1"):
        assert acting.parts[part] == waiting.parts[part]
    assert "can-act" not in acting.whole()


@settings(max_examples=4, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    langs=st.lists(st.sampled_from(sorted(LANGUAGES)), min_size=3, max_size=3),
)
def test_a_part_found_drawn_in_the_process_is_the_part_drawn_anew(
    seed: int, langs: list[str]
) -> None:
    """The room-free and room-marked parts are remembered by process (`app.ui.cache.PARTS`) and
    taken by every board of every room that shows the same. Two rooms played side by side (both
    players and a spectator each, in their languages; the second against the computer): every
    board is the board drawn with nothing remembered, parts were taken, and every form of a
    room-marked part names its own room and version."""
    rng = random.Random(seed)
    rooms = [games.positions(rng.randrange(20, 90), rng.choice) for _ in range(2)]
    viewers = list(zip((0, 1, None), langs, strict=True))
    before: dict[tuple[int, int | None], BoardSummary] = {}
    taken = 0
    PARTS.clear()  # so that each part remembered counts in its length
    for at in range(max(len(game) for game in rooms)):
        for index, game in enumerate(rooms):
            for seat, lang in viewers if index == 0 else [viewers[0], viewers[2]]:
                view = _view(game, min(at, len(game) - 1), seat, rng)
                if index == 1:
                    view = view.with_facts(room_id="r2", computer="easy", computer_seat=1)
                last = before.get((index, seat))
                with mock.patch.object(parts, "PARTS", PartMemo(0)):
                    alone = draw_board(view, lang=lang, before=last)
                remembered = len(PARTS)
                board = draw_board(view, lang=lang, before=last)
                shared = part_keys.ROOM_FREE + part_keys.ROOM_MARKED
                free = [name for name in board.parts if name.startswith(shared)]
                taken += len(free) - (len(PARTS) - remembered)
                assert (board.frame, board.hashes, board.keys) == (
                    alone.frame,
                    alone.hashes,
                    alone.keys,
                )
                assert board.parts.keys() == alone.parts.keys()
                assert all(
                    _no_move_ids(board.parts[name]) == _no_move_ids(alone.parts[name])
                    for name in free
                )
                for html in board.parts.values():
                    assert parts.ROOM_MARK not in html and parts.VERSION_MARK not in html
                    assert set(re.findall(r"/rooms/([^/\"]+)/", html)) <= {view.room_id}
                    versions = re.findall(r'name="version" value="([^"]*)"', html)
                    assert set(versions) <= {str(view.version)}
                before[(index, seat)] = board.summary()
    assert taken > 0
