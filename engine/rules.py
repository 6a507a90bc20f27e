"""Legal moves, applying a move, the end of a round and the end of the game (SPEC §3–§5).

A turn: the player may sell any number of their own buildings (one move each), then takes exactly
one action — build, use, or, only where neither is legal, pass. The action ends the turn. After the
last action of a round every building on both wheels ages by one; one that reaches the "!" sector is
sold at once for half its value. After round L's end the game is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .catalog import Catalog, default_catalog
from .effects import EFFECTS, LOCKED, Use, use_fee, use_moves
from .errors import IllegalMove
from .events import Event
from .explain import refusal, refuse_build, refuse_use
from .moves import Move, make_move, parse_move
from .state import GameState, PlayerState, building_value, new_game, scores, winner
from .warehouse import can_pay, minimal_payments, paid_amounts, pay
from .wheel import sector_label

PASS = make_move("pass")


def legal_moves(state: GameState) -> list[Move]:
    """Every legal move of the player to move, sells included, sorted by canonical string."""
    if state.finished:
        return []
    seat = state.turn % 2
    actions = build_moves(state, seat) + all_use_moves(state, seat)
    if not actions:
        actions = [PASS]
    sells = [make_move("sell", b) for b, _ in state.players[seat].buildings]
    return sorted(actions + sells)


def build_moves(state: GameState, seat: int) -> list[Move]:
    """Every legal ``build`` of the player: buildings in the supply with a valid payment."""
    player = state.players[seat]
    moves = []
    for building_id in state.supply:
        moves.extend(_build_moves_of(state.catalog, player, building_id))
    return moves


def _build_moves_of(catalog: Catalog, player: PlayerState, building_id: str) -> list[Move]:
    building = catalog.building(building_id)
    if building.cost_kind == "francs":
        if player.francs >= building.cost_of("francs"):
            return [make_move("build", building_id, payment=())]
        return []
    warehouse = catalog.warehouse
    return [
        make_move("build", building_id, payment=payment)
        for payment in minimal_payments(warehouse, building.cost)
        if can_pay(warehouse, player.cells, payment)
    ]


def all_use_moves(state: GameState, seat: int) -> list[Move]:
    """Every legal ``use`` of a building at age ≥ 1 on either wheel."""
    moves: list[Move] = []
    for owner in (0, 1):
        for building_id, age in state.players[owner].buildings:
            moves.extend(_use_moves_of(state, seat, owner, building_id, age))
    return moves


def _use_moves_of(
    state: GameState, seat: int, owner: int, building_id: str, age: int | None
) -> tuple[Move, ...]:
    catalog = state.catalog
    if age is None or catalog.multiplier_by_age[age] == 0:
        return ()
    fee = use_fee(owner, seat)
    player = state.players[seat]
    if player.francs < fee:
        return ()
    francs = player.francs - fee + catalog.bonus_francs_by_age[age]
    n = catalog.multiplier_by_age[age]
    return use_moves(building_id, n, catalog.warehouse, player.cells, francs)


def apply(state: GameState, move: Move | Mapping[str, Any] | str) -> GameState:
    """The position after ``move``. Raises ``MalformedMove`` / ``IllegalMove``; ``state`` is unchanged."""
    return apply_with_events(state, move)[0]


def apply_with_events(
    state: GameState, move: Move | Mapping[str, Any] | str
) -> tuple[GameState, tuple[Event, ...]]:
    """The position after ``move`` and what happened, for the game log."""
    move = parse_move(move, state.catalog)
    if state.finished:
        raise IllegalMove("game_over")
    seat = state.turn % 2
    if move.type == "sell":
        return _sell(state, seat, move)
    if move.type == "build":
        after, events = _build(state, seat, move)
    elif move.type == "use":
        after, events = _use(state, seat, move)
    else:
        after, events = _pass(state, seat)
    return _end_action(after, events)


@dataclass
class _Players:
    """Mutable copies of both players while one move is applied."""

    francs: list[int]
    cells: list[list[tuple[int, int]]]
    buildings: list[dict[str, int | None]]

    @classmethod
    def of(cls, state: GameState) -> _Players:
        return cls(
            francs=[p.francs for p in state.players],
            cells=[list(p.cells) for p in state.players],
            buildings=[dict(p.buildings) for p in state.players],
        )

    def freeze(self, state: GameState, turn: int) -> GameState:
        players = tuple(
            PlayerState(
                francs=self.francs[i],
                cells=tuple(self.cells[i]),
                buildings=tuple(sorted(self.buildings[i].items())),
            )
            for i in (0, 1)
        )
        return GameState(catalog=state.catalog, turn=turn, players=(players[0], players[1]))


def _sell(state: GameState, seat: int, move: Move) -> tuple[GameState, tuple[Event, ...]]:
    """Sell an own building (any age, locked too) for half its value now; it returns to the supply."""
    assert move.building is not None
    player = state.players[seat]
    if not player.owns(move.building):
        raise refusal(state, "sell_not_owned", building=move.building)
    francs = building_value(state.catalog, player, move.building) // 2
    work = _Players.of(state)
    work.francs[seat] += francs
    del work.buildings[seat][move.building]
    event = Event("sell", seat=seat, building=move.building, francs=francs)
    return work.freeze(state, state.turn), (event,)


def _build(state: GameState, seat: int, move: Move) -> tuple[GameState, tuple[Event, ...]]:
    """Pay the cost and put the building on the wheel at age 0 (locked: owned, off the wheel)."""
    building_id = move.building
    assert building_id is not None and move.payment is not None
    if move not in _build_moves_of(state.catalog, state.players[seat], building_id) or (
        building_id not in state.supply
    ):
        raise refuse_build(state, seat, move)
    building = state.catalog.building(building_id)
    work = _Players.of(state)
    if building.cost_kind == "francs":
        paid = {"francs": building.cost_of("francs")}
        work.francs[seat] -= paid["francs"]
    else:
        paid = paid_amounts(state.catalog.warehouse, move.payment)
        pay(work.cells[seat], move.payment)
    work.buildings[seat][building_id] = None if building_id in LOCKED else 0
    event = Event(
        "build",
        seat=seat,
        building=building_id,
        payment=move.to_json()["payment"],
        paid=paid,
    )
    return work.freeze(state, state.turn + 1), (event,)


def _use(state: GameState, seat: int, move: Move) -> tuple[GameState, tuple[Event, ...]]:
    """Fee to the owner, the 4+ franc, the effect with N, then the building goes back to age 0."""
    building_id = move.building
    assert building_id is not None
    owner = state.owner(building_id)
    age = None if owner is None else state.players[owner].age(building_id)
    if owner is None or move not in _use_moves_of(state, seat, owner, building_id, age):
        raise refuse_use(state, seat, move)
    assert age is not None
    catalog = state.catalog
    work = _Players.of(state)
    fee = use_fee(owner, seat)
    work.francs[seat] -= fee
    work.francs[owner] += fee
    bonus = catalog.bonus_francs_by_age[age]
    n = catalog.multiplier_by_age[age]
    use = Use(catalog.warehouse, work.cells[seat], work.francs[seat] + bonus)
    EFFECTS[building_id](use, n, move)
    work.francs[seat] = use.francs
    work.buildings[owner][building_id] = 0
    choice = {k: v for k, v in move.to_json().items() if k not in ("type", "building")}
    event = Event(
        "use",
        seat=seat,
        building=building_id,
        owner=owner,
        sector=sector_label(catalog, age),
        n=n,
        fee=fee,
        bonus=bonus,
        francs=use.effect_francs,
        paid=use.paid,
        gained=use.gained,
        lost_steps=use.lost_steps,
        choice=choice,
    )
    return work.freeze(state, state.turn + 1), (event,)


def _pass(state: GameState, seat: int) -> tuple[GameState, tuple[Event, ...]]:
    if build_moves(state, seat) or all_use_moves(state, seat):
        raise refusal(state, "cannot_pass")
    return GameState(state.catalog, state.turn + 1, state.players), (Event("pass", seat=seat),)


def _end_action(state: GameState, events: tuple[Event, ...]) -> tuple[GameState, tuple[Event, ...]]:
    """After the last action of a round: age both wheels, force-sell at "!", maybe end the game."""
    catalog = state.catalog
    if state.turn not in catalog.round_ends:
        return state, events
    ended = catalog.round_ends.index(state.turn)
    work = _Players.of(state)
    extra: list[Event] = []
    following = catalog.rounds[ended + 1][0] if ended + 1 < len(catalog.rounds) else None
    extra.append(Event("round_end", round=catalog.rounds[ended][0], next_round=following))
    for seat in (0, 1):
        player = state.players[seat]
        for building_id, age in player.buildings:
            if age is None:
                continue
            if age + 1 >= catalog.sold_at_age:
                francs = building_value(catalog, player, building_id) // 2
                work.francs[seat] += francs
                del work.buildings[seat][building_id]
                extra.append(Event("forced_sale", seat=seat, building=building_id, francs=francs))
            else:
                work.buildings[seat][building_id] = age + 1
    after = work.freeze(state, state.turn)
    if after.finished:
        extra.append(Event("game_over", scores=list(scores(after)), winner=winner(after)))
    return after, events + tuple(extra)


def replay(
    moves: Iterable[Move | Mapping[str, Any] | str], catalog: Catalog | None = None
) -> GameState:
    """The position after ``moves`` from the start: a game is its start plus its moves."""
    state = new_game(catalog or default_catalog())
    for move in moves:
        state = apply(state, move)
    return state
