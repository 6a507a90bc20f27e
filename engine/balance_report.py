"""The balance report: the first player's results and what happened to each building.

A game counts for the first player (seat 0) as a win, a draw (half a win) or a loss; the share comes
with a Wilson 95% interval (:func:`engine.arena.wilson_interval`). Per building, over all games:

- **built** — share of games in which it was built at least once;
- **uses/game** — mean number of times it was used (by either player);
- **sold** / **forced** — share of games in which its owner sold it, or the wheel's "!" sold it;
- **owned at end** — share of games in which somebody owned it when the game ended;
- **first owns** — share of games in which the first player owned it when the game ended;
- **owner won** — of those games, the share its owner won (a draw counts half);
- **winner owns** — share of all games whose winner owned it at the end (a draw has no winner).

The balance targets of ``docs/balance.md`` are checked at the bottom: the first player between 45%
and 55%, no building never built, none owned by the winner in more than 90% of games.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .arena import side_line, wilson_interval
from .catalog import Catalog

if TYPE_CHECKING:
    from .balance import BalanceSetup, GameRecord

FIRST_PLAYER_TARGET = (0.45, 0.55)
WINNER_OWNS_LIMIT = 0.90


def _first_player_result(record: GameRecord) -> float:
    first, second = record.scores
    return 1.0 if first > second else 0.5 if first == second else 0.0


def _winner(record: GameRecord) -> int | None:
    first, second = record.scores
    return None if first == second else (0 if first > second else 1)


def building_figures(building_id: str, records: Sequence[GameRecord]) -> dict[str, float | None]:
    """The figures of one building over ``records`` (shares from 0 to 1)."""
    games = len(records)
    owned = [r for r in records if building_id in r.owner_at_end]
    owner_won = [
        1.0 if _winner(r) == r.owner_at_end[building_id] else 0.5 if _winner(r) is None else 0.0
        for r in owned
    ]
    return {
        "built": sum(1 for r in records if r.built.get(building_id)) / games,
        "uses_per_game": sum(r.used.get(building_id, 0) for r in records) / games,
        "sold": sum(1 for r in records if r.sold.get(building_id)) / games,
        "forced": sum(1 for r in records if r.forced.get(building_id)) / games,
        "owned_at_end": len(owned) / games,
        "first_owns": sum(1 for r in owned if r.owner_at_end[building_id] == 0) / games,
        "owner_won": statistics.fmean(owner_won) if owner_won else None,
        "winner_owns": sum(
            1 for r in owned if _winner(r) is not None and _winner(r) == r.owner_at_end[building_id]
        )
        / games,
    }


def report_data(
    setup: BalanceSetup, catalog: Catalog, records: Sequence[GameRecord]
) -> dict[str, Any]:
    """Everything the report says, JSON-ready."""
    games = len(records)
    wins = sum(_first_player_result(r) for r in records)
    low, high = wilson_interval(wins, games)
    margins = [r.scores[0] - r.scores[1] for r in records]
    buildings = {b.id: building_figures(b.id, records) for b in catalog.buildings}
    return {
        "catalog": setup.catalog_id,
        "catalog_sha256": setup.catalog_hash,
        "games": games,
        "budget": setup.budget,
        "seed": setup.seed,
        "opening": {
            "actions": setup.opening_actions,
            "choices": setup.opening_choices,
            "different": len({r.opening for r in records}),
        },
        "first_player": {
            "won": sum(1 for r in records if r.scores[0] > r.scores[1]),
            "drawn": sum(1 for r in records if r.scores[0] == r.scores[1]),
            "lost": sum(1 for r in records if r.scores[0] < r.scores[1]),
            "rate": wins / games,
            "interval": [low, high],
            "mean_margin": statistics.fmean(margins),
            "mean_scores": [statistics.fmean(r.scores[seat] for r in records) for seat in (0, 1)],
        },
        "buildings": buildings,
        "never_built": [b for b, f in buildings.items() if f["built"] == 0],
        "winner_owns_over_limit": [
            b for b, f in buildings.items() if (f["winner_owns"] or 0) > WINNER_OWNS_LIMIT
        ],
    }


def report_json(setup: BalanceSetup, catalog: Catalog, records: Sequence[GameRecord]) -> str:
    return json.dumps(report_data(setup, catalog, records), indent=2, sort_keys=True)


def _pct(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:.0f}%"


def report_lines(setup: BalanceSetup, catalog: Catalog, records: Sequence[GameRecord]) -> list[str]:
    """The printed report."""
    data = report_data(setup, catalog, records)
    first = data["first_player"]
    opening = data["opening"]
    margins = [r.scores[0] - r.scores[1] for r in records]
    wins = first["rate"] * data["games"]
    lines = [
        f"catalog {data['catalog']} (sha256 {data['catalog_sha256'][:16]}), {data['games']} games, "
        f"strong bots with {data['budget']} greedy turns per move, seed {data['seed']}",
        f"openings: the first {opening['actions']} actions drawn among the "
        f"{opening['choices']} best kinds of move ({opening['different']} different)",
        side_line("first player", wins, data["games"], margins),
        f"first player: {first['won']} won, {first['drawn']} drawn, {first['lost']} lost; "
        f"mean score {first['mean_scores'][0]:.1f} to {first['mean_scores'][1]:.1f}",
        "",
        f"{'building':<22}{'built':>7}{'uses/game':>11}{'sold':>6}{'forced':>8}"
        f"{'owned at end':>14}{'first owns':>12}{'owner won':>11}{'winner owns':>13}",
    ]
    for building in catalog.buildings:
        f = data["buildings"][building.id]
        lines.append(
            f"{building.letter} {building.id:<20}{_pct(f['built']):>7}"
            f"{f['uses_per_game']:>11.2f}{_pct(f['sold']):>6}{_pct(f['forced']):>8}"
            f"{_pct(f['owned_at_end']):>14}{_pct(f['first_owns']):>12}"
            f"{_pct(f['owner_won']):>11}{_pct(f['winner_owns']):>13}"
        )
    low_target, high_target = FIRST_PLAYER_TARGET
    in_target = low_target <= first["rate"] <= high_target
    lines += [
        "",
        f"first player within {_pct(low_target)}-{_pct(high_target)}: "
        f"{'yes' if in_target else 'no'}",
        f"never built: {', '.join(data['never_built']) or 'none'}",
        f"owned by the winner in more than {_pct(WINNER_OWNS_LIMIT)} of games: "
        f"{', '.join(data['winner_owns_over_limit']) or 'none'}",
    ]
    return lines
