"""What each of the board's parts is drawn from (`app.ui.parts` draws them): its id, template,
the values it adds and its *key*, the values from the board's context the part shows beyond what
stays the same for one group of alike viewers (viewer, language, room). A part whose key is the
same as in the group's previous board is not drawn again; a key of None: drawn every time.

Two kinds of parts are also remembered by process (`app.ui.cache.PARTS`), by their key, the
language and whether the viewer plays, so that a part drawn for one board is taken for any other
board of any room that shows the same:

- *room-free* parts (`ROOM_FREE`) show nothing of the room or its version;
- *room-marked* parts (`ROOM_MARKED`: the room's life, the pass button, the sell row) show the
  room's id and version only in their forms' addresses and fields: they are drawn with marks in
  their place (`app.ui.parts.ROOM_MARK`, `VERSION_MARK`), filled in for each board. Their key is
  a pair: what they show besides (by which they are remembered), and the version their forms
  carry (None: no form carries it), so that a form is drawn again for each version.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import Any

from .supply import SupplyRound

#: The room-free parts, by the start of their id.
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

#: The room-marked parts, by the start of their id.
ROOM_MARKED = ("board-life", "status-pass", "mat-sell-")


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
    """The room's life (templates/room_life.html) is drawn from its `RoomLife` value and the
    viewer's seat alone, beyond the language and room."""
    return ("life", context["life"], context["viewer_seat"]), None


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
    move = context["pass_move"]
    return ("pass", move), context["version"] if move else None


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
        shown = ("sell", m.seat, tuple(context["sellable"].items()), context["state"].catalog)
        return shown, context["version"]
    return ("none", m.seat), None


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


def sources(context: Mapping[str, Any]) -> Iterator[tuple[str, str, dict[str, Any], KeyOf]]:
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
