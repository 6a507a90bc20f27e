"""Moves and their one canonical text form (SPEC §5).

Every move is a JSON object. Its canonical form has sorted keys and no spaces, lists in their
canonical order, zero-valued ``down``/``left`` fields and untouched goods omitted. :func:`parse_move`
reads any JSON-like input, canonicalises it and raises :class:`MalformedMove` when it cannot be read
as a move at all; whether the move is *legal* is the rules' business (``rules.apply``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .canonical import canonical_json
from .catalog import GOODS, Catalog, default_catalog
from .errors import MalformedMove
from .warehouse import Payment, payment_json

MOVE_TYPES = ("build", "pass", "sell", "use")

CHOICE_FIELDS: dict[str, tuple[str, ...]] = {
    "hardware_store": ("good",),
    "wood_trader": ("payments",),
    "restaurant": ("payments",),
    "marketplace": ("steps",),
    "fish_market": ("times",),
    "weekly_market": ("good", "times"),
    "masons_guild": ("goods",),
    "business_office": ("goods",),
    "guild_hall": ("goods",),
    "pier": ("steps",),
    "craftsmens_yard": ("steps",),
}
"""The choice fields of each building's ``use`` move (SPEC §6); other buildings have none."""

Steps = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """One move, immutable. Compared and hashed by its canonical string."""

    type: str
    building: str | None = None
    payment: Payment | None = None
    payments: tuple[Payment, ...] | None = None
    good: str | None = None
    goods: tuple[str, ...] | None = None
    steps: Steps | None = None
    times: int | None = None
    canonical: str = field(default="", repr=False)

    def __post_init__(self) -> None:
        if not self.canonical:
            object.__setattr__(self, "canonical", canonical_json(self.to_json()))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        if self.building is not None:
            data["building"] = self.building
        if self.payment is not None:
            data["payment"] = payment_json(self.payment)
        if self.payments is not None:
            data["payments"] = [payment_json(p) for p in self.payments]
        if self.good is not None:
            data["good"] = self.good
        if self.goods is not None:
            data["goods"] = list(self.goods)
        if self.steps is not None:
            data["steps"] = dict(self.steps)
        if self.times is not None:
            data["times"] = self.times
        return data

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and other.canonical == self.canonical

    def __hash__(self) -> int:
        return hash(self.canonical)

    def __lt__(self, other: Move) -> bool:
        return self.canonical < other.canonical

    def __repr__(self) -> str:
        return f"parse_move({self.canonical!r})"

    def __str__(self) -> str:
        return self.canonical


def canonical(move: Move | Mapping[str, Any] | str) -> str:
    """The canonical JSON string of a move (parsing it first when it is not a :class:`Move`)."""
    if isinstance(move, Move):
        return move.canonical
    return parse_move(move).canonical


def payment_sort_key(payment: Payment) -> str:
    return canonical_json(payment_json(payment))


@lru_cache(maxsize=1 << 16)
def make_move(
    type: str,
    building: str | None = None,
    payment: Payment | None = None,
    payments: tuple[Payment, ...] | None = None,
    good: str | None = None,
    goods: tuple[str, ...] | None = None,
    steps: Steps | None = None,
    times: int | None = None,
) -> Move:
    """A shared :class:`Move` for canonical parts (moves are immutable, so one object serves all)."""
    return Move(type, building, payment, payments, good, goods, steps, times)


