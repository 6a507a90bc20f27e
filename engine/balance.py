"""``python -m engine balance``: strong bots play each other, to check one catalog's numbers.

Both seats play the strong bot with the same fixed work budget — ``budget`` greedy turns simulated
per move, never seconds — so a run gives the same games for the same seed on any machine. Such a
bot plays the same move in the same position, so two of them would play one game over and over;
what makes games differ is the **opening**: the first :data:`OPENING_ACTIONS` actions of a game
(three per player, rounds A and B) are each drawn among the :data:`OPENING_CHOICES` best kinds of
move of the greedy evaluation. Game ``i`` takes opening number ``codes[i]`` of a seeded shuffle of
all ``3**6 = 729`` of them (written in base 3, one digit per action), so no two of the first 729
games open alike; after the opening both players search.

Because both seats are the same bot, "seat alternation" is built in: each game measures the first
player directly. What is counted per game is in :class:`GameRecord`; the report is in
:mod:`engine.balance_report`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from .ai.strong import StrongBot, candidate_plans
from .arena import map_in_order, positive_int
from .balance_report import report_json, report_lines
from .catalog import Catalog
from .catalogs import CatalogEntry, entry_from_data, load_registry, read_catalog_file
from .events import Event
from .rules import apply_with_events
from .state import GameState, new_game, scores

OPENING_ACTIONS = 6
OPENING_CHOICES = 3

DEFAULT_BUDGET = 16
"""Greedy turns simulated per move: the least that lets every candidate look two turns ahead."""


@dataclass(frozen=True)
class BalanceSetup:
    catalog_id: str
    catalog_hash: str
    catalog_data: Mapping[str, Any]
    budget: int
    seed: int
    opening_actions: int = OPENING_ACTIONS
    opening_choices: int = OPENING_CHOICES


@dataclass(frozen=True)
class GameRecord:
    """What one game did: final scores (seat 0 first) and per building what happened to it."""

    index: int
    opening: int
    scores: tuple[int, int]
    built: Mapping[str, int]
    used: Mapping[str, int]
    sold: Mapping[str, int]
    forced: Mapping[str, int]
    owner_at_end: Mapping[str, int]
    """Building id -> the seat that owns it when the game ends."""


_CATALOGS: dict[str, Catalog] = {}


def setup_catalog(setup: BalanceSetup) -> Catalog:
    """The setup's catalog, built once per process (worker processes receive the data)."""
    if setup.catalog_hash not in _CATALOGS:
        entry = entry_from_data(setup.catalog_data, Path(setup.catalog_id))
        _CATALOGS[setup.catalog_hash] = entry.catalog
    return _CATALOGS[setup.catalog_hash]


def opening_codes(setup: BalanceSetup, games: int) -> list[int]:
    """The opening number of each game: a seeded shuffle of all openings, repeated if need be."""
    openings = setup.opening_choices**setup.opening_actions
    order = Random(f"balance/{setup.seed}").sample(range(openings), openings)
    return [order[index % openings] for index in range(games)]


def play_game(setup: BalanceSetup, index: int, opening: int) -> GameRecord:
    """Game ``index``: opening number ``opening``, then both players search.

    Written in base ``opening_choices``, the opening's lowest digit picks the first action among
    the best kinds of move, the next digit the second action, and so on.
    """
    bot = StrongBot(budget_s=None, iterations=setup.budget)
    events: list[Event] = []
    state = new_game(setup_catalog(setup))
    digits = opening
    for _ in range(setup.opening_actions):
        plans = candidate_plans(state, setup.opening_choices)
        for move in plans[digits % setup.opening_choices % len(plans)]:
            state = _apply(state, move, events)
        digits //= setup.opening_choices
    unused = Random(0)  # the strong bot draws no random numbers
    while state.to_move is not None:
        state = _apply(state, bot.choose_move(state, unused), events)
    counts: dict[str, Counter[str]] = {
        kind: Counter() for kind in ("build", "use", "sell", "forced_sale")
    }
    for event in events:
        if event.kind in counts:
            counts[event.kind][event["building"]] += 1
    return GameRecord(
        index=index,
        opening=opening,
        scores=scores(state),
        built=dict(counts["build"]),
        used=dict(counts["use"]),
        sold=dict(counts["sell"]),
        forced=dict(counts["forced_sale"]),
        owner_at_end={b: seat for seat, p in enumerate(state.players) for b, _ in p.buildings},
    )


def _apply(state: GameState, move: Any, events: list[Event]) -> GameState:
    state, happened = apply_with_events(state, move)
    events.extend(happened)
    return state


def _play_task(task: tuple[BalanceSetup, int, int]) -> GameRecord:
    return play_game(*task)


def play_games(setup: BalanceSetup, games: int, workers: int) -> list[GameRecord]:
    """Every game's record, in the order of the game numbers."""
    codes = opening_codes(setup, games)
    tasks = [(setup, index, code) for index, code in enumerate(codes)]
    return list(map_in_order(_play_task, tasks, workers))


def catalog_entry(name: str, directory: str | None) -> CatalogEntry:
    """``name`` is a catalog id (built in, or in ``directory``) or the path of a catalog file."""
    if name.endswith(".json") or Path(name).is_file():
        return read_catalog_file(name)
    registry = load_registry(directory)
    return registry.entry(name)


def cmd_balance(args: argparse.Namespace) -> int:
    try:
        entry = catalog_entry(args.catalog or load_registry().default_id, args.catalogs)
    except (KeyError, ValueError) as err:
        print(str(err).strip("'\""), file=sys.stderr)
        return 1
    setup = BalanceSetup(entry.id, entry.hash, entry.data, args.budget, args.seed)
    started = time.perf_counter()
    records = play_games(setup, args.games, args.workers)
    elapsed = time.perf_counter() - started
    catalog = setup_catalog(setup)
    if args.json:
        print(report_json(setup, catalog, records))
    else:
        print("\n".join(report_lines(setup, catalog, records)))
    print(f"{len(records)} games in {elapsed:.0f} s", file=sys.stderr)
    return 0


def add_balance_command(subparsers: Any) -> None:
    """Register ``balance`` on the engine's command line."""
    balance = subparsers.add_parser(
        "balance",
        help="strong bots play each other; the first player's win rate and per-building figures",
        description=(
            "Strong bots with a fixed work budget play games that differ in their opening. "
            "Prints the first player's win rate with a Wilson 95%% interval (a draw counts as "
            "half a win) and mean margin, and per building how often it is built, used, sold and "
            "owned at the end, and how often its owner wins. The same seed gives the same report."
        ),
    )
    balance.add_argument(
        "--catalog", help="a catalog id or the path of a catalog file (default: the new-game one)"
    )
    balance.add_argument("--catalogs", help="a directory of extra catalog files to choose from")
    balance.add_argument("--games", type=positive_int, default=400)
    balance.add_argument(
        "--budget",
        type=positive_int,
        default=DEFAULT_BUDGET,
        help=f"greedy turns the strong bot simulates per move (default {DEFAULT_BUDGET})",
    )
    balance.add_argument("--workers", type=positive_int, default=1, help="games played at once")
    balance.add_argument("--seed", type=int, default=1)
    balance.add_argument("--json", action="store_true", help="the report as one JSON object")
    balance.set_defaults(run=cmd_balance)
