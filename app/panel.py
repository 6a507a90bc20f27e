"""The action panel: one building's legal moves grouped into the choices a player makes.

The engine lists every legal move as one canonical move; a player instead thinks "build it, paying
with this", "use it with 2 steps of fish and 2 of wood". This module turns the engine's list for one
building into form controls — payment options, steppers, goods pickers, repetitions — and maps the
values a player picked back to exactly one move *from that list*. The browser never decides what is
legal: a combination that is not in the list gets a reason instead of a move.

Controls and their form fields (values are strings, as a form sends them):

- ``payment``   radio, index into the distinct build payments;
- ``good``      radio (hardware store: wood/clay; weekly market: fish/grain);
- ``goods``     checkboxes, one per good (guilds, business office);
- ``steps.G``   stepper per good (marketplace, pier, craftsmen's yard);
- ``times``     stepper (fish market, weekly market);
- ``pay.I``     stepper per distinct payment (wood trader, restaurant repetitions).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine import GameState, Move, apply_with_events, legal_moves

from .present import GOODS, SECTOR_LABELS, Words, words_for


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    detail: str = ""


@dataclass(frozen=True)
class Control:
    """One control of the panel's form."""

    name: str
    kind: str  # "radio" | "checkbox" | "stepper"
    label: str
    options: tuple[Option, ...] = ()
    minimum: int = 0
    maximum: int = 0
    value: str = ""
    checked: frozenset[str] = frozenset()
    good: str | None = None


@dataclass(frozen=True)
class GoodsChange:
    """One good before and after a move; draws as a warehouse counter at its new cell."""

    good: str
    name: str
    letter: str
    before: int
    after: int
    cell: tuple[int, int]

    @property
    def amount(self) -> int:
        return self.after

    @property
    def row(self) -> int:
        return self.cell[0]

    @property
    def col(self) -> int:
        return self.cell[1]


@dataclass(frozen=True)
class Preview:
    """What a move will do, shown before the player confirms it."""

    lines: tuple[str, ...]
    goods: tuple[GoodsChange, ...]
    francs_before: int
    francs_after: int


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


def _payment_key(payment: Mapping[str, Any]) -> str:
    return json.dumps(payment, sort_keys=True, separators=(",", ":"))


def _paid(state: GameState, payment: Mapping[str, Mapping[str, int]]) -> dict[str, int]:
    warehouse = state.catalog.warehouse
    return {
        good: warehouse.row_value * int(step.get("down", 0))
        + warehouse.column_value * int(step.get("left", 0))
        for good, step in payment.items()
    }


def _payment_label(
    state: GameState, payment: Mapping[str, Mapping[str, int]], need: int, words: Words
) -> str:
    paid = _paid(state, payment)
    total = sum(paid.values())
    t = words.lang
    if total > need:
        return t.gettext(
            "pay %(goods)s (overpays %(extra)s)",
            goods=words.goods_amounts(paid),
            extra=words.number(total - need),
        )
    return t.gettext("pay %(goods)s", goods=words.goods_amounts(paid))


def have(state: GameState, seat: int) -> dict[str, int]:
    """A player's goods amounts and francs, as the reasons and previews count them."""
    player = state.players[seat]
    warehouse = state.catalog.warehouse
    result = {good: warehouse.amount(player.goods[good]) for good in GOODS}
    result["francs"] = player.francs
    return result