def parse_move(obj: Move | Mapping[str, Any] | str, catalog: Catalog | None = None) -> Move:
    """Read a move from a dict or a JSON string and canonicalise it.

    Raises :class:`MalformedMove` for input that is not a move at all: not JSON (or nested too
    deeply to read), not an object, an unknown ``type``, an unknown building id, unknown or
    missing fields, wrong value types, negative numbers.
    """
    if isinstance(obj, Move):
        return obj
    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except json.JSONDecodeError as err:
            raise MalformedMove("not_json", {"reason": err.msg}) from err
        except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
            raise MalformedMove("not_json", {"reason": "a number has too many digits"}) from None
        except RecursionError:  # nested deeper than the parser goes: no move is
            raise MalformedMove("not_json", {"reason": "nested too deeply"}) from None
    if not isinstance(obj, Mapping):
        raise MalformedMove("not_an_object")
    catalog = catalog or default_catalog()
    move_type = obj.get("type")
    if not isinstance(move_type, str) or move_type not in MOVE_TYPES:
        raise MalformedMove("unknown_move_type", {"given": _given(move_type)})
    if move_type == "pass":
        _check_fields(obj, {"type"}, set())
        return make_move("pass")

    building = obj.get("building")
    if not isinstance(building, str):
        raise MalformedMove("missing_building", {"type": move_type})
    if building not in catalog.by_id:
        raise MalformedMove("unknown_building", {"building": building})

    if move_type == "sell":
        _check_fields(obj, {"type", "building"}, set())
        return make_move("sell", building)
    if move_type == "build":
        _check_fields(obj, {"type", "building", "payment"}, set())
        return make_move("build", building, payment=_payment(obj["payment"], "payment"))

    fields = CHOICE_FIELDS.get(building, ())
    optional = set()
    if building == "weekly_market" and obj.get("times") == 0 and "good" in obj:
        obj = {k: v for k, v in obj.items() if k != "good"}
    if building == "weekly_market" and obj.get("times") == 0:
        optional = {"good"}
    _check_fields(obj, {"type", "building", *fields} - optional, optional)
    return make_move(
        "use",
        building,
        payments=_payments(obj["payments"]) if "payments" in obj else None,
        good=_good(obj["good"], "good") if "good" in obj else None,
        goods=_goods(obj["goods"]) if "goods" in obj else None,
        steps=_steps(obj["steps"]) if "steps" in obj else None,
        times=_count(obj["times"], "times") if "times" in obj else None,
    )


def _check_fields(obj: Mapping[str, Any], required: set[str], optional: set[str]) -> None:
    keys = set(obj)
    missing = required - keys
    if missing:
        raise MalformedMove("missing_field", {"field": sorted(missing)[0]})
    unknown = keys - required - optional
    if unknown:
        raise MalformedMove("unknown_field", {"field": sorted(unknown)[0]})


def _given(value: Any) -> Any:
    """A value found in the input, for an error's params: itself when JSON can hold it, else its repr
    (``NaN`` and ``Infinity`` too, which are not JSON)."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return repr(value)
    return value


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMove("not_a_whole_number", {"field": what, "given": _given(value)})
    if value < 0:
        raise MalformedMove("negative_number", {"field": what})
    return value


def _good(value: Any, what: str) -> str:
    if not isinstance(value, str) or value not in GOODS:
        raise MalformedMove("unknown_good", {"field": what, "given": _given(value)})
    return value


def _goods(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise MalformedMove("goods_not_a_list")
    return tuple(sorted(_good(v, "each of goods") for v in value))


def _steps(value: Any) -> Steps:
    if not isinstance(value, Mapping):
        raise MalformedMove("steps_not_an_object")
    return tuple(
        sorted((_good(k, "a steps key"), _count(v, f"steps of {k}")) for k, v in value.items())
    )


def _payment(value: Any, what: str) -> Payment:
    if not isinstance(value, Mapping):
        raise MalformedMove("payment_not_an_object", {"field": what})
    entries = []
    for good, displacement in value.items():
        _good(good, f"a {what} key")
        if not isinstance(displacement, Mapping):
            raise MalformedMove("displacement_not_an_object", {"field": what, "good": good})
        unknown = set(displacement) - {"down", "left"}
        if unknown:
            raise MalformedMove(
                "unknown_displacement_field",
                {"field": what, "good": good, "name": sorted(unknown)[0]},
            )
        down = _count(displacement.get("down", 0), f"down of {good}")
        left = _count(displacement.get("left", 0), f"left of {good}")
        if down or left:
            entries.append((good, down, left))
    return tuple(sorted(entries))


def _payments(value: Any) -> tuple[Payment, ...]:
    if not isinstance(value, list):
        raise MalformedMove("payments_not_a_list")
    payments = [_payment(v, "each payment") for v in value]
    return tuple(sorted(payments, key=payment_sort_key))
