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

Most parts also have a *key*: the values from the board's context that the part is drawn from,
beyond what stays the same for one group of alike viewers (viewer, language, room). When the hub
draws a group's next board it passes the group's previous `BoardSummary`; a part whose key is the
same as then is neither drawn nor digested, its digest is taken over. Such a board can be sent as a
patch only (`DrawnBoard.complete` is false); the hub draws every part when a socket needs the whole
board. The log's newest moves change with every move and have no key; the room's life is keyed
by its `RoomLife` value (what it shows, and only that), so it is drawn only when that changed (a
count of actions to take back, a request, an opponent away), not after every move; the log's
earlier moves are keyed by the very log entries they show, which change once every eight moves.

The status bar's turn, scores and presence, each mat's header, wheel, warehouse, goods counts and
buildings off the wheel, and each round of the supply are *room-free*: their key holds everything
they show beyond the language and whether the viewer is a player, nothing of the room or its
version. They are remembered by process (`app.ui.cache.PARTS`), so a part drawn for one board is
taken as it is for any other board of any room that shows the same: the other player's, the
spectator's, another room's at the same point of its game.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Hashable, Iterator, Mapping
from functools import cache
from typing import Any

import jinja2
import jinja2.runtime
from markupsafe import Markup

from app.live.frames import SHELL_KEY, BoardSummary, DrawnBoard, frame_of, part_hash

from .cache import PARTS
from .supply import SupplyRound
from .templates import environment_for

#: Stands for a form's move id while a part is drawn and digested.
MOVE_ID_MARK = "\x01move-id\x01"
#: Stands for a part in the shell while the shell is drawn.
PART_MARK = "\x00"


def move_id_mark() -> str:
    return MOVE_ID_MARK


def fill_move_ids(html: str) -> str:
    if MOVE_ID_MARK not in html:
        return html
    pieces = html.split(MOVE_ID_MARK)
    return pieces[0] + "".join(secrets.token_hex(12) + rest for rest in pieces[1:])


#: The room-free parts (`PARTS`), by the start of their id.
ROOM_FREE = (
    "status-turn",
    "status-scores",
    "status-presence",
    "mat-head-",
    "mat-wheel-",
    "mat-store-",
    "mat-goods-",
    "mat-locked-",
    "overview-round-",
)


#: What a part is drawn from: the board's context and the values the part adds -> a hashable
#: value (None: draw it every time).
KeyOf = Callable[[Mapping[str, Any], Mapping[str, Any]], Hashable]


