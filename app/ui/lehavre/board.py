"""The Le Havre board of one viewer, in parts, for the room page and the sockets (`app.live.frames`).

The board element (``id="board"``, templates/lehavre/board.html) holds the parts: the seats (who
plays, who is here, the invite links while a seat is free), the status, the harbour (offers, supply
tiles, the round card), the buildings (proposals, town, ships), each player's area, and the move
panel of the player to move, and the room's life (takeback, resign, abort: `app.ui.lehavre.life`). Each part is drawn whole and digested; a socket gets the parts whose
digest changed (a patch), as Inland Port's board (`app.ui.parts`). Each part and the shell are keyed by
the values they are drawn from: given the group's board before, one whose key is unchanged is not
drawn again (the board then goes as a patch only).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from app.i18n import DEFAULT_LANGUAGE, LANGUAGES, Language, language
from app.live.frames import SHELL_KEY, BoardSummary, DrawnBoard, frame_of, part_hash
from app.reads.roomview import RoomView
from app.ui.cache import Shared
from app.ui.lehavre.life import life_of
from app.ui.lehavre.panel import panel_context
from app.ui.lehavre.table import seat_name, table_context
from app.ui.parts import (
    PART_MARK,
    Marks,
    fill_move_ids,
    kept_digest,
    key_hash,
    move_id_mark,
    render_template,
)
from app.ui.words import words_for
from engine.lehavre import State, scores

#: (part id, template), in the board's order; "lh-player-N" for each seat comes from `_sources`.
_FIXED_PARTS = (
    ("lh-seats", "lehavre/seats.html"),
    ("lh-life", "lehavre/life_part.html"),
    ("lh-status", "lehavre/status_part.html"),
    ("lh-harbour", "lehavre/harbour.html"),
    ("lh-buildings", "lehavre/buildings.html"),
)


def position_of(view: RoomView) -> State:
    """The view's position, a Le Havre one (the room's game says so)."""
    state: object = view.state
    if not isinstance(state, State):
        raise TypeError(f"room {view.room_id} does not play Le Havre")
    return state


def board_context(view: RoomView, *, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """What templates/lehavre/board.html and its parts are drawn from."""
    state = position_of(view)
    t = language(lang)
    names = tuple(seat_name(t, seat, None) for seat in range(view.facts.players))
    table = table_context(state, view.viewer_seat, lang, names, view.moves_in_force())
    action = f"/rooms/{view.room_id}/moves"
    started = all(view.facts.seats_claimed)
    ending = view.facts.ending
    panel = (
        panel_context(
            state, view.viewer_seat, lang, action=action, version=view.version, names=names
        )
        if started and ending is None
        else None
    )
    return {
        "view": view,
        "t": table,
        "panel": panel,
        "names": names,
        "room_id": view.room_id,
        "version": view.version,
        "started": started,
        "over": state.phase == "over" or ending is not None,
        "ending": ending,
        "computers": dict(view.facts.computers),
        "resigned": {e.seat for e in view.facts.events if e.kind == "resigned"},
        "strength_names": strength_names(t),
        "scores": _scores(state) if state.phase == "over" else None,
        "life": life_of(view, words_for(lang)),
        "viewer_seat": view.viewer_seat,
        "rematch_asked": _rematch_asked(view, names),
    }


def _rematch_asked(view: RoomView, names: tuple[str, ...]) -> str:
    """The names of the players who asked for a rematch, joined ("" none)."""
    if view.rematch is None:
        return ""
    return ", ".join(names[seat] for seat, asked in enumerate(view.rematch.offered_by) if asked)


def strength_names(t: Language) -> dict[str, str]:
    """The computer player's strengths in words."""
    return {
        "heuristic": t.gettext("the computer, steady"),
        "strong": t.gettext("the computer, strong"),
    }


def _scores(state: State) -> list[tuple[int, int]]:
    """(seat, fortune) best first, once the game is over."""
    return sorted(enumerate(scores(state)), key=lambda pair: -pair[1])


def board_attrs(context: dict[str, Any]) -> dict[str, str]:
    state = position_of(context["view"])
    to_move = "" if context["over"] else str(state.current)
    acting = context["panel"] is not None
    return {
        "version": str(context["version"]),
        "toMove": to_move,
        "acting": "true" if acting else "false",
        "playable": "true" if acting else "",
        "class": "board lh-board" + (" is-acting" if acting else ""),
    }


