"""The board: game state + viewer -> the template context, and the fragment the sockets send.

`draw_board(view, lang=...)` draws the table for the WebSocket layer: in parts (`app.ui.parts`), so
a socket can be sent the whole board (root element ``id="board"``, ``data-version``,
``data-frame``, swapped in by htmx out of band) or only the parts a move changed
(`app.live.frames`); `render_board` is the whole board as HTML. The page routes draw the same
parts inside the full page, so a reload and a live update draw the same board. `BoardPainter`
draws a room's boards for the hub: one read of the room, one drawing per group of alike viewers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markupsafe import Markup
from sqlalchemy.orm import Session, sessionmaker

import engine
from app.i18n import DEFAULT_LANGUAGE, LANGUAGES
from app.live.frames import BoardSummary, DrawnBoard
from app.live.sockets import BoardGroup, HandOut
from app.reads import queries
from app.reads.roomview import RoomFacts, RoomView

from . import parts
from .cache import Same, card_html, log_html, tile_html
from .panel import gains_something, moves_by_building
from .roomlife import ending_headline, event_items, life_context, not_started_text
from .supply import overview, rounds
from .warehouse import mat
from .wheel import WEDGES, Tile
from .words import GOODS, Words, words_for


def can_act(view: RoomView) -> bool:
    """Whether the viewer may make a move now: a player, the game started and not ended, their
    turn, and the computer not standing in for them."""
    state = view.state
    return (
        view.viewer_seat is not None
        and view.started
        and view.ending is None
        and view.standin_seat != view.viewer_seat
        and state.to_move is not None
        and state.to_move == view.viewer_seat
    )


def turn_text(words: Words, to_move: int | None, viewer_seat: int | None) -> str:
    """The turn banner: 'Your turn', 'Player 2 to move', 'Game over'."""
    t = words.lang
    if to_move is None:
        return t.gettext("Game over")
    if viewer_seat is not None and to_move == viewer_seat:
        return t.gettext("Your turn")
    if viewer_seat is not None:
        return t.gettext("Waiting for Player %(number)s", number=to_move + 1)
    return t.gettext("%(player)s to move", player=words.seat_name(to_move))


def actions_left_text(words: Words, n: int) -> str:
    return words.lang.ngettext(
        "%(num)s action left in this round", "%(num)s actions left in this round", n
    )


def result_text(words: Words, winner: int | None, viewer_seat: int | None) -> str:
    """The game-over headline."""
    t = words.lang
    if winner is None:
        return t.gettext("It's a draw!")
    if viewer_seat is None:
        return t.gettext("%(player)s wins!", player=words.seat_name(winner))
    if winner == viewer_seat:
        return t.gettext("You win!")
    return t.gettext("%(player)s wins.", player=words.seat_name(winner))


def _final(view: RoomView, words: Words) -> dict[str, Any]:
    """The scores, the winner (None for a draw or no result) and the headline of a finished
    game; `reason` says how a game that ended early ended."""
    totals = engine.scores(view.state)
    if view.ending is None:
        winner = engine.winner(view.state)
        headline, reason = result_text(words, winner, view.viewer_seat), None
    else:
        winner = view.ending.winner
        reason = ending_headline(words, view.ending, view.viewer_seat)
        headline = reason if winner is None else result_text(words, winner, view.viewer_seat)
    return {"scores": totals, "winner": winner, "headline": headline, "reason": reason}


@dataclass(frozen=True)
class Offers:
    """What the player to move is offered on the board in one position."""

    actionable: frozenset[str]
    """The buildings highlighted: they can be built, or used to some gain (a use that only pays
    a fee stays possible from its panel, with a warning)."""
    sellable: dict[str, str]
    """Building -> its sell move (canonical notation)."""
    pass_move: str | None


NO_OFFERS = Offers(frozenset(), {}, None)


def offers(state: engine.GameState) -> Offers:
    """The player to move's offers, worked out once per position: the boards of a version (the
    player's in each language) share the same state object."""
    return _offers(Same(state))


@lru_cache(maxsize=64)
def _offers(key: Same) -> Offers:
    state: engine.GameState = key.obj  # type: ignore[assignment]
    grouped = moves_by_building(state)
    return Offers(
        actionable=frozenset(
            b
            for b, moves in grouped.items()
            if b and gains_something(state, [m for m in moves if m.type in ("build", "use")])
        ),
        sellable={
            b: m.canonical for b, moves in grouped.items() for m in moves if m.type == "sell"
        },
        pass_move=next((m.canonical for m in grouped.get("", []) if m.type == "pass"), None),
    )


