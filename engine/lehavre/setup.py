"""The start of a game as data: :class:`Setup` and :func:`random_setup`.

A setup fixes everything chance decides: the player count, the variant, the order of the supply
tiles, the three building-proposal stacks (each sorted by card number, lowest on top), the special
buildings in the order they are drawn, and the first player. A game is its setup plus its moves.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .catalog import Catalog
from .errors import MalformedMove, malformed
from .loader import PLAYER_COUNTS, VARIANTS, default_catalog

STACKS = 3
"""Number of building-proposal stacks."""


@dataclass(frozen=True, slots=True)
class Setup:
    players: int
    variant: str
    supply_tiles: tuple[str, ...]
    proposals: tuple[tuple[str, ...], ...]
    specials: tuple[str, ...]
    first_player: int

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "variant": self.variant,
            "supply_tiles": list(self.supply_tiles),
            "proposals": [list(stack) for stack in self.proposals],
            "specials": list(self.specials),
            "first_player": self.first_player,
        }

    @classmethod
    def from_json(cls, obj: Any, catalog: Catalog | None = None) -> Setup:
        """Read and check a setup; :class:`MalformedMove` (code ``bad_setup``) names what is wrong."""
        cat = catalog or default_catalog()
        if not isinstance(obj, Mapping):
            raise malformed("bad_setup", field="setup", reason="not an object")
        fields = ("players", "variant", "supply_tiles", "proposals", "specials", "first_player")
        for name in fields:
            if name not in obj:
                raise malformed("bad_setup", field=name, reason="missing")
        for name in obj:
            if name not in fields:
                raise malformed("bad_setup", field=name, reason="unknown field")
        setup = cls(
            players=obj["players"],
            variant=obj["variant"],
            supply_tiles=_strings(obj["supply_tiles"], "supply_tiles"),
            proposals=tuple(_strings(s, "proposals") for s in _list(obj["proposals"], "proposals")),
            specials=_strings(obj["specials"], "specials"),
            first_player=obj["first_player"],
        )
        check_setup(setup, cat)
        return setup


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise malformed("bad_setup", field=name, reason="not a list")
    return value


def _strings(value: Any, name: str) -> tuple[str, ...]:
    items = _list(value, name)
    if not all(isinstance(x, str) for x in items):
        raise malformed("bad_setup", field=name, reason="not a list of ids")
    return tuple(items)


def proposal_buildings(cat: Catalog, players: int, variant: str) -> list[str]:
    """The standard buildings that go into the proposal stacks, in catalog order."""
    return [
        b.id
        for b in cat.buildings.values()
        if b.group == "standard"
        and players in (b.full_players if variant == "full" else b.short_players)
    ]


def special_pool(cat: Catalog, players: int) -> list[str]:
    """The special buildings a setup may draw from (the solo game leaves some out)."""
    return [
        b.id for b in cat.buildings.values() if b.group == "special" and (players > 1 or b.solo)
    ]


def _bad(field: str, reason: str) -> MalformedMove:
    return malformed("bad_setup", field=field, reason=reason)


def check_setup(setup: Setup, cat: Catalog) -> None:
    """Raise :class:`MalformedMove` unless ``setup`` is a possible start of a game."""
    if isinstance(setup.players, bool) or setup.players not in PLAYER_COUNTS:
        raise _bad("players", "must be 1 to 5")
    if setup.variant not in VARIANTS:
        raise _bad("variant", "must be full or short")
    if sorted(setup.supply_tiles) != sorted(t.id for t in cat.tiles):
        raise _bad("supply_tiles", "must order every supply tile once")
    if len(setup.proposals) != STACKS:
        raise _bad("proposals", "must be three stacks")
    wanted = proposal_buildings(cat, setup.players, setup.variant)
    given = [b for stack in setup.proposals for b in stack]
    if sorted(given) != sorted(wanted):
        raise _bad("proposals", "must hold every proposal building of this game once")
    if max(map(len, setup.proposals)) - min(map(len, setup.proposals)) > 1:
        raise _bad("proposals", "the stacks must be of equal size")
    for stack in setup.proposals:
        numbers = [cat.buildings[b].number or 0 for b in stack]
        if numbers != sorted(numbers):
            raise _bad("proposals", "each stack must be sorted by card number, lowest first")
    pool = special_pool(cat, setup.players)
    dealt = cat.start[setup.variant].specials_dealt
    if len(setup.specials) != dealt or len(set(setup.specials)) != dealt:
        raise _bad("specials", f"must draw {dealt} different special buildings")
    if any(s not in pool for s in setup.specials):
        raise _bad("specials", "names a special building not in this game")
    seat = setup.first_player
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < setup.players:
        raise _bad("first_player", "must be a seat number from 0")


def random_setup(
    players: int, variant: str = "full", seed: int | None = None, catalog: Catalog | None = None
) -> Setup:
    """A random setup: shuffled tiles, stacks dealt from a shuffle and sorted, specials drawn."""
    cat = catalog or default_catalog()
    if players not in PLAYER_COUNTS or variant not in VARIANTS:
        raise _bad("players" if players not in PLAYER_COUNTS else "variant", "out of range")
    rng = random.Random(seed)
    tiles = [t.id for t in cat.tiles]
    rng.shuffle(tiles)
    cards = proposal_buildings(cat, players, variant)
    rng.shuffle(cards)
    size = -(-len(cards) // STACKS)
    stacks = tuple(
        tuple(sorted(cards[i * size : (i + 1) * size], key=lambda b: cat.buildings[b].number or 0))
        for i in range(STACKS)
    )
    pool = special_pool(cat, players)
    rng.shuffle(pool)
    setup = Setup(
        players=players,
        variant=variant,
        supply_tiles=tuple(tiles),
        proposals=stacks,
        specials=tuple(pool[: cat.start[variant].specials_dealt]),
        first_player=rng.randrange(players),
    )
    check_setup(setup, cat)
    return setup
