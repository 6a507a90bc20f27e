"""Game state + viewer -> template context, and the board fragment the sockets send.

`render_board(view)` is the one function the WebSocket layer calls: it returns the HTML of the
table (root element ``id="board"``, ``data-version``, swapped in by htmx out of band). The page
routes render the same block inside the full page, so a reload and a live update draw the same
board.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from starlette.templating import Jinja2Templates

from engine import GameState, score_breakdown, scores

from . import present
from .panel import cost_dict, have, moves_by_building
from .present import GOODS, SECTOR_HINTS, SECTOR_LABELS
from .roomview import RoomView

TEMPLATE_DIR = Path(__file__).resolve().parent.parent / "templates"
STATIC_DIR = Path(__file__).resolve().parent.parent / "static"

environment = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)
environment.globals["present"] = present
environment.globals["static"] = lambda path: f"/static/{path}"
environment.globals["client_move_id"] = lambda: secrets.token_hex(12)
templates = Jinja2Templates(env=environment)

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
    x: float = 0.0
    y: float = 0.0

    @property
    def aria(self) -> str:
        parts = [self.name]
        if self.sector is not None:
            parts.append(f"sector {self.sector}")
        if self.owner is not None:
            parts.append(present.owned_by(self.owner))
        if self.status == "supply":
            parts.append(f"cost {self.cost}")
        if self.status == "future":
            parts.append(present.coming_in(self.letter))
        if self.reason:
            parts.append(self.reason)
        return ", ".join(parts)


@dataclass(frozen=True)
class Wedge:
    label: str
    hint: str
    path: str
    label_x: float
    label_y: float
    danger: bool


@dataclass(frozen=True)
class Counter:
    good: str
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

    @property
    def warehouse_label(self) -> str:
        """What a screen reader says for the warehouse grid."""
        goods = ", ".join(f"{c.good} {c.amount}" for c in self.counters)
        return f"Warehouse of {self.name}: {goods}"


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
        result.append(
            Wedge(label, SECTOR_HINTS[i], path, 100 + lx, 100 + ly, i == len(SECTOR_LABELS) - 1)
        )
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


def _value_data(state: GameState, building_id: str) -> Any:
    value = state.catalog.building(building_id).value
    return value if isinstance(value, int) else {"per": value.per, "rate": value.rate}


def _tile(
    state: GameState,
    building_id: str,
    *,
    status: str,
    owner: int | None,
    age: int | None,
    actionable: bool,
    reason: str | None,
    position: tuple[float, float] = (0.0, 0.0),
) -> Tile:
    building = state.catalog.building(building_id)
    return Tile(
        id=building_id,
        name=building.name,
        letter=building.letter,
        cost=present.cost_text(dict(building.cost)),
        cost_parts=tuple(sorted(building.cost, key=lambda kv: _COST_ORDER.index(kv[0]))),
        value=present.value_text(_value_data(state, building_id)),
        effect=present.EFFECTS.get(building_id, present.LOCKED_EFFECT),
        status=status,
        owner=owner,
        sector=SECTOR_LABELS[age] if age is not None else None,
        actionable=actionable,
        reason=reason,
        x=position[0],
        y=position[1],
    )


def _mat(view: RoomView, seat: int, actionable: set[str]) -> Mat:
    state = view.state
    player = state.players[seat]
    warehouse = state.catalog.warehouse
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
                    status="owned",
                    owner=seat,
                    age=age,
                    actionable=building_id in actionable,
                    reason=None,
                    position=position,
                )
            )
    breakdown = score_breakdown(state, seat)
    counters = tuple(
        Counter(
            good,
            present.GOOD_LETTER[good],
            warehouse.amount(player.goods[good]),
            player.goods[good][0],
            player.goods[good][1],
        )
        for good in GOODS
    )
    return Mat(
        seat=seat,
        name=present.seat_name(seat),
        role=present.seat_role(seat, view.viewer_seat),
        francs=player.francs,
        score=int(breakdown["total"]),
        breakdown=tuple(
            (state.catalog.building(b).name, int(v))
            for b, v in sorted(breakdown["buildings"].items(), key=lambda kv: -kv[1])
        ),
        online=view.online[seat],
        claimed=view.seats_claimed[seat],
        to_move=state.to_move == seat,
        counters=counters,
        tiles=tuple(tiles),
        locked=tuple(
            _tile(
                state,
                b,
                status="owned",
                owner=seat,
                age=None,
                actionable=b in actionable,
                reason=None,
            )
            for b in locked
        ),
    )


def can_act(view: RoomView) -> bool:
    """Whether the viewer may make a move now: a player, both seats taken, their turn."""
    state = view.state
    return (
        view.viewer_seat is not None
        and all(view.seats_claimed)
        and state.to_move is not None
        and state.to_move == view.viewer_seat
    )


def _overview(view: RoomView, actionable: set[str]) -> list[tuple[str, str, list[Tile]]]:
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
                reason = present.shortfall(cost_dict(state, building.id), wallet) or (
                    "no valid payment"
                )
            tiles.append(
                _tile(
                    state,
                    building.id,
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


def _log(view: RoomView, names: dict[str, str]) -> list[tuple[int, int, list[str]]]:
    entries = []
    for entry in reversed(view.log):
        entries.append((entry.seq, entry.seat, present.describe_events(entry.events, names)))
    return entries


def board_context(view: RoomView) -> dict[str, Any]:
    """Everything the board template draws, for one viewer."""
    state = view.state
    names = {b.id: b.name for b in state.catalog.buildings}
    acting = can_act(view)
    grouped = moves_by_building(state) if acting else {}
    actionable = {
        b for b, moves in grouped.items() if b and any(m.type in ("build", "use") for m in moves)
    }
    sellable = {b: m.canonical for b, moves in grouped.items() for m in moves if m.type == "sell"}
    pass_move = next((m.canonical for m in grouped.get("", []) if m.type == "pass"), None)
    order = (0, 1) if view.viewer_seat in (None, 0) else (1, 0)
    mats = [_mat(view, seat, actionable) for seat in order]
    finished = state.to_move is None
    final = None
    if finished:
        totals = scores(state)
        winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
        final = {
            "scores": totals,
            "winner": winner,
            "headline": present.result_text(winner, view.viewer_seat),
        }
    rounds = [
        (
            letter,
            actions,
            "past" if i < state.round_index else "current" if i == state.round_index else "future",
        )
        for i, (letter, actions) in enumerate(state.catalog.rounds)
    ]
    return {
        "view": view,
        "state": state,
        "version": view.version,
        "room_id": view.room_id,
        "viewer_seat": view.viewer_seat,
        "acting": acting,
        "waiting_for_opponent": not all(view.seats_claimed),
        "turn_text": present.turn_text(state.to_move, view.viewer_seat),
        "actions_left": present.actions_left_text(state.actions_left),
        "rounds": rounds,
        "mats": mats,
        "wedges": WEDGES,
        "overview": _overview(view, actionable),
        "log": _log(view, names),
        "sellable": sellable,
        "pass_move": pass_move,
        "final": final,
        "warehouse": state.catalog.warehouse,
        "goods": GOODS,
    }


def render_board(view: RoomView, *, lang: str = "en") -> str:
    """The board fragment for one viewer: root ``id="board"``, ``data-version``, out-of-band swap."""
    del lang  # the table speaks English until the gettext catalogues arrive
    template = environment.get_template("board.html")
    return template.render(board_context(view), oob=True)
