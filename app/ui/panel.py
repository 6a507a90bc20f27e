"""The action panel: what one building offers the viewer now, and what the chosen move will do.

A panel names the building and prints its card; for the player to move it offers the building's
build or use as choices (`app.ui.choices`), previews the chosen move, and offers the sale of an
own building. When the building offers nothing, the panel says why in the player's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from engine import (
    Event,
    GameState,
    Move,
    apply_with_events,
    gains_nothing,
    has_action,
    legal_moves,
    sector_label,
    use_fee,
)

from .cards import card_of
from .choices import ChoiceGroup
from .fields import Control
from .log import describe_event
from .supply import cost_of, shortfall
from .warehouse import Counter, counters, have
from .words import Words, words_for


@dataclass(frozen=True)
class GoodsChange(Counter):
    """One good before and after a move; draws as a warehouse counter at its new cell."""

    before: int

    @property
    def after(self) -> int:
        return self.amount


@dataclass(frozen=True)
class Preview:
    """What a move will do, shown before the player confirms it."""

    lines: tuple[str, ...]
    goods: tuple[GoodsChange, ...]
    francs_before: int
    francs_after: int
    warning: str | None = None
    """Set when the move gains nothing (`engine.gains_nothing`): what it does instead."""


@dataclass(frozen=True)
class Choice:
    """The chosen move of a group (or why the picked combination is not a move)."""

    controls: tuple[Control, ...]
    move: str | None
    preview: Preview | None
    problem: str | None = None


@dataclass(frozen=True)
class Panel:
    building: str
    name: str
    facts: tuple[tuple[str, str], ...]
    effect: str
    action: str | None  # "build" | "use" | None
    choice: Choice | None
    blocked: str | None
    sell: tuple[str, int] | None = None  # (canonical sell move, francs)
    notes: tuple[str, ...] = field(default=())


def preview(state: GameState, move: Move, seat: int, words: Words | None = None) -> Preview:
    """Apply the move to a copy of the position and tell what changes for the mover."""
    words = words or words_for()
    after, events = apply_with_events(state, move)
    names = words.building_names(state.catalog)
    lines = tuple(describe_event(words, e.to_json(), names) for e in events)
    before_have = have(state, seat)
    changes = tuple(
        GoodsChange(**vars(counter), before=before_have[counter.good])
        for counter in counters(after, seat, words)
    )
    return Preview(
        lines,
        changes,
        before_have["francs"],
        after.players[seat].francs,
        nothing_gained(words, events),
    )


def nothing_gained(words: Words, events: tuple[Event, ...]) -> str | None:
    """The warning for a use that gains nothing (decided from the engine's events), else None."""
    if not gains_nothing(events):
        return None
    t = words.lang
    use = next(e for e in events if e.kind == "use")
    if any(use["paid"].values()) or use["francs"] < 0:
        return t.gettext(
            "This gains you nothing: what you pay buys nothing, and the building goes back to "
            "sector 0."
        )
    if use["fee"]:
        return t.gettext(
            "This gains you nothing: it only pays %(francs)s to Player %(number)s and puts the "
            "building back in sector 0.",
            francs=words.francs(use["fee"]),
            number=use["owner"] + 1,
        )
    return t.gettext("This gains you nothing: it only puts the building back in sector 0.")


def gains_something(state: GameState, moves: list[Move]) -> bool:
    """Whether any of a building's moves does more than pay a fee (builds always do)."""
    return any(
        move.type != "use" or not gains_nothing(apply_with_events(state, move)[1]) for move in moves
    )


def moves_by_building(state: GameState) -> dict[str, list[Move]]:
    """The legal moves of the player to move, grouped by building (``pass`` under ``""``)."""
    grouped: dict[str, list[Move]] = {}
    for move in legal_moves(state):
        grouped.setdefault(move.building or "", []).append(move)
    return grouped


def _facts(state: GameState, building_id: str, words: Words) -> list[tuple[str, str]]:
    card = card_of(state.catalog, building_id, words.code)
    t = words.lang
    facts = [
        (t.gettext("Round"), card.letter),
        (t.gettext("Cost"), card.cost),
        (t.gettext("Value"), card.value),
    ]
    owner = state.owner(building_id)
    if owner is not None:
        age = dict(state.players[owner].buildings)[building_id]
        facts.append((t.gettext("Owner"), words.seat_name(owner)))
        if age is not None:
            facts.append((t.gettext("Sector"), sector_label(state.catalog, age)))
    return facts


def _not_now(
    state: GameState,
    viewer_seat: int | None,
    building_id: str,
    owner: int | None,
    words: Words,
    letter: str,
) -> str | None:
    """Why the viewer cannot act on the building at all now (the game is over, they watch, it has
    not arrived, it is not their turn), or None."""
    t = words.lang
    if state.to_move is None:
        return t.gettext("The game is over.")
    if viewer_seat is None:
        return t.gettext("You are watching this game.")
    if building_id not in state.supply and owner is None:
        return t.gettext("Arrives in round %(letter)s.", letter=letter)
    if state.to_move != viewer_seat:
        return t.gettext(
            "It is Player %(number)s's turn: you can act when it is yours.",
            number=state.to_move + 1,
        )
    return None


def build_panel(
    state: GameState,
    viewer_seat: int | None,
    building_id: str,
    form: Mapping[str, str] | None = None,
    *,
    lang: str = "en",
) -> Panel:
    """The panel for one building as ``viewer_seat`` sees it, with the values picked in ``form``.

    ``form`` is None when the panel opens; afterwards it holds the form's current values.
    Every text is in the viewer's language ``lang``.
    """
    words = words_for(lang)
    t = words.lang
    card = card_of(state.catalog, building_id, lang)
    panel = Panel(
        building=building_id,
        name=card.name,
        facts=tuple(_facts(state, building_id, words)),
        effect=card.effect,
        action=None,
        choice=None,
        blocked=None,
    )
    owner = state.owner(building_id)
    age = dict(state.players[owner].buildings)[building_id] if owner is not None else None
    action = "build" if owner is None else "use"

    not_now = _not_now(state, viewer_seat, building_id, owner, words, card.letter)
    if not_now is not None or viewer_seat is None:
        return replace(panel, blocked=not_now)

    moves = moves_by_building(state).get(building_id, [])
    sells = [m for m in moves if m.type == "sell"]
    if sells:
        events = apply_with_events(state, sells[0])[1]
        got = next((int(e.to_json()["francs"]) for e in events if e.kind == "sell"), 0)
        panel = replace(panel, sell=(sells[0].canonical, got))
    actions = [m for m in moves if m.type == action]
    if not actions:
        return replace(
            panel, blocked=blocked_reason(state, viewer_seat, building_id, owner, age, words)
        )
    notes: tuple[str, ...] = ()
    if action == "use" and owner is not None and use_fee(owner, viewer_seat):
        notes = (
            t.gettext(
                "You pay %(francs)s to Player %(number)s to use it.",
                francs=words.francs(use_fee(owner, viewer_seat)),
                number=owner + 1,
            ),
        )
    choice = _choice(state, viewer_seat, ChoiceGroup(state, actions, words), form, action)
    return replace(panel, action=action, choice=choice, notes=notes)


def _choice(
    state: GameState,
    seat: int,
    group: ChoiceGroup,
    form: Mapping[str, str] | None,
    action: str,
) -> Choice:
    """The controls with the values picked in ``form``, and the move they choose (or why none)."""
    building_id = group.moves[0].building or ""
    need = sum(cost_of(state, building_id).values()) if action == "build" else 0
    picked = group.selection(form)
    index = group.find(picked)
    controls = group.controls(picked, need)
    if index is None:
        return Choice(controls, None, None, group.problem(picked))
    move = group.moves[index]
    return Choice(controls, move.canonical, preview(state, move, seat, group.words))


def blocked_reason(
    state: GameState,
    seat: int,
    building_id: str,
    owner: int | None,
    age: int | None,
    words: Words | None = None,
) -> str:
    """Why a building offers no action to the player to move, in the player's words."""
    words = words or words_for()
    t = words.lang
    name = state.catalog.building(building_id).name_in(words.code)
    if owner is None:
        missing = shortfall(words, cost_of(state, building_id), have(state, seat))
        if missing:
            return t.gettext(
                "You cannot build %(building)s: %(missing)s.", building=name, missing=missing
            )
        return t.gettext(
            "You cannot build %(building)s: no valid payment from your warehouse.", building=name
        )
    if not has_action(building_id):
        return t.gettext(
            "%(building)s has no action: it is worth points at the end.", building=name
        )
    if age == 0:
        return t.gettext(
            "%(building)s is in sector 0 (just built or used): it can be used after this round.",
            building=name,
        )
    fee = use_fee(owner, seat)
    if state.players[seat].francs < fee:
        return t.gettext(
            "Using Player %(number)s's %(building)s needs %(francs)s, you have 0.",
            number=owner + 1,
            building=name,
            francs=words.francs(fee),
        )
    return t.gettext("%(building)s cannot be used right now.", building=name)
