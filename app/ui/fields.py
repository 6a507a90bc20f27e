"""The choice fields of a move, one class per field, as form controls: `FIELDS` is the table.

The engine's moves carry their choices as fields of their JSON (a build's ``payment``, a use's
``steps``, ...). `FIELDS` maps each field to the class that reads it as form values and offers it
as controls (values are strings, as a form sends them):

- ``payment``   radio, index into the distinct build payments;
- ``good``      radio (hardware store: wood/clay; weekly market: fish/grain);
- ``times``     stepper (fish market, weekly market);
- ``goods``     checkboxes, one per good (guilds, business office);
- ``steps.G``   stepper per good (marketplace, pier, craftsmen's yard);
- ``pay.I``     stepper per distinct payment (wood trader, restaurant repetitions).

`app.ui.choices` puts the fields of one building's moves together.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import GameState, canonical_json, paid_amounts

from .words import GOODS, Words

Data = Mapping[str, Any]
"""A move's JSON."""


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


MAX_DIGITS = 9
"""The longest whole number a form field takes; longer ones are no count of anything here."""


def whole_number(text: str, max_digits: int = MAX_DIGITS) -> int | None:
    """A form's whole number: ASCII digits only ("²" and "١" are digits to Python, not here), at
    most ``max_digits`` of them; None for anything else."""
    if text.isascii() and text.isdigit() and len(text) <= max_digits:
        return int(text)
    return None


def payment_steps(words: Words, payment: Mapping[str, Mapping[str, int]]) -> str:
    """Where a payment moves the counters, in plain words: 'move clay 2 steps left', 'move fish
    1 step down, grain 1 step left', 'nothing' ("left" is a direction, never what remains)."""
    t = words.lang
    parts = []
    for good in GOODS:
        move = payment.get(good)
        if not move:
            continue
        steps = []
        if move.get("down"):
            down = move["down"]
            steps.append(t.ngettext("%(num)s step down", "%(num)s steps down", down))
        if move.get("left"):
            left = move["left"]
            steps.append(t.ngettext("%(num)s step left", "%(num)s steps left", left))
        parts.append(
            t.gettext("%(good)s %(steps)s", good=words.good_name(good), steps=t.join(steps))
        )
    if not parts:
        return t.gettext("nothing")
    return t.gettext("move %(moves)s", moves=", ".join(parts))


class Field(ABC):
    """One field of the moves of a group, with the form values it takes (its ``names``).

    A subclass says what a move's field reads as (`values`), how much it does (`amount`), which
    controls offer it and why a picked value is no move (`problem`).
    """

    counts = False
    """Whether its values are whole numbers (steppers)."""

    def __init__(self, data: Sequence[Data]) -> None:
        self.data = data
        self.names: tuple[str, ...] = ()

    @abstractmethod
    def values(self, move: Data) -> dict[str, str]:
        """The form values that say this field of `move`."""

    def amount(self, move: Data) -> int:
        return 0

    def pick(self, form: Mapping[str, str], base: Mapping[str, str]) -> dict[str, str]:
        """The values picked in the form, defaulting to the default move's (``base``)."""
        return {name: form.get(name, base[name]).strip() for name in self.names if name in base}

    @abstractmethod
    def controls(
        self, picked: Mapping[str, str], state: GameState, words: Words, need: int
    ) -> list[Control]:
        """The controls that offer this field's values."""

    def problem(self, picked: Mapping[str, str], words: Words) -> str | None:
        return None


class PaymentField(Field):
    """``payment``: how a build is paid, one radio option per distinct payment."""

    def __init__(self, data: Sequence[Data]) -> None:
        super().__init__(data)
        self.names = ("payment",)
        self.keys: list[str] = []
        for d in data:
            if "payment" in d and canonical_json(d["payment"]) not in self.keys:
                self.keys.append(canonical_json(d["payment"]))

    def values(self, move: Data) -> dict[str, str]:
        if "payment" not in move:
            return {}
        return {"payment": str(self.keys.index(canonical_json(move["payment"])))}

    def controls(
        self, picked: Mapping[str, str], state: GameState, words: Words, need: int
    ) -> list[Control]:
        t = words.lang
        options = []
        for i, key in enumerate(self.keys):
            payment = json.loads(key)
            label = _label(state, payment, need, words) if payment else t.gettext("pay the francs")
            options.append(Option(str(i), label, payment_steps(words, payment)))
        value = picked.get("payment", "")
        return [Control("payment", "radio", t.gettext("Payment"), tuple(options), value=value)]