def _always(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    return None


def _labels(context: Mapping[str, Any]) -> Hashable:
    """What ``seat_label`` depends on beyond the language."""
    return (context["computer_name"], context["view"].facts.computer_seat)


def _links(context: Mapping[str, Any]) -> Hashable:
    view = context["view"]
    return (
        view.invite_link,
        view.spectator_link,
        view.seat_link,
        view.review_link,
        context["waiting_for_opponent"],
        bool(context["final"]),
    )


def _final(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    return None if context["final"] else ("none",)


def _scores(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    mats = tuple((m.seat, m.role, m.name, m.score) for m in context["mats"])
    return ("scores", mats, _labels(context))


def _presence(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    view = context["view"]
    return (
        "presence",
        tuple(view.facts.online),
        tuple(view.facts.seats_claimed),
        view.facts.spectators,
        _labels(context),
    )


def _life(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    """The room's life (templates/room_life.html) is drawn from its `RoomLife` value alone,
    beyond the viewer, language and room."""
    return ("life", context["life"])


def _turn(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    """The status bar's turn; drawn every time while the computer thinks (the games it has
    ahead of this one change on their own)."""
    if context["computer_turn"]:
        return None
    state = context["state"]
    standin = context["view"].facts.standin_seat if context["standin_turn"] else None
    return (
        ("turn", context["acting"], standin, context["turn_text"], bool(context["final"])),
        (state.round_letter, context["actions_left"], context["forecast"], state.catalog),
        _labels(context),
    )


def _pass(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    return None if context["pass_move"] else ("no pass",)  # its form carries the version


def _mat_head(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    m = extra["m"]
    return (m.seat, m.role, m.francs, m.score, _labels(context))


def _mat_wheel(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    m = extra["m"]
    return (m.seat, m.buildings, _labels(context), context["state"].catalog)


def _mat_store(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    m = extra["m"]
    return (m.seat, m.cells, m.name, context["warehouse"])


def _mat_locked(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    m = extra["m"]
    return (m.seat, tuple(b for b, age in m.buildings if age is None), context["state"].catalog)


def _mat_sell(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    m = extra["m"]
    if context["acting"] and m.role == "you" and context["sellable"]:
        return None  # its forms carry the version
    return ("none", m.seat)


def _log_earlier(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    """The moves before the newest ones: the very same log entries and happenings
    (`app.ui.cache.LogPieces`), so they are drawn once every `LOG_CHUNK` moves."""
    return ("log-earlier", context["log"].earlier_key)


def _round(context: Mapping[str, Any], extra: Mapping[str, Any]) -> Hashable:
    round_: SupplyRound = extra["round"]
    return round_.key


_MAT_KEYS: dict[str, KeyOf] = {
    "head": _mat_head,
    "wheel": _mat_wheel,
    "store": _mat_store,
    "goods": _mat_store,
    "locked": _mat_locked,
    "sell": _mat_sell,
}


def _sources(context: Mapping[str, Any]) -> Iterator[tuple[str, str, dict[str, Any], KeyOf]]:
    """(part id, template, the values it adds to the board's context, its key), in the board's
    order."""
    yield "round-track", "board/status_rounds.html", {}, lambda c, _: ("rounds", c["rounds"])
    yield "status-turn", "board/status_turn.html", {}, _turn
    yield "status-scores", "board/status_scores.html", {}, _scores
    yield "status-presence", "board/status_presence.html", {}, _presence
    yield "status-pass", "board/status_pass.html", {}, _pass
    yield "board-life", "board/life.html", {}, _life
    yield "board-invite", "board/invite.html", {}, lambda c, _: ("invite", _links(c))
    yield "board-final", "board/final.html", {}, _final
    for m in context["mats"]:
        for kind, key in _MAT_KEYS.items():
            yield f"mat-{kind}-{m.seat}", f"board/mat_{kind}.html", {"m": m}, key
    for index, round_ in enumerate(context["overview"]):
        yield (
            f"overview-round-{index}",
            "board/overview_round.html",
            {"round": round_, "index": index},
            _round,
        )
    yield "log-newest", "board/log.html", {"piece": "newest"}, _always
    yield "log-earlier", "board/log.html", {"piece": "earlier"}, _log_earlier
    yield "board-links", "board/links.html", {}, lambda c, _: ("links", _links(c))


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


def _draw_parts(
    context: dict[str, Any], lang: str, before: BoardSummary | None = None
) -> tuple[str, dict[str, str], dict[str, int], dict[str, int]]:
    """The board's frame, the HTML of the parts drawn, every part's digest and key (hashed).

    With `before` (the same group's previous board), a part whose key is unchanged is not drawn;
    a room-free part drawn for any board before is taken from `PARTS`.
    """
    values = {**environment_for(lang).globals, **context, "client_move_id": move_id_mark}
    marked: dict[str, str] = {}
    hashes: dict[str, int] = {}
    keys: dict[str, int] = {}
    for name, template, extra, key_of in _sources(context):
        raw_key = key_of(context, extra)
        key = key_hash(raw_key)
        memo = None
        if key is not None:
            keys[name] = key
            kept = kept_digest(before, name, key)
            if kept is not None:
                hashes[name] = kept
                continue
            if name.startswith(ROOM_FREE):
                memo = (name, lang, bool(context["is_player"]), raw_key)
                found = PARTS.get(memo)
                if found is not None:
                    marked[name], hashes[name] = found
                    continue
        html = _render(lang, template, values, extra)
        marked[name] = html
        hashes[name] = part_hash(html)
        if memo is not None:
            PARTS.put(memo, (html, hashes[name]))
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
