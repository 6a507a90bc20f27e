"""Game state + viewer -> template context, and the board fragment the sockets send.

`render_board(view, lang=...)` is the one function the WebSocket layer calls: it returns the HTML
of the table (root element ``id="board"``, ``data-version``, swapped in by htmx out of band) in the
viewer's language. The page routes render the same block inside the full page, so a reload and a
live update draw the same board.

There is one Jinja environment per language (`environment_for`), each with its gettext catalogue
installed (the ``i18n`` extension, new-style ``_()`` calls) and `Words` of that language as
``words``; a render never switches a shared environment's language, so renders for viewers in
different languages can run side by side in worker threads.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jinja2
import jinja2.runtime
from markupsafe import Markup
from starlette.templating import Jinja2Templates

from engine import Catalog, GameState, new_game, score_breakdown, scores
from engine.catalog import Warehouse

from .i18n import DEFAULT_LANGUAGE, LANGUAGES, html_lang, translations
from .panel import cost_dict, have, moves_by_building
from .present import GOODS, SECTOR_LABELS, Words, words_for
from .roomview import LogEntry, RoomView

TEMPLATE_DIR = Path(__file__).resolve().parent.parent / "templates"
STATIC_DIR = Path(__file__).resolve().parent.parent / "static"


def _environment(code: str) -> jinja2.Environment:
    """The Jinja environment that renders pages in one language."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
    )
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(translations(code), newstyle=True)  # type: ignore[attr-defined]
    for name in ("gettext", "ngettext", "pgettext", "npgettext"):
        installed: Callable[..., Any] = env.globals[name]  # type: ignore[assignment]
        env.globals[name] = _remembered(installed)
    words = words_for(code)
    env.globals["words"] = words
    env.globals["lang"] = code
    env.globals["html_lang"] = html_lang(code)
    env.globals["languages"] = LANGUAGES
    env.globals["static"] = lambda path: f"/static/{path}"
    env.globals["client_move_id"] = lambda: secrets.token_hex(12)
    env.filters["num"] = words.number
    env.globals["warehouse_cells"] = lambda wh: _warehouse_cells(code, wh)
    env.globals["drawn"] = lambda macro, *args: _drawn(code, macro, args)
    return env


GETTEXT_CACHE_SIZE = 8192


def _remembered(gettext: Callable[..., Any]) -> Callable[..., Any]:
    """A template gettext call that remembers its answers (a board makes ~30 such calls, most of
    them with the same message and values every time). Autoescaping is always on in these
    environments, so an answer depends only on the message and the values."""
    answers: dict[tuple[Any, ...], Any] = {}

    @jinja2.pass_context
    def remembered(context: jinja2.runtime.Context, *args: Any, **values: Any) -> Any:
        # The value's type is part of the key: Markup("<b>") equals "<b>" but is not escaped.
        key = (args, tuple((name, type(v), v) for name, v in sorted(values.items())))
        try:
            return answers[key]
        except KeyError:
            pass
        except TypeError:  # a value that cannot be a key: just translate
            return context.call(gettext, *args, **values)
        answer = context.call(gettext, *args, **values)
        if len(answers) >= GETTEXT_CACHE_SIZE:
            answers.clear()
        answers[key] = answer
        return answer

    return remembered


_ENVIRONMENTS = {code: _environment(code) for code in LANGUAGES}
_TEMPLATES = {code: Jinja2Templates(env=env) for code, env in _ENVIRONMENTS.items()}


def environment_for(lang: str) -> jinja2.Environment:
    """The environment of one of our languages (English for an unknown code)."""
    return _ENVIRONMENTS.get(lang, _ENVIRONMENTS[DEFAULT_LANGUAGE])


def templates_for(lang: str) -> Jinja2Templates:
    """`TemplateResponse` in one of our languages (English for an unknown code)."""
    return _TEMPLATES.get(lang, _TEMPLATES[DEFAULT_LANGUAGE])


_COST_ORDER = (*GOODS, "food", "francs")

WHEEL_SECTORS = 6
"""The printed wheel has six sectors: 0, 2, 3, 4, 4+ and "!" (ages 0..5)."""


