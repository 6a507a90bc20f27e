"""The buildings by round letter: in the supply, built (and by whom), or still to come.

A building can be built while it is in the supply, paid from the warehouse (food is fish and grain
together) or in francs; a supply card that the player to move cannot build says why. The round
track shows the same rounds: past, current or still to come.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping
from functools import cached_property, lru_cache

from app.reads.roomview import RoomView
from engine import GameState
from engine.catalog import Catalog

from .cache import VERSION_MEMO, Same
from .warehouse import have
from .wheel import Tile, tile
from .words import AMOUNT_ORDER, Words


def cost_of(state: GameState, building_id: str) -> dict[str, int]:
    """A building's printed cost, good -> amount."""
    return dict(state.catalog.building(building_id).cost)


def shortfall(words: Words, cost: Mapping[str, int], owned: Mapping[str, int]) -> str | None:
    """Why a cost cannot be paid, e.g. 'needs 2 clay, you have 1'; None when it can be covered.

    Food is fish and grain together; francs come from the player's francs. Several missing
    goods read 'needs 2 wood and 2 clay, you have 1 wood and 1 clay'.
    """
    needs: list[str] = []
    owns: list[str] = []
    counts: list[int] = []
    food = owned.get("fish", 0) + owned.get("grain", 0)
    for good in AMOUNT_ORDER:
        need = cost.get(good, 0)
        count = food if good == "food" else owned.get(good, 0)
        if need <= count:
            continue
        needs.append(words.amount(good, need))
        owns.append(words.amount(good, count) if good != "francs" else words.number(count))
        counts.append(count)
    if not needs:
        return None
    t = words.lang
    if len(needs) == 1:
        return t.gettext(
            "needs %(need)s, you have %(have)s", need=needs[0], have=words.number(counts[0])
        )
    return t.gettext("needs %(need)s, you have %(have)s", need=t.join(needs), have=t.join(owns))


#: A player's goods amounts and francs, as `have` gives them, in its order.
Wallet = tuple[tuple[str, int], ...]


@lru_cache(maxsize=16384)
def _reason(words: Words, cost: tuple[tuple[str, int], ...], wallet: Wallet) -> str:
    """Why a supply card of this cost would not be built from this wallet: what the cost lacks,
    or, when the cost can be covered, that no payment is valid now. Remembered: a player's
    wallet, and so the reasons, most often stay as they were from one board to the next (the
    other player's move changes neither)."""
    return shortfall(words, dict(cost), dict(wallet)) or words.lang.gettext("no valid payment")


@lru_cache(maxsize=4096)
def _reasons(
    words: Words, catalog: Catalog, in_supply: tuple[str, ...], wallet: Wallet
) -> tuple[tuple[str, str], ...]:
    """(building, why it would not be built from `wallet`) for a round's supply cards, by id.
    Remembered: a round's supply and a player's wallet most often stay as they were from one
    board to the next."""
    return tuple((b, _reason(words, catalog.building(b).cost, wallet)) for b in sorted(in_supply))


def _status(building_id: str, owner: int | None, supply: Collection[str]) -> str:
    if owner is not None:
        return "owned"
    return "supply" if building_id in supply else "future"


def rounds(state: GameState) -> tuple[tuple[str, int, str], ...]:
    """Each round's letter, its number of actions, and "past", "current" or "future"."""
    now = state.round_index
    return tuple(
        (letter, actions, _when(i, now)) for i, (letter, actions) in enumerate(state.catalog.rounds)
    )


def _when(index: int, now: int) -> str:
    """Round `index` when round `now` is being played: "past", "current" or "future"."""
    return "past" if index < now else "current" if index == now else "future"


