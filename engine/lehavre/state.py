"""The immutable game state: frozen dataclasses over tuples, and the start of a game.

Phases of the player to move (``current``): ``main`` (the supply is done; a main action is due),
``after`` (the main action is done; buy, sell, repay or end the turn), ``feed`` (the round end
asks this player to feed), ``final`` / ``final_after`` (the final stage), ``over``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from .catalog import Catalog, RoundCard
from .goods import Vec
from .loader import default_catalog
from .setup import Setup, check_setup

PHASES = ("main", "after", "feed", "final", "final_after", "over")

T = TypeVar("T")
_SET = object.__setattr__
_NAMES: dict[type, tuple[str, ...]] = {}


def replace(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for the frozen records of this package, without its per-field
    checks: a position is copied several times a move."""
    cls = type(obj)
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(obj))  # type: ignore[arg-type]
    new = object.__new__(cls)
    for name in names:
        _SET(new, name, changes.pop(name) if name in changes else getattr(obj, name))
    if changes:
        raise TypeError(f"{cls.__name__} has no fields {sorted(changes)}")
    return new


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