def board_context(view: RoomView, *, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """Everything the board template draws, for one viewer, in the viewer's language."""
    words = words_for(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    state = view.state
    acting = can_act(view)
    offered = offers(state) if acting else NO_OFFERS
    actionable = offered.actionable
    sellable = offered.sellable
    pass_move = offered.pass_move
    order = (0, 1) if view.viewer_seat in (None, 0) else (1, 0)
    is_player = view.viewer_seat is not None
    code = words.code

    def card(tile: Tile) -> Markup:
        return card_html(code, tile, is_player)

    def tile(t: Tile, extra_class: str) -> Markup:
        return tile_html(code, t, extra_class, is_player)

    computer_name = _computer_name(view, words)

    def seat_label(seat: int) -> str:
        if computer_name is not None and seat == view.computer_seat:
            return computer_name
        return words.seat_name(seat)

    final = _final(view, words) if view.over else None
    context: dict[str, Any] = {
        "card": card,
        "tile": tile,
        "view": view,
        "state": state,
        "version": view.version,
        "room_id": view.room_id,
        "viewer_seat": view.viewer_seat,
        "acting": acting,
        # The buildings the viewer may act on: the board element lists them and the page marks
        # their tiles and cards (static/js/table.js), so a turn passing redraws neither.
        "playable": " ".join(sorted(actionable)),
        "waiting_for_opponent": not all(view.seats_claimed),
        "turn_text": (
            turn_text(words, state.to_move, view.viewer_seat)
            if view.started and view.ending is None
            else turn_text(words, None, None)
            if view.over
            else not_started_text(words)
        ),
        "actions_left": actions_left_text(words, state.actions_left),
        "rounds": rounds(state),
        "mats": [mat(view, seat, words) for seat in order],
        "wedges": WEDGES,
        "sector_hints": tuple(words.sector_hint(state.catalog, age) for age in range(len(WEDGES))),
        "overview": overview(view, words),
        "round_cards": lambda round_: Markup("").join(card(t) for t in round_.tiles),
        "log": log_html(view, words, event_items(view, words)),
        "forecast": engine.round_forecast(state),
        "sellable": sellable,
        "pass_move": pass_move,
        "final": final,
        "warehouse": state.catalog.warehouse,
        "goods": GOODS,
        "is_player": is_player,
        "computer_name": computer_name,
        # The computer thinks while it is to move, also when it stands in for an absent player.
        "computer_turn": computer_name is not None and state.to_move == view.computer_seat,
        "standin_turn": (
            view.standin_seat is not None
            and view.ending is None
            and not state.finished
            and state.to_move == view.standin_seat
        ),
        "seat_label": seat_label,
        "board_class": "board"
        + (" is-acting" if acting else "")
        + (" is-finished" if final else "")
        + ("" if is_player else " is-spectator"),
        **life_context(view, words),
    }
    context["board_parts"] = parts.on_page
    return context


def _computer_name(view: RoomView, words: Words) -> str | None:
    """Against the computer, its seat goes by its strength."""
    if view.computer_seat is None:
        return None
    t = words.lang
    names = {
        "easy": t.gettext("Computer (easy)"),
        "normal": t.gettext("Computer (normal)"),
        "strong": t.gettext("Computer (strong)"),
    }
    return names.get(view.computer or "")


def draw_board(
    view: RoomView,
    *,
    lang: str = DEFAULT_LANGUAGE,
    before: BoardSummary | None = None,
    shared: parts.Shared | None = None,
) -> DrawnBoard:
    """The board of one viewer in their language, in parts (`app.live.frames`): sent whole
    (root ``id="board"``, ``data-version``, ``data-frame``, out-of-band swap) or as a patch.
    With `before` (the same viewer's previous board) the parts whose values did not change are
    not drawn, and the board goes only as a patch on top of `before` (`app.ui.parts`); with
    `shared` (one per room and version) a part drawn alike for another group is not drawn again."""
    code = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    return parts.draw(board_context(view, lang=code), code, before=before, shared=shared)


def render_board(view: RoomView, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The whole board fragment for one viewer in their language."""
    return draw_board(view, lang=lang).whole()


Renderer = Callable[..., DrawnBoard]


class BoardPainter:
    """The hub's `BoardMaker` (see `app.live.hub`), run in a worker thread: reads a room (the
    facts only when asked to) and renders its board for every group of alike viewers (only the
    changed parts for a group given with its previous board)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        render: Renderer,
        *,
        presence_timeout: float,
        absent_after: float = 180.0,
    ) -> None:
        self._sessions = sessions
        self._render = render
        self._presence_timeout = presence_timeout
        self._absent_after = absent_after

    def __call__(
        self,
        room_id: str,
        facts: RoomFacts | None,
        version: int,
        groups: frozenset[BoardGroup],
        hand_out: HandOut | None = None,
        previous: Mapping[BoardGroup, BoardSummary] | None = None,
    ) -> tuple[RoomFacts, int, dict[BoardGroup, DrawnBoard]]:
        with self._sessions() as session:
            if facts is None:
                facts = queries.load_room_facts(
                    session,
                    room_id=room_id,
                    presence_timeout=self._presence_timeout,
                    absent_after=self._absent_after,
                )
            version = max(version, facts.version)
            state, log = queries.load_position(session, room_id=room_id, version=version)
        boards = {}
        shared: parts.Shared = {}  # the parts drawn alike for several groups, drawn once
        for group in sorted(groups, key=lambda group: drawing_order(group, state.to_move)):
            view: RoomView = queries.room_view(
                facts, state, log, viewer=group.viewer, base_url=group.base_url
            )
            before = previous.get(group) if previous else None
            if before is None:
                boards[group] = self._render(view, lang=group.lang, shared=shared)
            else:
                boards[group] = self._render(view, lang=group.lang, before=before, shared=shared)
            if hand_out is not None:
                hand_out(group, boards[group])
        return facts, version, boards


def drawing_order(group: BoardGroup, to_move: int | None) -> int:
    """The player to move first (after a move: the one waiting for it), then the other player
    (after a move: the mover, whose page shows its own move only once this board arrives), then
    the spectators."""
    if group.viewer.kind == "seat":
        return 0 if group.viewer.seat == to_move else 1
    return 2