def _label(
    state: GameState, payment: Mapping[str, Mapping[str, int]], need: int, words: Words
) -> str:
    paid = paid_amounts(state.catalog.warehouse, payment)
    total = sum(paid.values())
    t = words.lang
    if total > need:
        return t.gettext(
            "pay %(goods)s (overpays %(extra)s)",
            goods=words.goods_amounts(paid),
            extra=words.number(total - need),
        )
    return t.gettext("pay %(goods)s", goods=words.goods_amounts(paid))


class GoodField(Field):
    """``good``: which one good (hardware store: wood or clay; weekly market: fish or grain)."""

    def __init__(self, data: Sequence[Data]) -> None:
        super().__init__(data)
        self.names = ("good",)
        self.offered = [d["good"] for d in data if "good" in d]

    def values(self, move: Data) -> dict[str, str]:
        return {"good": move["good"]} if "good" in move else {}

    def pick(self, form: Mapping[str, str], base: Mapping[str, str]) -> dict[str, str]:
        return {"good": form.get("good") or base.get("good") or self.offered[0]}

    def controls(
        self, picked: Mapping[str, str], state: GameState, words: Words, need: int
    ) -> list[Control]:
        seen = sorted(set(self.offered), key=GOODS.index)
        options = tuple(Option(g, words.good_name(g)) for g in seen)
        label = words.lang.gettext("Good")
        return [Control("good", "radio", label, options, value=picked.get("good", seen[0]))]


class TimesField(Field):
    """``times``: how often to do it (fish market, weekly market)."""

    counts = True

    def __init__(self, data: Sequence[Data]) -> None:
        super().__init__(data)
        self.names = ("times",)

    def values(self, move: Data) -> dict[str, str]:
        return {"times": str(move["times"])} if "times" in move else {}

    def amount(self, move: Data) -> int:
        return int(move.get("times", 0))

    def controls(
        self, picked: Mapping[str, str], state: GameState, words: Words, need: int
    ) -> list[Control]:
        top = max(int(d["times"]) for d in self.data)
        label = words.lang.gettext("How many times")
        return [Control("times", "stepper", label, maximum=top, value=picked.get("times", "0"))]

    def problem(self, picked: Mapping[str, str], words: Words) -> str | None:
        if "times" not in picked or "good" not in picked:
            return None
        good = picked["good"]
        most = max((int(d["times"]) for d in self.data if d.get("good") == good), default=0)
        return words.lang.gettext(
            "With %(good)s, at most %(times)s.",
            good=words.good_name(good) if good in GOODS else good,
            times=words.times(most),
        )


class GoodsField(Field):
    """``goods``: a set of different goods, one checkbox each (guilds, business office)."""

    def __init__(self, data: Sequence[Data]) -> None:
        super().__init__(data)
        self.names = ("goods",)

    def values(self, move: Data) -> dict[str, str]:
        return {"goods": ",".join(sorted(move["goods"]))} if "goods" in move else {}

    def amount(self, move: Data) -> int:
        return len(move.get("goods", ()))

    def pick(self, form: Mapping[str, str], base: Mapping[str, str]) -> dict[str, str]:
        if "goods" not in base:
            return {}
        return {"goods": ",".join(g for g in sorted(GOODS) if form.get(f"goods.{g}"))}

    def controls(
        self, picked: Mapping[str, str], state: GameState, words: Words, need: int
    ) -> list[Control]:
        offered = sorted({g for d in self.data for g in d["goods"]}, key=GOODS.index)
        options = tuple(Option(g, words.good_name(g)) for g in offered)
        chosen = frozenset(picked.get("goods", "").split(",")) - {""}
        label = words.lang.gettext("Goods")
        return [Control("goods", "checkbox", label, options, checked=chosen)]

    def problem(self, picked: Mapping[str, str], words: Words) -> str | None:
        t = words.lang
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
        return None


