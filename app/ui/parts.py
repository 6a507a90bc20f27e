"""The board's parts: each drawn on its own (templates/board/*.html), put into the shell
(templates/board.html), compared by digest from version to version (`app.live.frames`).

A part is an element with a stable id whose content a move may change: the status bar's round
track, turn, scores, presence and pass button, the room's life, the invitation, the game over, each
mat's header, wheel, warehouse counters, goods counts, no-action buildings and sell row, each round
of the supply, the log's newest moves and the moves before them, the links. What stays put for a
viewer (the mats' frames and folds, the warehouses' printed cells, the wheels' discs, the legend,
the supply's heading, the log's heading) is the shell.

The forms' one-off move ids (``client_move_id()``) are drawn as a mark first, so a part's digest
depends only on what it shows; each mark is then filled in with a fresh id.

Each part has a *key* (`app.ui.part_keys`): the values it is drawn from. When the hub draws a
group's next board it passes the group's previous `BoardSummary`; a part whose key is the same as
then is neither drawn nor digested, its digest is taken over. Such a board can be sent as a patch
only (`DrawnBoard.complete` is false); the hub draws every part when a socket needs the whole
board. The room-free and room-marked parts are remembered by process (`app.ui.cache.PARTS`) and
taken by any board of any room that shows the same; a room-marked part is drawn with the room's
id and version as marks (`ROOM_MARK`, `VERSION_MARK`), filled in for each board before it is
digested.
"""

from __future__ import annotations

import secrets
from collections.abc import Hashable, Mapping
from functools import cache
from typing import Any, cast

import jinja2
import jinja2.runtime
from markupsafe import Markup

from app.live.frames import SHELL_KEY, BoardSummary, DrawnBoard, frame_of, part_hash

from .cache import PARTS
from .part_keys import ROOM_FREE, ROOM_MARKED, sources
from .templates import environment_for

#: Stands for a form's move id while a part is drawn and digested.
MOVE_ID_MARK = "\x01move-id\x01"
#: Stands for a part in the shell while the shell is drawn.
PART_MARK = "\x00"
#: Stand for the room's id and version while a room-marked part is drawn.
ROOM_MARK = "\x02room\x02"
VERSION_MARK = "\x02version\x02"


def move_id_mark() -> str:
    return MOVE_ID_MARK


def fill_move_ids(html: str) -> str:
    if MOVE_ID_MARK not in html:
        return html
    pieces = html.split(MOVE_ID_MARK)
    return pieces[0] + "".join(secrets.token_hex(12) + rest for rest in pieces[1:])


#: The values a room-marked part is drawn with in place of the room's id and version.
_ROOM_MARKS = {"room_id": ROOM_MARK, "version": VERSION_MARK}


def _fill_room(html: str, context: Mapping[str, Any]) -> str:
    """A room-marked part with the board's room id and version in place of their marks."""
    return html.replace(ROOM_MARK, context["room_id"]).replace(
        VERSION_MARK, str(context["version"])
    )


def _shell_key(context: Mapping[str, Any], oob: bool) -> Hashable:
    """What the shell after the board element's opening tag is drawn from (templates/board.html)."""
    return (
        oob,
        context["is_player"],
        tuple((m.seat, m.role) for m in context["mats"]),
        context["sector_hints"],
        len(context["overview"]),
        id(context["warehouse"]),
    )


def key_hash(key: Hashable) -> int | None:
    """A part's key as the board keeps it (None: the part is drawn every time)."""
    if key is None:
        return None
    try:
        return hash(key)
    except TypeError:  # a value that cannot be hashed: draw the part every time
        return None


def kept_digest(before: BoardSummary | None, name: str, key: int | None) -> int | None:
    """The digest of part `name` in the group's board before, if it was drawn from the same key
    (None: draw it)."""
    if key is None or before is None or before.keys.get(name) != key:
        return None
    return before.hashes.get(name)


def board_attrs(context: Mapping[str, Any]) -> dict[str, str]:
    """The board element's attributes that change from version to version."""
    to_move = context["state"].to_move
    return {
        "version": str(context["version"]),
        "toMove": "" if to_move is None else str(to_move),
        "acting": "true" if context["acting"] else "false",
        "playable": context["playable"],
        "class": context["board_class"],
    }


class _Parts:
    """The parts as board.html reads them: ``parts[id]`` and ``parts.frame``."""

    def __init__(self, frame: str, html: Mapping[str, str]) -> None:
        self.frame = frame
        self._html = html

    def __getitem__(self, name: str) -> Markup:
        return Markup(self._html[name])


class Marks:
    """Stand-ins for the parts while the shell is drawn."""

    def __init__(self, frame: str) -> None:
        self.frame = frame

    def __getitem__(self, name: str) -> Markup:
        return Markup(f"{PART_MARK}{name}{PART_MARK}")


@cache
def _template(lang: str, name: str) -> jinja2.Template:
    """A template of the board, loaded once (the board is drawn ~30 templates at a time)."""
    return environment_for(lang).get_template(name)


