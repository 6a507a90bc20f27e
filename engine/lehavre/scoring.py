"""The fortune of each player and the summary of a position.

Fortune = francs + the value of every building and ship owned + the bonus of buildings with a plus
value (per building of a kind, per ship, per good held) - the penalty for each loan still held.
Goods are worth nothing except through a bonus. Ties: every tied player wins.
"""

from __future__ import annotations

from typing import Any

from .catalog import FRANC
from .state import Player, State


def bonus(st: State, p: Player, bid: str) -> int:
    cat = st.catalog
    rule = cat.buildings[bid].bonus
    if not rule:
        return 0
    total = 0
    for kind, per in rule.get("per_owned", {}).items():
        count = (
            len(p.ships)
            if kind == "ship"
            else sum(1 for b in p.buildings if cat.buildings[b].kind == kind)
        )
        total += per * count
    if "per_good_held" in rule:
        num, den = rule["per_good_held"]
        total += (sum(p.goods) - p.goods[FRANC]) * num // den
    return int(total)


def fortune(st: State, p: Player) -> int:
    cat = st.catalog
    value = sum(cat.buildings[b].value + bonus(st, p, b) for b in p.buildings)
    value += sum(cat.ships[s].value for s in p.ships)
    return value + p.goods[FRANC] - cat.loans.penalty * p.loans


def scores(st: State) -> list[int]:
    return [fortune(st, p) for p in st.players]


def winners(st: State) -> list[int]:
    """The seats with the highest fortune (all of them on a tie); empty until the game is over."""
    if st.phase != "over":
        return []
    s = scores(st)
    return [seat for seat, v in enumerate(s) if v == max(s)]


def _goods(st: State, p: Player) -> dict[str, int]:
    return {st.catalog.names[i]: n for i, n in enumerate(p.goods) if n and i != FRANC}


def summary(st: State) -> dict[str, Any]:
    """The position as JSON (docs/le-havre/spec.md, "Summary")."""
    cat = st.catalog
    in_round_one = st.round == 1
    tiles = [
        t if not in_round_one or k < st.turn else None for k, t in enumerate(st.setup.supply_tiles)
    ]
    out: dict[str, Any] = {
        "round": st.round,
        "rounds": len(st.cards),
        "turn": st.turn,
        "phase": st.phase,
        "current": None if st.phase == "over" else st.current,
        "offers": {cat.names[g]: n for g, n in zip(cat.offer_spaces, st.offers, strict=True)},
        "supply_tiles": tiles,
        "players": [
            {
                "francs": p.goods[FRANC],
                "goods": _goods(st, p),
                "loans": p.loans,
                "buildings": list(p.buildings),
                "ships": list(p.ships),
                "disc": p.disc,
            }
            for p in st.players
        ],
        "town": list(st.town),
        "proposals": [list(s) for s in st.proposals],
        "specials_left": len(st.specials),
        "ship_piles": {t.id: list(pile) for t, pile in zip(cat.ship_types, st.piles, strict=True)},
        "modernised": list(st.modernised),
        "sold": list(st.sold),
        "to_feed": list(st.to_feed),
        "finals": list(st.finals),
        "scores": scores(st),
        "winners": winners(st),
    }
    return out