class StepsField(Field):
    """``steps``: steps spread over the goods, a stepper per good (marketplace, pier, yard)."""

    counts = True

    def __init__(self, data: Sequence[Data]) -> None:
        super().__init__(data)
        self.goods = [g for g in GOODS if any(g in d.get("steps", {}) for d in data)]
        self.names = tuple(f"steps.{g}" for g in self.goods)

    def values(self, move: Data) -> dict[str, str]:
        if "steps" not in move:
            return {}
        return {f"steps.{g}": str(move["steps"].get(g, 0)) for g in self.goods}

    def amount(self, move: Data) -> int:
        return int(sum(move.get("steps", {}).values()))

    def controls(
        self, picked: Mapping[str, str], state: GameState, words: Words, need: int
    ) -> list[Control]:
        return [
            Control(
                f"steps.{g}",
                "stepper",
                words.lang.gettext("%(good)s steps", good=words.good_name(g)),
                maximum=max(int(d["steps"].get(g, 0)) for d in self.data),
                value=picked.get(f"steps.{g}", "0"),
                good=g,
            )
            for g in self.goods
        ]

    def problem(self, picked: Mapping[str, str], words: Words) -> str | None:
        if not self.goods:
            return None
        total = sum(int(picked.get(f"steps.{g}", "0")) for g in self.goods)
        need = sum(self.data[0]["steps"].values())
        if total == need:
            return None
        return words.lang.ngettext(
            "Place exactly %(num)s step: %(placed)s placed.",
            "Place exactly %(num)s steps: %(placed)s placed.",
            need,
            placed=words.number(total),
        )


class PaymentsField(Field):
    """``payments``: repetitions, a stepper per distinct payment (wood trader, restaurant)."""

    counts = True

    def __init__(self, data: Sequence[Data]) -> None:
        super().__init__(data)
        self.keys = sorted({canonical_json(p) for d in data for p in d.get("payments", [])})
        self.names = tuple(f"pay.{i}" for i in range(len(self.keys)))

    def values(self, move: Data) -> dict[str, str]:
        if "payments" not in move:
            return {}
        counts = [0] * len(self.keys)
        for p in move["payments"]:
            counts[self.keys.index(canonical_json(p))] += 1
        return {f"pay.{i}": str(n) for i, n in enumerate(counts)}

    def amount(self, move: Data) -> int:
        return len(move.get("payments", ()))

    def controls(
        self, picked: Mapping[str, str], state: GameState, words: Words, need: int
    ) -> list[Control]:
        controls = []
        for i, key in enumerate(self.keys):
            goods = words.goods_amounts(paid_amounts(state.catalog.warehouse, json.loads(key)))
            top = max(sum(1 for p in d["payments"] if canonical_json(p) == key) for d in self.data)
            label = words.lang.gettext("How many times to pay %(goods)s", goods=goods)
            value = picked.get(f"pay.{i}", "0")
            controls.append(Control(f"pay.{i}", "stepper", label, maximum=top, value=value))
        return controls

    def problem(self, picked: Mapping[str, str], words: Words) -> str | None:
        if not self.keys:
            return None
        t = words.lang
        total = sum(int(picked.get(name, "0")) for name in self.names)
        most = max(len(d["payments"]) for d in self.data)
        if total > most:
            return t.ngettext("At most %(num)s time here.", "At most %(num)s times here.", most)
        return t.gettext("You cannot pay for that combination with your goods and francs.")


FIELDS: dict[str, type[Field]] = {
    "payment": PaymentField,
    "good": GoodField,
    "times": TimesField,
    "goods": GoodsField,
    "steps": StepsField,
    "payments": PaymentsField,
}
"""A move's choice field -> its class, in the order the panel shows the controls."""