def _render(
    lang: str, name: str, values: dict[str, Any], extra: Mapping[str, Any] | None = None
) -> str:
    """Render with `values` as they are: they already hold the environment's globals, so the
    context is not copied together from them and the globals for each of the ~30 parts. The
    context is made without the template's globals (a chain of the template's and the
    environment's, listed whole for every context made): the board's templates have none of
    their own, so their imports see the same globals either way. A part's own values (`extra`)
    are the context's variables, which a name is looked up in first."""
    template = _template(lang, name)
    context = jinja2.runtime.new_context(
        template.environment, template.name, template.blocks, values, shared=True
    )
    if extra:
        context.vars.update(extra)
    return "".join(template.root_render_func(context))


def render_template(lang: str, name: str, values: dict[str, Any]) -> str:
    """A board template drawn with `values` and the language's globals (a game's own board)."""
    return _render(lang, name, {**environment_for(lang).globals, **values})


def _remembered(
    memo: tuple[str, str, bool, Hashable],
    template: str,
    values: dict[str, Any],
    extra: Mapping[str, Any],
) -> tuple[str, int]:
    """A part remembered by process (`PARTS`) by (id, language, viewer plays, key), drawn when no
    board drew it before, with marks for the room's id and version (a room-free part shows
    neither; a room-marked part has them filled in for each board)."""
    found = PARTS.get(memo)
    if found is None:
        html = _render(memo[1], template, values, {**extra, **_ROOM_MARKS})
        found = (html, part_hash(html))
        PARTS.put(memo, found)
    return found


def _draw_parts(
    context: dict[str, Any], lang: str, before: BoardSummary | None = None
) -> tuple[str, dict[str, str], dict[str, int], dict[str, int]]:
    """The board's frame, the HTML of the parts drawn, every part's digest and key (hashed).

    With `before` (the same group's previous board), a part whose key is unchanged is not drawn;
    a room-free or room-marked part drawn for any board before is taken from `PARTS`.
    """
    values = {**environment_for(lang).globals, **context, "client_move_id": move_id_mark}
    marked: dict[str, str] = {}
    hashes: dict[str, int] = {}
    keys: dict[str, int] = {}
    is_player = bool(context["is_player"])
    for name, template, extra, key_of in sources(context):
        raw_key = key_of(context, extra)
        key = key_hash(raw_key)
        if key is not None:
            keys[name] = key
            kept = kept_digest(before, name, key)
            if kept is not None:
                hashes[name] = kept
                continue
        if key is not None and name.startswith(ROOM_MARKED):
            shown, _version = cast(tuple[Hashable, int | None], raw_key)
            drawn, _digest = _remembered((name, lang, is_player, shown), template, values, extra)
            html = _fill_room(drawn, context)
            digest = part_hash(html)
        elif key is not None and name.startswith(ROOM_FREE):
            memo = (name, lang, is_player, raw_key)
            html, digest = _remembered(memo, template, values, extra)
        else:
            html = _render(lang, template, values, extra)
            digest = part_hash(html)
        marked[name], hashes[name] = html, digest
    frame = frame_of(hashes, board_attrs(context))
    return frame, {name: fill_move_ids(html) for name, html in marked.items()}, hashes, keys


@jinja2.pass_context
def on_page(context: jinja2.runtime.Context) -> _Parts:
    """``board_parts()`` in board.html: the parts of a board drawn inside a page (the room page,
    a refused move's answer, the review), from the page's context. (A function of the template's
    context, not a closure over the board's: a board's context must not refer to itself, or
    every board drawn would stay in memory until the cycle collector's next full pass.)"""
    values = context.get_all()
    frame, html, _hashes, _keys = _draw_parts(values, values["lang"])
    return _Parts(frame, html)


def draw(
    context: dict[str, Any],
    lang: str,
    *,
    oob: bool = True,
    before: BoardSummary | None = None,
) -> DrawnBoard:
    """A board for the sockets: its parts, their digests and its shell. With `before` (the same
    group's previous board) only the parts drawn from changed values are drawn: the board may
    then be sent as a patch on top of `before` only (`DrawnBoard.complete`)."""
    frame, html, hashes, keys = _draw_parts(context, lang, before)
    shell_key = key_hash(_shell_key(context, oob))
    if shell_key is not None:
        keys[SHELL_KEY] = shell_key
    if (
        before is not None
        and shell_key is not None
        and before.keys.get(SHELL_KEY) == shell_key
        and len(html) < len(hashes)
    ):
        pieces: tuple[str, ...] = ()
        shell = before.shell
    else:
        values = {**environment_for(lang).globals, **context, "parts": Marks(frame), "oob": oob}
        pieces = tuple(_render(lang, "board.html", values).split(PART_MARK))
        shell = part_hash(PART_MARK.join(pieces[1:]))
    return DrawnBoard(
        frame=frame,
        attrs=board_attrs(context),
        parts=html,
        hashes=hashes,
        pieces=pieces,
        shell=shell,
        keys=keys,
    )
