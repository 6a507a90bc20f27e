"""The board's parts: each drawn on its own (templates/board/*.html), put into the shell
(templates/board.html), compared by digest from version to version (`app.boardframes`).

A part is an element with a stable id whose content a move may change: the status bar, the room's
life, the invitation, the game over, each mat's header, wheel, warehouse, no-action buildings and
sell row, each round of the supply, the log, the links. What stays put for a viewer (the mats'
frames and folds, the legend, the supply's heading) is the shell.

The forms' one-off move ids (``client_move_id()``) are drawn as a mark first, so a part's digest
depends only on what it shows; each mark is then filled in with a fresh id.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import jinja2
import jinja2.runtime
from markupsafe import Markup

from app.boardframes import DrawnBoard, frame_of, part_hash

from .templates import environment_for

#: Stands for a form's move id while a part is drawn and digested.
MOVE_ID_MARK = "\x01move-id\x01"
#: Stands for a part in the shell while the shell is drawn.
PART_MARK = "\x00"


def _move_id_mark() -> str:
    return MOVE_ID_MARK


def _fill_move_ids(html: str) -> str:
    if MOVE_ID_MARK not in html:
        return html
    pieces = html.split(MOVE_ID_MARK)
    return pieces[0] + "".join(secrets.token_hex(12) + rest for rest in pieces[1:])


def _sources(context: Mapping[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(part id, template, the values it adds to the board's context), in the board's order."""
    yield "board-status", "board/status.html", {}
    yield "board-life", "board/life.html", {}
    yield "board-invite", "board/invite.html", {}
    yield "board-final", "board/final.html", {}
    for m in context["mats"]:
        for kind in ("head", "wheel", "store", "locked", "sell"):
            yield f"mat-{kind}-{m.seat}", f"board/mat_{kind}.html", {"m": m}
    for index, round_ in enumerate(context["overview"]):
        yield (
            f"overview-round-{index}",
            "board/overview_round.html",
            {"round": round_, "index": index},
        )
    yield "board-log", "board/log.html", {}
    yield "board-links", "board/links.html", {}


def board_attrs(context: Mapping[str, Any]) -> dict[str, str]:
    """The board element's attributes that change from version to version."""
    to_move = context["state"].to_move
    return {
        "version": str(context["version"]),
        "toMove": "" if to_move is None else str(to_move),
        "acting": "true" if context["acting"] else "false",
        "class": context["board_class"],
    }


class _Parts:
    """The parts as board.html reads them: ``parts[id]`` and ``parts.frame``."""

    def __init__(self, frame: str, html: Mapping[str, str]) -> None:
        self.frame = frame
        self._html = html

    def __getitem__(self, name: str) -> Markup:
        return Markup(self._html[name])


class _Marks:
    """Stand-ins for the parts while the shell is drawn."""

    def __init__(self, frame: str) -> None:
        self.frame = frame

    def __getitem__(self, name: str) -> Markup:
        return Markup(f"{PART_MARK}{name}{PART_MARK}")


@cache
def _template(lang: str, name: str) -> jinja2.Template:
    """A template of the board, loaded once (the board is drawn ~30 templates at a time)."""
    return environment_for(lang).get_template(name)


def _render(lang: str, name: str, values: dict[str, Any]) -> str:
    """Render with `values` as they are: they already hold the environment's globals, so the
    context is not copied together from them and the globals for each of the ~30 parts."""
    template = _template(lang, name)
    return "".join(template.root_render_func(template.new_context(values, shared=True)))


def _draw_parts(context: dict[str, Any], lang: str) -> tuple[str, dict[str, str], dict[str, int]]:
    values = {**environment_for(lang).globals, **context, "client_move_id": _move_id_mark}
    marked = {
        name: _render(lang, template, {**values, **extra} if extra else values)
        for name, template, extra in _sources(context)
    }
    hashes = {name: part_hash(html) for name, html in marked.items()}
    frame = frame_of(hashes, board_attrs(context))
    return frame, {name: _fill_move_ids(html) for name, html in marked.items()}, hashes


@jinja2.pass_context
def on_page(context: jinja2.runtime.Context) -> _Parts:
    """``board_parts()`` in board.html: the parts of a board drawn inside a page (the room page,
    a move's answer, the review), from the page's context. (A function of the template's
    context, not a closure over the board's: a board's context must not refer to itself, or
    every board drawn would stay in memory until the cycle collector's next full pass.)"""
    values = context.get_all()
    frame, html, _hashes = _draw_parts(values, values["lang"])
    return _Parts(frame, html)


def draw(context: dict[str, Any], lang: str, *, oob: bool = True) -> DrawnBoard:
    """A board for the sockets: its parts, their digests and its shell."""
    frame, html, hashes = _draw_parts(context, lang)
    values = {**environment_for(lang).globals, **context, "parts": _Marks(frame), "oob": oob}
    shell = _render(lang, "board.html", values)
    pieces = tuple(shell.split(PART_MARK))
    return DrawnBoard(
        frame=frame,
        attrs=board_attrs(context),
        parts=html,
        hashes=hashes,
        pieces=pieces,
        shell=part_hash(PART_MARK.join(pieces[1:])),
    )