class _Group:
    """The legal moves of one building and one action type, with their choice keys."""

    def __init__(self, state: GameState, moves: Sequence[Move], words: Words | None = None) -> None:
        self.state = state
        self.words = words or words_for()
        self.moves = list(moves)
        self.data = [m.to_json() for m in self.moves]
        self.payments: list[str] = []
        self.pay_options: list[str] = []
        for d in self.data:
            if "payment" in d:
                key = _payment_key(d["payment"])
                if key not in self.payments:
                    self.payments.append(key)
            for p in d.get("payments", []):
                key = _payment_key(p)
                if key not in self.pay_options:
                    self.pay_options.append(key)
        self.pay_options.sort()
        self.step_goods = [g for g in GOODS if any(g in d.get("steps", {}) for d in self.data)]
        self.keys = [self.key(d) for d in self.data]

    def key(self, d: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
        """A move's choice as normalised form values."""
        values: dict[str, str] = {}
        if "payment" in d:
            values["payment"] = str(self.payments.index(_payment_key(d["payment"])))
        if "times" in d:
            values["times"] = str(d["times"])
        if "good" in d and d.get("times", 1) != 0:
            values["good"] = d["good"]
        if "goods" in d:
            values["goods"] = ",".join(sorted(d["goods"]))
        if "steps" in d:
            for g in self.step_goods:
                values[f"steps.{g}"] = str(d["steps"].get(g, 0))
        if "payments" in d:
            counts = [0] * len(self.pay_options)
            for p in d["payments"]:
                counts[self.pay_options.index(_payment_key(p))] += 1
            for i, n in enumerate(counts):
                values[f"pay.{i}"] = str(n)
        return tuple(sorted(values.items()))

    def default_index(self) -> int:
        """The move shown first: the one that does the most (most goods, times, repetitions)."""

        def amount(d: Mapping[str, Any]) -> int:
            return (
                len(d.get("goods", ()))
                + int(d.get("times", 0))
                + len(d.get("payments", ()))
                + int(sum(d.get("steps", {}).values()))
            )

        best = 0
        for i, d in enumerate(self.data):
            if amount(d) > amount(self.data[best]):
                best = i
        return best

    def selection(self, form: Mapping[str, str] | None) -> dict[str, str]:
        """The values picked in the form; an untouched form starts from the default move."""
        base = dict(self.keys[self.default_index()])
        if form is None:
            return base
        picked: dict[str, str] = {}
        for name in base:
            if name == "goods":
                picked[name] = ",".join(g for g in sorted(GOODS) if form.get(f"goods.{g}"))
            elif name != "good":
                picked[name] = form.get(name, base[name]).strip()
        goods_offered = [d["good"] for d in self.data if "good" in d]
        if goods_offered and picked.get("times") != "0":
            picked["good"] = form.get("good") or base.get("good") or goods_offered[0]
        return picked

    def find(self, picked: Mapping[str, str]) -> int | None:
        wanted = tuple(sorted(picked.items()))
        for i, key in enumerate(self.keys):
            if key == wanted:
                return i
        return None

    def controls(self, picked: Mapping[str, str], need: int) -> tuple[Control, ...]:
        controls: list[Control] = []
        state = self.state
        words = self.words
        t = words.lang
        if self.payments:
            options = []
            for i, key in enumerate(self.payments):
                payment = json.loads(key)
                options.append(
                    Option(
                        str(i),
                        _payment_label(state, payment, need, words)
                        if payment
                        else t.gettext("pay the francs"),
                        words.payment_steps(payment),
                    )
                )
            controls.append(
                Control(
                    "payment",
                    "radio",
                    t.gettext("Payment"),
                    tuple(options),
                    value=picked.get("payment", ""),
                )
            )
        goods_seen = sorted({d["good"] for d in self.data if "good" in d}, key=GOODS.index)
        if goods_seen:
            controls.append(
                Control(
                    "good",
                    "radio",
                    t.gettext("Good"),
                    tuple(Option(g, words.good_name(g)) for g in goods_seen),
                    value=picked.get("good", goods_seen[0]),
                )
            )
        if any("times" in d for d in self.data):
            top = max(int(d["times"]) for d in self.data)
            controls.append(
                Control(
                    "times",
                    "stepper",
                    t.gettext("Times"),
                    maximum=top,
                    value=picked.get("times", "0"),
                )
            )
        if any("goods" in d for d in self.data):
            offered = sorted({g for d in self.data for g in d["goods"]}, key=GOODS.index)
            chosen = frozenset(picked.get("goods", "").split(",")) - {""}
            controls.append(
                Control(
                    "goods",
                    "checkbox",
                    t.gettext("Goods"),
                    tuple(Option(g, words.good_name(g)) for g in offered),
                    checked=chosen,
                )
            )
        for g in self.step_goods:
            top = max(int(d["steps"].get(g, 0)) for d in self.data)
            controls.append(
                Control(
                    f"steps.{g}",
                    "stepper",
                    t.gettext("%(good)s steps", good=words.good_name(g)),
                    maximum=top,
                    value=picked.get(f"steps.{g}", "0"),
                    good=g,
                )
            )
        for i, key in enumerate(self.pay_options):
            payment = json.loads(key)
            top = max(sum(1 for p in d["payments"] if _payment_key(p) == key) for d in self.data)
            controls.append(
                Control(
                    f"pay.{i}",
                    "stepper",
                    t.gettext(
                        "times paying %(goods)s", goods=words.goods_amounts(_paid(state, payment))
                    ),
                    maximum=top,
                    value=picked.get(f"pay.{i}", "0"),
                )
            )
        return tuple(controls)

    def problem(self, picked: Mapping[str, str]) -> str:
        """Why the picked values are not one of the legal moves."""
        words = self.words
        t = words.lang
        for name, value in picked.items():
            is_count = name.startswith(("steps.", "pay.")) or name == "times"
            if is_count and not value.isdigit():
                return t.gettext("Enter whole numbers only.")
        if self.step_goods:
            total = sum(int(picked.get(f"steps.{g}", "0")) for g in self.step_goods)
            need = sum(self.data[0]["steps"].values())
            if total != need:
                return t.ngettext(
                    "Place exactly %(num)s step: %(placed)s placed.",
                    "Place exactly %(num)s steps: %(placed)s placed.",
                    need,
                    placed=words.number(total),
                )
        if any("goods" in d for d in self.data):
            sizes = {len(d["goods"]) for d in self.data}
            chosen = len([g for g in picked.get("goods", "").split(",") if g])
            if len(sizes) == 1 and chosen not in sizes:
                return t.ngettext(
                    "Choose exactly %(num)s good: %(chosen)s chosen.",
                    "Choose exactly %(num)s different goods: %(chosen)s chosen.",
                    sizes.pop(),
                    chosen=words.number(chosen),
                )
            if chosen > max(sizes):
                return t.ngettext(
                    "Choose at most %(num)s good.", "Choose at most %(num)s goods.", max(sizes)
                )
        if self.pay_options:
            total = sum(int(picked.get(f"pay.{i}", "0")) for i in range(len(self.pay_options)))
            most = max(len(d["payments"]) for d in self.data)
            if total > most:
                return t.ngettext("At most %(num)s time here.", "At most %(num)s times here.", most)
            return t.gettext("You cannot pay for that combination with your goods and francs.")
        if "times" in picked and "good" in picked:
            good = picked["good"]
            most = max((int(d["times"]) for d in self.data if d.get("good") == good), default=0)
            return t.gettext(
                "With %(good)s, at most %(times)s.",
                good=words.good_name(good) if good in GOODS else good,
                times=words.times(most),
            )
        return t.gettext("That combination is not possible right now.")


def preview(state: GameState, move: Move, seat: int, words: Words | None = None) -> Preview:
    """Apply the move to a copy of the position and tell what changes for the mover."""
    words = words or words_for()
    after, events = apply_with_events(state, move)
    names = words.building_names(state.catalog)
    lines = tuple(words.describe_event(e.to_json(), names) for e in events)
    before_have = have(state, seat)
    after_have = have(after, seat)
    changes = tuple(
        GoodsChange(
            good,
            words.good_name(good),
            words.good_letter(good),
            before_have[good],
            after_have[good],
            after.players[seat].goods[good],
        )
        for good in GOODS
    )
    return Preview(lines, changes, before_have["francs"], after_have["francs"])


def moves_by_building(state: GameState) -> dict[str, list[Move]]:
    """The legal moves of the player to move, grouped by building (``pass`` under ``""``)."""
    grouped: dict[str, list[Move]] = {}
    for move in legal_moves(state):
        grouped.setdefault(move.building or "", []).append(move)
    return grouped


def cost_dict(state: GameState, building_id: str) -> dict[str, int]:
    return dict(state.catalog.building(building_id).cost)


def _facts(state: GameState, building_id: str, words: Words) -> list[tuple[str, str]]:
    building = state.catalog.building(building_id)
    value = building.value
    value_data: Any = value if isinstance(value, int) else {"per": value.per, "rate": value.rate}
    t = words.lang
    facts = [
        (t.gettext("Round"), building.letter),
        (t.gettext("Cost"), words.cost_text(dict(building.cost))),
        (t.gettext("Value"), words.value_text(value_data)),
    ]
    owner = state.owner(building_id)
    if owner is not None:
        age = dict(state.players[owner].buildings)[building_id]
        facts.append((t.gettext("Owner"), words.seat_name(owner)))
        if age is not None:
            facts.append((t.gettext("Sector"), SECTOR_LABELS[age]))
    return facts


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
    building = state.catalog.building(building_id)
    panel = Panel(
        building=building_id,
        name=building.name_in(lang),
        facts=tuple(_facts(state, building_id, words)),
        effect=words.effect(building_id),
        action=None,
        choice=None,
        blocked=None,
    )
    owner = state.owner(building_id)
    age = dict(state.players[owner].buildings)[building_id] if owner is not None else None
    action = "build" if owner is None else "use"

    if state.to_move is None:
        return replace(panel, blocked=t.gettext("The game is over."))
    if viewer_seat is None:
        return replace(panel, blocked=t.gettext("You are watching this game."))
    if building_id not in state.supply and owner is None:
        return replace(
            panel, blocked=t.gettext("Arrives in round %(letter)s.", letter=building.letter)
        )
    if state.to_move != viewer_seat:
        return replace(
            panel,
            blocked=t.gettext(
                "It is Player %(number)s's turn: you can act when it is yours.",
                number=state.to_move + 1,
            ),
        )

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

    group = _Group(state, actions, words)
    need = sum(cost_dict(state, building_id).values()) if action == "build" else 0
    picked = group.selection(form)
    index = group.find(picked)
    controls = group.controls(picked, need)
    if index is None:
        choice = Choice(controls, None, None, group.problem(picked))
    else:
        move = group.moves[index]
        choice = Choice(controls, move.canonical, preview(state, move, viewer_seat, words))
    notes: tuple[str, ...] = ()
    if action == "use" and owner is not None and owner != viewer_seat:
        notes = (
            t.gettext(
                "You pay %(francs)s to Player %(number)s to use it.",
                francs=words.francs(1),
                number=owner + 1,
            ),
        )
    return replace(panel, action=action, choice=choice, notes=notes)


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
        missing = words.shortfall(cost_dict(state, building_id), have(state, seat))
        if missing:
            return t.gettext(
                "You cannot build %(building)s: %(missing)s.", building=name, missing=missing
            )
        return t.gettext(
            "You cannot build %(building)s: no valid payment from your warehouse.", building=name
        )
    if age is None:
        return t.gettext(
            "%(building)s has no action: it is worth points at the end.", building=name
        )
    if age == 0:
        return t.gettext(
            "%(building)s is in sector 0 (just built or used): it can be used after this round.",
            building=name,
        )
    if owner != seat and state.players[seat].francs < 1:
        return t.gettext(
            "Using Player %(number)s's %(building)s needs %(francs)s, you have 0.",
            number=owner + 1,
            building=name,
            francs=words.francs(1),
        )
    return t.gettext("%(building)s cannot be used right now.", building=name)