@dataclass(frozen=True)
class Tile:
    """A building drawn on the table: on a wheel, among the locked ones, or in the overview."""

    id: str
    name: str
    letter: str
    cost: str
    cost_parts: tuple[tuple[str, int], ...]
    value: str
    effect: str
    status: str  # "supply" | "owned" | "future"
    owner: int | None
    sector: str | None
    actionable: bool
    reason: str | None
    aria: str
    """What a screen reader says: name, sector, owner, cost or arrival, and why it cannot act."""
    x: float = 0.0
    y: float = 0.0


@dataclass(frozen=True)
class Wedge:
    label: str
    path: str
    label_x: float
    label_y: float
    danger: bool


@dataclass(frozen=True)
class Counter:
    good: str
    name: str
    letter: str
    amount: int
    row: int
    col: int


@dataclass(frozen=True)
class Mat:
    """One player's side of the table."""

    seat: int
    name: str
    role: str
    francs: int
    score: int
    breakdown: tuple[tuple[str, int], ...]
    online: bool
    claimed: bool
    to_move: bool
    counters: tuple[Counter, ...]
    tiles: tuple[Tile, ...]
    locked: tuple[Tile, ...]
    warehouse_label: str
    """What a screen reader says for the warehouse grid."""


def _polar(radius: float, degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    return (radius * math.cos(angle), radius * math.sin(angle))


def sector_angle(index: int) -> float:
    """Centre angle of a wheel sector in degrees (screen coordinates; sector 0 at the top)."""
    return -90.0 + index * 360.0 / WHEEL_SECTORS


WHEEL_RADIUS = 96.0
WHEEL_MARGIN = 16.0
"""The disc is drawn in a 200-unit box centred on (100, 100); its labels sit outside the rim."""
WHEEL_BOX = 200.0 + 2 * WHEEL_MARGIN


def _percent(coordinate: float) -> float:
    return (coordinate + WHEEL_MARGIN) / WHEEL_BOX * 100


def wedges() -> tuple[Wedge, ...]:
    """The six sector wedges of a wheel, with each sector's label on a badge outside the rim."""
    result = []
    half = 180.0 / WHEEL_SECTORS
    r = WHEEL_RADIUS
    for i, label in enumerate(SECTOR_LABELS):
        centre = sector_angle(i)
        x1, y1 = _polar(r, centre - half)
        x2, y2 = _polar(r, centre + half)
        path = (
            f"M100,100 L{100 + x1:.2f},{100 + y1:.2f} "
            f"A{r:.0f},{r:.0f} 0 0,1 {100 + x2:.2f},{100 + y2:.2f} Z"
        )
        lx, ly = _polar(r + 6, centre)
        result.append(Wedge(label, path, 100 + lx, 100 + ly, i == len(SECTOR_LABELS) - 1))
    return tuple(result)


WEDGES = wedges()

_STACKS: dict[int, tuple[tuple[float, float], tuple[float, float]]] = {
    0: ((0.0, -0.8), (0.0, 1.0)),
    1: ((0.47, -0.12), (0.0, -1.0)),
    2: ((0.47, 0.12), (0.0, 1.0)),
    3: ((0.0, 0.8), (0.0, -1.0)),
    4: ((-0.47, 0.12), (0.0, 1.0)),
    5: ((-0.47, -0.12), (0.0, -1.0)),
}
"""Where a sector's tiles start (in wheel radii from the centre) and which way they stack."""


def tile_positions(sector: int, count: int) -> list[tuple[float, float]]:
    """Where ``count`` tiles sit in a sector, as percentages of the wheel box (tile centres).

    Tiles stack upright in a column inside their sector, closer together when there are many.
    """
    (x0, y0), (dx, dy) = _STACKS[sector]
    spacing = min(0.19, 0.62 / max(count - 1, 1))
    result = []
    for k in range(count):
        x = 100 + WHEEL_RADIUS * (x0 + dx * spacing * k)
        y = 100 + WHEEL_RADIUS * (y0 + dy * spacing * k)
        result.append((_percent(x), _percent(y)))
    return result


def _aria(
    words: Words,
    name: str,
    *,
    status: str,
    sector: str | None,
    owner: int | None,
    cost: str,
    letter: str,
    reason: str | None,
) -> str:
    parts = [name]
    if sector is not None:
        parts.append(words.sector_text(sector))
    if owner is not None:
        parts.append(words.owned_by(owner))
    if status == "supply":
        parts.append(words.lang.gettext("cost %(cost)s", cost=cost))
    if status == "future":
        parts.append(words.coming_in(letter))
    if reason:
        parts.append(reason)
    return ", ".join(parts)


@dataclass(frozen=True)
class _Printed:
    """What a building's card prints in one language: the same on every board."""

    name: str
    letter: str
    cost: str
    cost_parts: tuple[tuple[str, int], ...]
    value: str
    effect: str


@cache
def _printed(catalog: Catalog, building_id: str, lang: str) -> _Printed:
    building = catalog.building(building_id)
    words = words_for(lang)
    return _Printed(
        name=building.name_in(lang),
        letter=building.letter,
        cost=words.cost_text(dict(building.cost)),
        cost_parts=tuple(sorted(building.cost, key=lambda kv: _COST_ORDER.index(kv[0]))),
        value=words.value_text(_value_data_of(catalog, building_id)),
        effect=words.effect(building_id),
    )


def _value_data_of(catalog: Catalog, building_id: str) -> Any:
    value = catalog.building(building_id).value
    return value if isinstance(value, int) else {"per": value.per, "rate": value.rate}


def _tile(
    state: GameState,
    building_id: str,
    words: Words,
    *,
    status: str,
    owner: int | None,
    age: int | None,
    actionable: bool,
    reason: str | None,
    position: tuple[float, float] = (0.0, 0.0),
) -> Tile:
    return _tile_of(
        state.catalog, building_id, words.code, status, owner, age, actionable, reason, position
    )


@lru_cache(maxsize=16384)
def _tile_of(
    catalog: Catalog,
    building_id: str,
    lang: str,
    status: str,
    owner: int | None,
    age: int | None,
    actionable: bool,
    reason: str | None,
    position: tuple[float, float],
) -> Tile:
    """One `Tile`; the same arguments give the same (shared, immutable) value."""
    printed = _printed(catalog, building_id, lang)
    sector = SECTOR_LABELS[age] if age is not None else None
    return Tile(
        id=building_id,
        name=printed.name,
        letter=printed.letter,
        cost=printed.cost,
        cost_parts=printed.cost_parts,
        value=printed.value,
        effect=printed.effect,
        status=status,
        owner=owner,
        sector=sector,
        actionable=actionable,
        reason=reason,
        aria=_aria(
            words_for(lang),
            printed.name,
            status=status,
            sector=sector,
            owner=owner,
            cost=printed.cost,
            letter=printed.letter,
            reason=reason,
        ),
        x=position[0],
        y=position[1],
    )


def _mat(view: RoomView, seat: int, actionable: set[str], words: Words) -> Mat:
    state = view.state
    player = state.players[seat]
    ages = dict(player.buildings)
    by_sector: dict[int, list[str]] = {}
    locked = []
    for building_id in sorted(ages, key=lambda b: state.catalog.building(b).name):
        age = ages[building_id]
        if age is None:
            locked.append(building_id)
        else:
            by_sector.setdefault(age, []).append(building_id)
    tiles = []
    for age, ids in sorted(by_sector.items()):
        for building_id, position in zip(ids, tile_positions(age, len(ids)), strict=True):
            tiles.append(
                _tile(
                    state,
                    building_id,
                    words,
                    status="owned",
                    owner=seat,
                    age=age,
                    actionable=building_id in actionable,
                    reason=None,
                    position=position,
                )
            )
    breakdown = score_breakdown(state, seat)
    goods = counters(state, seat, words)
    name = words.seat_name(seat)
    return Mat(
        seat=seat,
        name=name,
        role=words.seat_role(seat, view.viewer_seat),
        francs=player.francs,
        score=int(breakdown["total"]),
        breakdown=tuple(
            (state.catalog.building(b).name_in(words.code), int(v))
            for b, v in sorted(breakdown["buildings"].items(), key=lambda kv: -kv[1])
        ),
        online=view.online[seat],
        claimed=view.seats_claimed[seat],
        to_move=state.to_move == seat,
        counters=goods,
        tiles=tuple(tiles),
        locked=tuple(
            _tile(
                state,
                b,
                words,
                status="owned",
                owner=seat,
                age=None,
                actionable=b in actionable,
                reason=None,
            )
            for b in locked
        ),
        warehouse_label=words.lang.gettext(
            "Warehouse of %(player)s: %(goods)s",
            player=name,
            goods=", ".join(f"{c.name} {words.number(c.amount)}" for c in goods),
        ),
    )


def counters(state: GameState, seat: int, words: Words) -> tuple[Counter, ...]:
    """A player's four goods counters, as the warehouse picture draws them."""
    player = state.players[seat]
    warehouse = state.catalog.warehouse
    return tuple(
        Counter(
            good,
            words.good_name(good),
            words.good_letter(good),
            warehouse.amount(player.goods[good]),
            player.goods[good][0],
            player.goods[good][1],
        )
        for good in GOODS
    )


def start_counters(words: Words) -> tuple[Counter, ...]:
    """The goods counters every player starts with (the rules page draws them)."""
    return counters(new_game(), 0, words)


def can_act(view: RoomView) -> bool:
    """Whether the viewer may make a move now: a player, both seats taken, their turn."""
    state = view.state
    return (
        view.viewer_seat is not None
        and all(view.seats_claimed)
        and state.to_move is not None
        and state.to_move == view.viewer_seat
    )


def _overview(
    view: RoomView, actionable: set[str], words: Words
) -> list[tuple[str, str, list[Tile]]]:
    """Every building by round letter: in the supply, built (by whom), or still to come."""
    state = view.state
    supply = set(state.supply)
    acting = can_act(view)
    wallet = have(state, view.viewer_seat) if view.viewer_seat is not None else {}
    current = state.round_letter
    letters: list[tuple[str, str, list[Tile]]] = []
    for letter, _actions in state.catalog.rounds:
        tiles = []
        for building in state.catalog.buildings:
            if building.letter != letter:
                continue
            owner = state.owner(building.id)
            if owner is not None:
                status = "owned"
            elif building.id in supply:
                status = "supply"
            else:
                status = "future"
            reason = None
            if status == "supply" and acting and building.id not in actionable:
                reason = words.shortfall(
                    cost_dict(state, building.id), wallet
                ) or words.lang.gettext("no valid payment")
            tiles.append(
                _tile(
                    state,
                    building.id,
                    words,
                    status=status,
                    owner=owner,
                    age=None,
                    actionable=status == "supply" and building.id in actionable,
                    reason=reason,
                )
            )
        if letter < current:
            when = "past"
        elif letter == current:
            when = "current"
        else:
            when = "future"
        letters.append((letter, when, tiles))
    return letters


class _Same:
    """A cache key that matches only the very same object (log entries hold unhashable dicts).

    The key keeps the object alive, so its id cannot be reused while the entry is cached.
    """

    __slots__ = ("obj",)

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.obj is self.obj


def _log(view: RoomView, words: Words) -> list[Markup]:
    """The move log, newest first, put into words from the stored engine events.

    A move's entry never changes once logged, and the position cache hands out the same
    `LogEntry` objects version after version, so each entry is drawn once per language.
    """
    catalog = view.state.catalog
    return [_log_entry_html(_Same(entry), words.code, catalog) for entry in reversed(view.log)]


@lru_cache(maxsize=65536)
def _log_entry_html(key: _Same, lang: str, catalog: Catalog) -> Markup:
    entry: LogEntry = key.obj  # type: ignore[assignment]
    lines = words_for(lang).describe_events(entry.events, _building_names(catalog, lang))
    return _macros(lang).log_entry(entry.seq, entry.seat, lines)  # type: ignore[no-any-return]


@cache
def _building_names(catalog: Catalog, lang: str) -> dict[str, str]:
    return words_for(lang).building_names(catalog)


@cache
def _macros(lang: str) -> Any:
    """The macros of ``macros.html`` in one language, callable from Python."""
    return environment_for(lang).get_template("macros.html").module


@lru_cache(maxsize=65536)
def _card_html(lang: str, tile: Tile, is_player: bool, room_id: str | None) -> Markup:
    return _macros(lang).overview_card(tile, is_player, room_id)  # type: ignore[no-any-return]


@lru_cache(maxsize=65536)
def _tile_html(
    lang: str, tile: Tile, extra_class: str, is_player: bool, room_id: str | None
) -> Markup:
    return _macros(lang).tile_button(tile, extra_class, is_player, room_id)  # type: ignore[no-any-return]


@lru_cache(maxsize=64)
def _warehouse_cells(lang: str, warehouse: Warehouse) -> Markup:
    """The printed cells of the warehouse with their values (they never move)."""
    return _macros(lang).warehouse_cell_layer(warehouse)  # type: ignore[no-any-return]


DRAWN_MACROS = frozenset({"wheel_disc", "warehouse_grid", "goods_counts", "coin", "round_track"})
"""The ``macros.html`` pieces the board draws through ``drawn(name, ...)``: pure functions of
their (hashable) arguments and the language, so each distinct drawing is made once."""


@lru_cache(maxsize=16384)
def _drawn(lang: str, macro: str, args: tuple[Any, ...]) -> Markup:
    if macro not in DRAWN_MACROS:
        raise ValueError(f"{macro!r} is not one of the board's memoised drawings")
    return getattr(_macros(lang), macro)(*args)  # type: ignore[no-any-return]


def clear_caches() -> None:
    """Forget every drawn piece (the render benchmark measures first renders with it)."""
    for memo in (
        _tile_of,
        _log_entry_html,
        _card_html,
        _tile_html,
        _warehouse_cells,
        _printed,
        _drawn,
    ):
        memo.cache_clear()


def board_context(view: RoomView, *, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """Everything the board template draws, for one viewer, in the viewer's language."""
    words = words_for(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    state = view.state
    acting = can_act(view)
    grouped = moves_by_building(state) if acting else {}
    actionable = {
        b for b, moves in grouped.items() if b and any(m.type in ("build", "use") for m in moves)
    }
    sellable = {b: m.canonical for b, moves in grouped.items() for m in moves if m.type == "sell"}
    pass_move = next((m.canonical for m in grouped.get("", []) if m.type == "pass"), None)
    order = (0, 1) if view.viewer_seat in (None, 0) else (1, 0)
    mats = [_mat(view, seat, actionable, words) for seat in order]
    finished = state.to_move is None
    final = None
    if finished:
        totals = scores(state)
        winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
        final = {
            "scores": totals,
            "winner": winner,
            "headline": words.result_text(winner, view.viewer_seat),
        }
    rounds = tuple(
        (
            letter,
            actions,
            "past" if i < state.round_index else "current" if i == state.round_index else "future",
        )
        for i, (letter, actions) in enumerate(state.catalog.rounds)
    )
    is_player = view.viewer_seat is not None
    code = words.code

    def card(tile: Tile) -> Markup:
        # Only a player's supply cards link to the room (its panel); the rest are shared.
        linked = is_player and tile.status == "supply"
        return _card_html(code, tile, is_player, view.room_id if linked else None)

    def tile(t: Tile, extra_class: str) -> Markup:
        return _tile_html(code, t, extra_class, is_player, view.room_id if is_player else None)

    return {
        "card": card,
        "tile": tile,
        "view": view,
        "state": state,
        "version": view.version,
        "room_id": view.room_id,
        "viewer_seat": view.viewer_seat,
        "acting": acting,
        "waiting_for_opponent": not all(view.seats_claimed),
        "turn_text": words.turn_text(state.to_move, view.viewer_seat),
        "actions_left": words.actions_left_text(state.actions_left),
        "rounds": rounds,
        "mats": mats,
        "wedges": WEDGES,
        "overview": [
            (letter, when, Markup("").join(card(t) for t in tiles))
            for letter, when, tiles in _overview(view, actionable, words)
        ],
        "log": Markup("").join(_log(view, words)),
        "sellable": sellable,
        "pass_move": pass_move,
        "final": final,
        "warehouse": state.catalog.warehouse,
        "goods": GOODS,
    }


def render_board(view: RoomView, *, lang: str = DEFAULT_LANGUAGE) -> str:
    """The board fragment for one viewer in their language: root ``id="board"``, ``data-version``,
    out-of-band swap."""
    template = environment_for(lang).get_template("board.html")
    return template.render(board_context(view, lang=lang), oob=True)
