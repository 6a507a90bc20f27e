"""The immutable game state: frozen dataclasses over tuples, and the start of a game.

Phases of the player to move (``current``): ``main`` (the supply is done; a main action is due),
``after`` (the main action is done; buy, sell, repay or end the turn), ``feed`` (the round end
asks this player to feed), ``final`` / ``final_after`` (the final stage), ``over``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from .catalog import Catalog, RoundCard
from .goods import Vec
from .loader import default_catalog
from .setup import Setup, check_setup

PHASES = ("main", "after", "feed", "final", "final_after", "over")

T = TypeVar("T")
_COPIERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def _copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """A function copying a frozen, slotted record with some fields changed, written out field by
    field as dataclasses writes ``__init__`` (no loop, no ``__init__`` checks)."""
    names = [f.name for f in fields(cls)]
    lines = ["def copy(obj, changes):", "    new = new_object(cls)"]
    for name in names:
        lines.append(f"    set_field(new, {name!r}, changes.pop({name!r}, obj.{name}))")
    lines += ["    if changes:", "        raise TypeError(f'unknown fields {sorted(changes)}')"]
    lines.append("    return new")
    scope: dict[str, Any] = {
        "new_object": object.__new__,
        "set_field": object.__setattr__,
        "cls": cls,
    }
    exec("\n".join(lines), scope)  # the code is made from the class's own field names
    copy: Callable[[Any, dict[str, Any]], Any] = scope["copy"]
    return copy


def replace(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for the frozen records of this package, without its per-call
    checks: a position is copied several times a move."""
    copier = _COPIERS.get(type(obj))
    if copier is None:
        copier = _COPIERS[type(obj)] = _copier(type(obj))
    result: T = copier(obj, changes)
    return result


@dataclass(frozen=True, slots=True)
class Player:
    goods: Vec  # index 0 francs
    loans: int = 0
    buildings: tuple[str, ...] = ()
    ships: tuple[str, ...] = ()
    disc: str | None = None  # the building the person disc stands in


@dataclass(frozen=True, slots=True)
class State:
    setup: Setup
    players: tuple[Player, ...]
    offers: tuple[int, ...]  # per offer space, in the catalog's order
    round: int  # 1-based; the number of rounds + 1 in the final stage
    turn: int  # supply tiles used in this round (the current turn's tile is turn - 1)
    current: int
    phase: str
    town: tuple[str, ...]
    proposals: tuple[tuple[str, ...], ...]
    specials: tuple[str, ...]  # still face down, top first
    piles: tuple[tuple[str, ...], ...]  # per ship type in the catalog's order, top first
    modernised: tuple[str, ...] = ()
    sold: tuple[str, ...] = ()  # cards the current player sold this turn
    to_feed: tuple[int, ...] = ()  # players still to feed after ``current``
    finals: tuple[int, ...] = ()  # final actions still due after ``current``
    catalog: Catalog = field(default_factory=default_catalog, compare=False, repr=False)

    @property
    def cards(self) -> tuple[RoundCard, ...]:
        return self.catalog.rounds[(self.setup.variant, self.setup.players)]

    def owner(self, building: str) -> int | None:
        """The seat owning ``building``; -1 for the town; ``None`` if not built."""
        if building in self.town:
            return -1
        for seat, p in enumerate(self.players):
            if building in p.buildings:
                return seat
        return None

    def with_player(self, seat: int, player: Player) -> State:
        players = list(self.players)
        players[seat] = player
        return replace(self, players=tuple(players))


def start_state(setup: Setup, catalog: Catalog | None = None) -> State:
    """The position before the first supply step (rules.new_game performs it)."""
    cat = catalog or default_catalog()
    check_setup(setup, cat)
    n = setup.players
    start = cat.start[setup.variant]
    player_ships = start.player_ships.get(n, ())
    order = [(setup.first_player + k) % n for k in range(n)]
    ships = {seat: player_ships[k : k + 1] for k, seat in enumerate(order)}
    piles = tuple(
        tuple(s for s in start.pile_ships.get(n, ()) if cat.ships[s].type == t.id)
        for t in cat.ship_types
    )
    return State(
        setup=setup,
        players=tuple(Player(start.per_player, ships=ships[seat]) for seat in range(n)),
        offers=start.offers,
        round=1,
        turn=0,
        current=setup.first_player,
        phase="main",
        town=start.town + start.extra_town.get(n, ()),
        proposals=setup.proposals,
        specials=setup.specials,
        piles=piles,
        catalog=cat,
    )