def _sources(context: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    sources: list[tuple[str, str, dict[str, Any]]] = [(n, tpl, {}) for n, tpl in _FIXED_PARTS]
    for area in context["t"].areas:
        sources.append((f"lh-player-{area.seat}", "lehavre/area_part.html", {"a": area}))
    sources.append(("lh-move", "lehavre/move_part.html", {}))
    return sources


#: The parts every viewer of a language sees alike (the harbour, the buildings).
_ALIKE = frozenset({"lh-harbour", "lh-buildings"})


def _alike(name: str, extra: dict[str, Any], lang: str) -> tuple[str, str, bool, None] | None:
    """The `Shared` memo of a part drawn alike for other viewers of the same version: the
    harbour and the buildings for all of them, a player's area for all but that player."""
    if name in _ALIKE:
        return (name, lang, False, None)
    if name.startswith("lh-player-"):
        return (name, lang, bool(extra["a"].is_viewer), None)
    return None


def _key(name: str, context: dict[str, Any], extra: dict[str, Any]) -> Hashable:
    """What a part is drawn from (None: draw it every time): the templates it includes read
    nothing else. A key is compared only with the key of the same room's board before for the
    same group of viewers, so the room, the language and the viewer are in none of them."""
    t, names, view = context["t"], context["names"], context["view"]
    if name.startswith("lh-player-"):
        return (extra["a"], names)
    if name == "lh-harbour":
        return (t.offers, t.tiles, t.round, t.feeding, names)
    if name == "lh-buildings":
        return (t.stacks, t.town, t.specials_left, t.piles, names)
    if name == "lh-status":
        return (t.status, names)
    if name == "lh-move":
        return (context["panel"],)
    if name == "lh-life":
        return (context["life"], view.rematch, context["rematch_asked"])
    if name == "lh-seats":
        facts = view.facts
        return (
            (facts.players, facts.online, facts.seats_claimed, facts.spectators),
            (view.invite_links, view.all_events, view.spectator_link),
            (view.seat_link, names, tuple(sorted(context["computers"].items()))),
            (frozenset(context["resigned"]), context["started"], context["ending"]),
            context["scores"] and tuple(context["scores"]),
        )
    return None


def _shell_key(context: dict[str, Any]) -> Hashable:
    """What the shell after the board element's opening tag is drawn from (lehavre/board.html)."""
    return tuple(area.seat for area in context["t"].areas)


def draw_board(
    view: RoomView,
    *,
    lang: str = DEFAULT_LANGUAGE,
    before: BoardSummary | None = None,
    shared: Shared | None = None,
) -> DrawnBoard:
    """The board of one viewer in their language, in parts: sent whole or as a patch on top of
    `before` (the group's previous board: a keyed part whose key is unchanged is not drawn, and
    the board may then go as a patch on top of `before` only, `DrawnBoard.complete`)."""
    code = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    context = board_context(view, lang=code)
    values = {**context, "client_move_id": move_id_mark}
    marked: dict[str, str] = {}
    hashes: dict[str, int] = {}
    keys: dict[str, int] = {}
    for name, tpl, extra in _sources(context):
        key = key_hash(_key(name, context, extra))
        if key is not None:
            keys[name] = key
            kept = kept_digest(before, name, key)
            if kept is not None:
                hashes[name] = kept
                continue
        memo = _alike(name, extra, code) if shared is not None else None
        if shared is not None and memo in shared:
            marked[name], hashes[name] = shared[memo]
            continue
        marked[name] = render_template(code, tpl, {**values, **extra})
        hashes[name] = part_hash(marked[name])
        if shared is not None and memo is not None:
            shared[memo] = (marked[name], hashes[name])
    attrs = board_attrs(context)
    frame = frame_of(hashes, attrs)
    keys[SHELL_KEY] = hash(_shell_key(context))
    pieces: tuple[str, ...] = ()
    if (
        before is not None
        and before.keys.get(SHELL_KEY) == keys[SHELL_KEY]
        and len(marked) < len(hashes)
    ):
        shell = before.shell
    else:
        shell_values = {**values, "parts": Marks(frame), "attrs": attrs}
        pieces = tuple(render_template(code, "lehavre/board.html", shell_values).split(PART_MARK))
        shell = part_hash(PART_MARK.join(pieces[1:]))
    return DrawnBoard(
        frame=frame,
        attrs=attrs,
        parts={name: fill_move_ids(html) for name, html in marked.items()},
        hashes=hashes,
        pieces=pieces,
        shell=shell,
        keys=keys,
    )
