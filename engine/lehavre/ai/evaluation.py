"""The worth of a position to one seat, in francs: what the computer players maximise.

A player's worth is their fortune as scored (francs, buildings, ships, bonuses, −7 a loan) plus
what the fortune does not count yet but will earn:

- goods, at a share of their franc value (shipped they earn it all, unused nothing), a material at
  more, a food good at most of its food value; less as the game runs out of turns to use them;
  worth nothing once the game is over;
- food security: the food the next round end asks beyond what the ships provide will be paid
  (about a franc a unit), and what cannot be paid from food and francs means loans (4 francs,
  then 7 at the end and interest each round); the later round ends' food costs about half a franc
  a unit (there is time to provide it, or ships to build);
- buildings' future use: each enterable building one owns is entered free and earns others' fees,
  a little each round left;
- loans' cost: one franc of interest a round left, on top of the penalty in the fortune.

The worth of a seat in a position is its own worth less the best rival's (solo: its own).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..catalog import FRANC, Catalog
from ..scoring import fortune
from ..state import Player, State

GOODS_SHARE = 0.5
"""A good is worth this share of its franc value (shipped, it earns all of it; unsold, nothing)."""
FOOD_SHARE = 0.85
"""Francs per unit of food a food good is worth (it pays feeding as francs would)."""
MATERIAL_SHARE = 0.8
"""A building or ship material is worth this share of its franc value."""
GOODS_LATE = 0.35
"""The share of a good's value kept in the last round (full value with four rounds or more left)."""
FOOD_AHEAD = 0.5
"""Francs per unit of food the later round ends will ask beyond the ships' food."""
FOOD_NOW = 0.9
"""Francs per unit of food the next round end asks beyond the ships' food (it will be paid)."""
FOOD_HORIZON = 21
"""Turns over which the cost of a unit of food owed falls from ``FOOD_NOW`` to ``FOOD_AHEAD``."""
SHORT_LOAN = 3.0
"""Francs lost per loan a round end forces (7 at the end for 4 now), interest apart."""
BUILDING_USE = 0.4
"""Francs per enterable building owned, per round left (at most ``USE_ROUNDS``)."""
USE_ROUNDS = 8
MEMO_SIZE = 50_000
_MEMO: dict[tuple[object, ...], float] = {}


@dataclass(frozen=True, slots=True)
class Tables:
    """Per-catalog numbers the evaluation reads many times a move."""

    goods_value: tuple[float, ...]  # per goods index, francs (index 0 unused)
    food: tuple[int, ...]  # food value per goods index, francs 1
    ship_food: dict[tuple[str, int], int]  # (ship id, players) -> food provided
    enterable: frozenset[str]


_TABLES: dict[int, tuple[Catalog, Tables]] = {}


def tables(cat: Catalog) -> Tables:
    """The catalog's tables (remembered per catalog object)."""
    found = _TABLES.get(id(cat))
    if found is not None and found[0] is cat:
        return found[1]
    food = [0] * cat.size
    food[FRANC] = 1
    value = [0.0] * cat.size
    materials = {i for b in cat.buildings.values() for i, _ in b.materials or ()}
    materials |= {i for t in cat.ship_types for i, _ in t.materials}
    materials |= {sub for sub, _ in cat.substitutes}
    for good in cat.goods:
        food[good.index] = good.food
        value[good.index] = max(
            GOODS_SHARE * good.franc_value,
            FOOD_SHARE * good.food,
            MATERIAL_SHARE * good.franc_value if good.index in materials else 0.0,
        )
    ship_food = {
        (sid, n): cat.ship_type(ship.type).food.get(n, 0)
        for sid, ship in cat.ships.items()
        for n in range(1, 6)
    }
    enterable = frozenset(
        b.id for b in cat.buildings.values() if b.fee is not None and b.effect_kind != "none"
    )
    made = Tables(tuple(value), tuple(food), ship_food, enterable)
    _TABLES[id(cat)] = (cat, made)
    return made


def rounds_left(st: State) -> float:
    """Rounds still to play, counted in turns (the current round's part included); 0 in the final
    stage."""
    per_round = st.catalog.turns_per_round
    return max(0.0, len(st.cards) - st.round + (per_round - st.turn) / per_round)


def player_worth(st: State, seat: int, clock: float) -> float:
    """One seat's worth in francs (see the module's docstring); ``clock`` is the rounds left
    (:func:`rounds_left`) of the position being decided, so that a move that passes time (ending
    a turn, feeding) is not judged worse than one that does not (buying, selling). Remembered for
    the last ``MEMO_SIZE`` (player, moment) pairs: a move changes one or two players' holdings."""
    p = st.players[seat]
    done = st.phase == "feed" and seat != st.current and seat not in st.to_feed
    key = (
        p,
        st.round,
        st.turn,
        done,
        st.phase == "over",
        clock,
        id(st.catalog),
        st.setup.variant,
        st.setup.players,
    )
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.clear()
        found = _MEMO[key] = _player_worth(st, p, done, clock)
    return found


def _player_worth(st: State, p: Player, done: bool, clock: float) -> float:
    total = float(fortune(st, p))
    if st.phase == "over":
        return total
    t = tables(st.catalog)
    share = GOODS_LATE + (1 - GOODS_LATE) * min(1.0, clock / 4)
    if st.round > len(st.cards):
        share = GOODS_LATE / 2  # the final action may still ship or convert them
    goods = p.goods
    total += share * sum(goods[i] * t.goods_value[i] for i in range(1, len(goods)) if goods[i])
    total -= _hunger(st, p, done, t)
    uses = sum(1 for b in p.buildings if b in t.enterable)
    total += BUILDING_USE * min(clock, USE_ROUNDS) * uses
    total -= st.catalog.loans.interest * clock * p.loans
    return total


def _hunger(st: State, p: Player, done: bool, t: Tables) -> float:
    """The cost of the food the coming round ends ask beyond the ships' food: a franc a unit
    (``FOOD_NOW``) at the next round end, less for those further away, by turns (so feeding, which
    moves no time, does not make the next round end look dearer); and the loans of a shortfall of
    food and francs for the round ends within a round's turns. ``done``: ``p`` has fed at this
    round end already."""
    n = st.setup.players
    fed = sum(t.ship_food[(s, n)] for s in p.ships)
    cards = st.cards[st.round - 1 + done :]
    if not cards:
        return 0.0
    per_round = st.catalog.turns_per_round
    away = per_round - st.turn + per_round * done
    cost = 0.0
    soon = 0  # owed within a round's turns from now
    for card in cards:
        owed = card.food - fed
        if owed > 0:
            cost += owed * (FOOD_NOW - (FOOD_NOW - FOOD_AHEAD) * min(1.0, away / FOOD_HORIZON))
            soon += owed if away <= per_round else 0
        away += per_round
    held = sum(p.goods[i] * f for i, f in enumerate(t.food) if f and p.goods[i])
    short = max(0, soon - held)
    cost += SHORT_LOAN * -(-short // st.catalog.loans.francs)
    return cost


def worth(st: State, seat: int, clock: float | None = None) -> float:
    """``seat``'s worth less the best rival's worth (solo: its own); ``clock`` defaults to the
    rounds left in ``st``."""
    if clock is None:
        clock = rounds_left(st)
    own = player_worth(st, seat, clock)
    if len(st.players) == 1:
        return own
    return own - max(player_worth(st, s, clock) for s in range(len(st.players)) if s != seat)
