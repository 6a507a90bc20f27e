"""The board: game state + viewer -> the template context, and the fragment the sockets send.

`draw_board(view, lang=...)` draws the table for the WebSocket layer: in parts (`app.ui.parts`), so
a socket can be sent the whole board (root element ``id="board"``, ``data-version``,
``data-frame``, swapped in by htmx out of band) or only the parts a move changed
(`app.live.frames`); `render_board` is the whole board as HTML. The page routes draw the same
parts inside the full page, so a reload and a live update draw the same board. The hub's
painter (`app.live.painters`) calls it for each group of alike viewers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markupsafe import Markup

import engine
from app.i18n import DEFAULT_LANGUAGE, LANGUAGES
from app.live.frames import BoardSummary, DrawnBoard
from app.reads.roomview import RoomView

from . import parts
from .cache import VERSION_MEMO, Same, Shared, card_html, log_html, tile_html
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
        and view.facts.ending is None
        and view.facts.standin_seat != view.viewer_seat
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
    if view.facts.ending is None:
        winner = engine.winner(view.state)
        headline, reason = result_text(words, winner, view.viewer_seat), None
    else:
        winner = view.facts.ending.winner
        reason = ending_headline(words, view.facts.ending, view.viewer_seat)
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


@lru_cache(maxsize=VERSION_MEMO)
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


def forecast(state: engine.GameState) -> engine.RoundForecast | None:
    """The rest of the round (`engine.round_forecast`), worked out once per position."""
    return _forecast(Same(state))


@lru_cache(maxsize=VERSION_MEMO)
def _forecast(key: Same) -> engine.RoundForecast | None:
    return engine.round_forecast(key.obj)  # type: ignore[arg-type]


@lru_cache(maxsize=64)
def sector_hints(catalog: engine.Catalog, lang: str) -> tuple[str, ...]:
    """What each sector of the wheel means (the legend's hints), once per catalog and language."""
    words = words_for(lang)
    return tuple(words.sector_hint(catalog, age) for age in range(len(WEDGES)))


def board_context(view: RoomView, *, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """Everything the board template draws, for one viewer, in the viewer's language."""
    words = words_for(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    state = view.state
    acting = can_act(view)
    offered = offers(state) if acting else NO_OFFERS
    order = (0, 1) if view.viewer_seat in (None, 0) else (1, 0)
    is_player = view.viewer_seat is not None
    computer_name = _computer_name(view, words)
    final = _final(view, words) if view.over else None
    context: dict[str, Any] = {
        **_drawers(view, words, computer_name),
        **_turn(view, words, computer_name),
        "view": view,
        "state": state,
        "version": view.version,
        "room_id": view.room_id,
        "viewer_seat": view.viewer_seat,
        "acting": acting,
        # The buildings the viewer may act on: the board element lists them and the page marks
        # their tiles and cards (static/js/marks.js), so a turn passing redraws neither.
        "playable": " ".join(sorted(offered.actionable)),
        "rounds": rounds(state),
        "mats": [mat(view, seat, words) for seat in order],
        "wedges": WEDGES,
        "sector_hints": sector_hints(state.catalog, words.code),
        "overview": overview(view, words),
        "log": log_html(view, words, event_items(view, words)),
        "forecast": forecast(state),
        "sellable": offered.sellable,
        "pass_move": offered.pass_move,
        "final": final,
        "warehouse": state.catalog.warehouse,
        "goods": GOODS,
        "is_player": is_player,
        "computer_name": computer_name,
        "board_class": "board"
        + (" is-acting" if acting else "")
        + (" is-finished" if final else "")
        + ("" if is_player else " is-spectator"),
        **life_context(view, words),
    }
    context["board_parts"] = parts.on_page
    return context


def _drawers(view: RoomView, words: Words, computer_name: str | None) -> dict[str, Any]:
    """The template's helpers that draw a card, a tile, a round's cards and a seat's name."""
    code = words.code
    is_player = view.viewer_seat is not None

    def card(tile: Tile) -> Markup:
        return card_html(code, tile, is_player)

    def tile(t: Tile, extra_class: str) -> Markup:
        return tile_html(code, t, extra_class, is_player)

    def seat_label(seat: int) -> str:
        if computer_name is not None and seat == view.facts.computer_seat:
            return computer_name
        return words.seat_name(seat)

    return {
        "card": card,
        "tile": tile,
        "round_cards": lambda round_: Markup("".join([card(t) for t in round_.tiles])),
        "seat_label": seat_label,
    }


def _turn(view: RoomView, words: Words, computer_name: str | None) -> dict[str, Any]:
    """Whose turn it is, as the board says it, and whether the computer is thinking."""
    state = view.state
    return {
        "waiting_for_opponent": not all(view.facts.seats_claimed),
        "turn_text": (
            turn_text(words, state.to_move, view.viewer_seat)
            if view.started and view.facts.ending is None
            else turn_text(words, None, None)
            if view.over
            else not_started_text(words)
        ),
        "actions_left": actions_left_text(words, state.actions_left),
        # The computer thinks while it is to move, also when it stands in for an absent player.
        "computer_turn": computer_name is not None and state.to_move == view.facts.computer_seat,
        "standin_turn": (
            view.facts.standin_seat is not None
            and view.facts.ending is None
            and not state.finished
            and state.to_move == view.facts.standin_seat
        ),
    }


def _computer_name(view: RoomView, words: Words) -> str | None:
    """Against the computer, its seat goes by its strength."""
    if view.facts.computer_seat is None:
        return None
    t = words.lang
    names = {
        "easy": t.gettext("Computer (easy)"),
        "normal": t.gettext("Computer (normal)"),
        "strong": t.gettext("Computer (strong)"),
    }
    return names.get(view.facts.computer or "")


def draw_board(
    view: RoomView,
    *,
    lang: str = DEFAULT_LANGUAGE,
    before: BoardSummary | None = None,
    shared: Shared | None = None,
) -> DrawnBoard:
    """The board of one viewer in their language, in parts (`app.live.frames`): sent whole
    (root ``id="board"``, ``data-version``, ``data-frame``, out-of-band swap) or as a patch.
    With `before` (the same viewer's previous board) the parts whose values did not change are
    not drawn, and the board goes only as a patch on top of `before` (`app.ui.parts`). The parts
    drawn alike for a version's other groups are remembered by process (`app.ui.cache.PARTS`),
    so `shared` (Le Havre's memo of them) is not needed here."""
    code = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    return parts.draw(board_context(view, lang=code), code, before=before)


def render_board(view: RoomView, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The whole board fragment for one viewer in their language."""
    return draw_board(view, lang=lang).whole()
