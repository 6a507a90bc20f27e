"""Moves: JSON objects with a ``type``, and their one canonical form.

``parse_move`` reads any JSON-like object (or its text) and returns a :class:`Move` or raises
:class:`MalformedMove`; ``canonical(move)`` gives back the canonical object (sorted keys, zero
amounts, empty lists and false flags left out, goods in catalog order). The two round-trip:
``parse_move(canonical(m)) == m``. Whether a move is *legal* is the rules' business.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NamedTuple

from .catalog import Catalog
from .errors import malformed
from .loader import default_catalog

Named = tuple[tuple[str, int], ...]
"""Goods by name with positive counts, in catalog order."""

GOODS_FIELDS = ("fee", "target_fee", "energy", "food", "give", "payment")
LIST_FIELDS = ("goods", "build", "get", "offers")
FIELDS: dict[str, tuple[str, ...]] = {
    "take": ("offer",),
    "enter": (
        "building",
        "fee",
        "energy",
        "food",
        "counts",
        "goods",
        "build",
        "ship",
        "give",
        "get",
        "offers",
        "extra",
        "reorder",
        "target",
        "target_fee",
        "exchange",
    ),
    "buy": ("building", "ship"),
    "sell": ("building", "ship"),
    "repay": (),
    "end": (),
    "feed": ("payment",),
}
"""Each move type and the fields it may carry."""
MOVE_TYPES = tuple(FIELDS)


class Move(NamedTuple):
    """One move, immutable (a named tuple: cheap to make); equal moves have equal canonical forms."""

    type: str
    offer: str | None = None
    building: str | None = None
    ship: str | None = None
    fee: Named = ()
    energy: Named = ()
    food: Named = ()
    give: Named = ()
    payment: Named = ()
    counts: tuple[int, ...] = ()
    goods: tuple[str, ...] = ()
    build: tuple[str, ...] = ()
    get: tuple[str, ...] = ()
    offers: tuple[str, ...] = ()
    extra: bool = False
    reorder: bool = False
    target: str | None = None
    target_fee: Named = ()
    exchange: str | None = None

    def to_json(self) -> dict[str, Any]:
        return canonical(self)

    def text(self) -> str:
        return json.dumps(canonical(self), sort_keys=True, separators=(",", ":"))

    def __repr__(self) -> str:
        return f"parse_move({self.text()})"


def canonical(move: Move) -> dict[str, Any]:
    """The canonical JSON object of ``move``."""
    out: dict[str, Any] = {"type": move.type}
    for name in ("offer", "building", "ship", "target", "exchange"):
        value = getattr(move, name)
        if value is not None:
            out[name] = value
    for name in GOODS_FIELDS:
        value = getattr(move, name)
        if value:
            out[name] = dict(value)
    if move.counts:
        out["counts"] = list(move.counts)
    for name in LIST_FIELDS:
        value = getattr(move, name)
        if value:
            out[name] = list(value)
    for name in ("extra", "reorder"):
        if getattr(move, name):
            out[name] = True
    return out


def _named(value: Any, name: str, cat: Catalog) -> Named:
    if not isinstance(value, Mapping):
        raise malformed("not_goods", field=name)
    pairs = []
    for good, n in value.items():
        if good not in cat.index:
            raise malformed("unknown_good", field=name, given=good)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise malformed("not_a_count", field=name, given=n)
        if n:
            pairs.append((good, n))
    return tuple(sorted(pairs, key=lambda p: cat.index[p[0]]))


def _ids(value: Any, name: str, cat: Catalog) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise malformed("not_a_list", field=name)
    if name == "goods" or name == "get":
        for good in value:
            if good not in cat.index:
                raise malformed("unknown_good", field=name, given=good)
        return tuple(sorted(value, key=cat.index.__getitem__))
    if name == "offers":
        for good in value:
            if good not in cat.index:
                raise malformed("unknown_offer", field=name, given=good)
        return tuple(sorted(value, key=cat.index.__getitem__))
    for bid in value:
        if bid not in cat.buildings:
            raise malformed("unknown_building", field=name, given=bid)
    return tuple(value)


def _text(value: Any, name: str, cat: Catalog) -> str:
    if not isinstance(value, str):
        raise malformed("not_an_id", field=name)
    kinds = {"building": "building", "target": "building", "ship": "ship", "exchange": "ship"}
    known = {"building": cat.buildings, "ship": cat.ships}.get(kinds.get(name, ""), cat.index)
    if value not in known:
        raise malformed(f"unknown_{kinds.get(name, name)}", field=name, given=value)
    return value


def parse_move(obj: Any, catalog: Catalog | None = None) -> Move:
    """A :class:`Move` from its JSON object or text; :class:`MalformedMove` if it is not one."""
    cat = catalog or default_catalog()
    if isinstance(obj, Move):
        return obj
    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except json.JSONDecodeError as err:
            raise malformed("not_json", reason=err.msg) from err
    if not isinstance(obj, Mapping):
        raise malformed("not_an_object")
    kind = obj.get("type")
    if kind not in FIELDS:
        raise malformed("unknown_move_type", given=kind)
    fields: dict[str, Any] = {}
    for name, value in obj.items():
        if name == "type":
            continue
        if name not in FIELDS[kind]:
            raise malformed("unknown_field", field=name)
        if name in GOODS_FIELDS:
            fields[name] = _named(value, name, cat)
        elif name in LIST_FIELDS:
            fields[name] = _ids(value, name, cat)
        elif name == "counts":
            if not isinstance(value, list) or not all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value
            ):
                raise malformed("not_counts", field=name)
            fields[name] = tuple(value)
        elif name in ("extra", "reorder"):
            if not isinstance(value, bool):
                raise malformed("not_a_flag", field=name)
            fields[name] = value
        else:
            fields[name] = _text(value, name, cat)
    _check_shape(kind, fields)
    return Move(type=kind, **fields)


def _check_shape(kind: str, fields: Mapping[str, Any]) -> None:
    if kind == "take" and "offer" not in fields:
        raise malformed("missing_field", field="offer")
    if kind == "enter" and "building" not in fields:
        raise malformed("missing_field", field="building")
    if kind in ("buy", "sell") and ("building" in fields) == ("ship" in fields):
        raise malformed("building_or_ship", field="building")