class SupplyRound:
    """The buildings of one round letter, as one viewer sees them: worked out only when drawn.

    `key` is what the round's cards are drawn from, beyond what stays the same for the viewer
    (language, room): the buildings' owners and places and, for a player, why each supply card
    would not be built from the player's warehouse and francs. Whether that reason shows is the
    page's business: only while the player may move, on a card the player may not build now
    (``data-playable`` on the board element, `static/js/marks.js`), so a turn passing redraws
    no card.
    """

    def __init__(
        self, view: RoomView, index: int, facts: RoundFacts, words: Words, wallet: Wallet | None
    ) -> None:
        self.index = index
        self.letter, self.when, self._buildings, self._owners, self._in_supply = facts
        self._view = view
        self._words = words
        #: Why each supply card could not be built by the viewer (a player, whose `wallet` it is).
        self._reasons = (
            () if wallet is None else _reasons(words, view.state.catalog, self._in_supply, wallet)
        )
        self.key: Hashable = (index, facts, self._reasons, view.state.catalog)

    @cached_property
    def tiles(self) -> list[Tile]:
        """Every building of the round letter, in the catalog's order."""
        state = self._view.state
        tiles = []
        reasons = dict(self._reasons)
        for building_id, owner in zip(self._buildings, self._owners, strict=True):
            status = _status(building_id, owner, self._in_supply)
            tiles.append(
                tile(
                    state.catalog,
                    building_id,
                    self._words.code,
                    status=status,
                    owner=owner,
                    age=None,
                    reason=reasons.get(building_id) if status == "supply" else None,
                )
            )
        return tiles


#: One round letter in one position, the same for every viewer: its letter, "past", "current" or
#: "future", its buildings in the catalog's order, each one's owner (a seat, or None) and those in
#: the supply. A plain tuple of strings, numbers and such tuples, which the collector stops
#: tracking: the facts of thousands of positions stay remembered (`_facts`), and a dataclass or a
#: set of each would be walked by every full collector pass.
RoundFacts = tuple[str, str, tuple[str, ...], tuple[int | None, ...], tuple[str, ...]]


def round_facts(state: GameState) -> tuple[RoundFacts, ...]:
    """Each round letter's buildings, their owners and which are in the supply, once per
    position (the boards of a version share the same state object)."""
    return _round_facts(Same(state))


@lru_cache(maxsize=VERSION_MEMO)
def _round_facts(key: Same) -> tuple[RoundFacts, ...]:
    state: GameState = key.obj  # type: ignore[assignment]
    owned = tuple(sorted((b, seat) for seat, p in enumerate(state.players) for b, _ in p.buildings))
    return _facts(state.catalog, state.round_index, owned, state.supply)


@lru_cache(maxsize=4096)
def _facts(
    catalog: Catalog, round_index: int, owned: tuple[tuple[str, int], ...], supply: tuple[str, ...]
) -> tuple[RoundFacts, ...]:
    """The round facts of a position with this round, these buildings owned (building, seat) and
    this supply (the engine's `GameState.supply`): all they depend on, and most moves change
    none of it, so a room's next position finds them worked out, however many rooms moved in
    between."""
    owner = dict(owned)
    in_supply = frozenset(supply)
    by_letter = _by_letter(catalog)
    result = []
    for index, (letter, _actions) in enumerate(catalog.rounds):
        ids = by_letter.get(letter, ())
        owners = tuple(owner.get(b) for b in ids)
        supplied = tuple(b for b in ids if b in in_supply)
        result.append((letter, _when(index, round_index), ids, owners, supplied))
    return tuple(result)


@lru_cache(maxsize=64)
def _by_letter(catalog: Catalog) -> dict[str, tuple[str, ...]]:
    """Each round letter's buildings, in the catalog's order."""
    result: dict[str, tuple[str, ...]] = {}
    for building in catalog.buildings:
        result[building.letter] = (*result.get(building.letter, ()), building.id)
    return result


def overview(view: RoomView, words: Words) -> list[SupplyRound]:
    """Every building by round letter (with "past", "current" or "future" for the round)."""
    seat = view.viewer_seat
    wallet = tuple(have(view.state, seat).items()) if seat is not None else None
    return [
        SupplyRound(view, index, facts, words, wallet)
        for index, facts in enumerate(round_facts(view.state))
    ]
