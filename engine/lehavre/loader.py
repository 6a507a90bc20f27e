"""Reading ``catalog.json`` into a :class:`Catalog`, refusing what the rules could not play.

Every problem is a ``CatalogError`` (a ``ValueError``) naming where in the file it is: an unknown
good, a missing field, an effect kind the rules do not know, a round card naming an unknown ship.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from .catalog import (
    FRANC,
    Amounts,
    Building,
    Catalog,
    Fee,
    Good,
    Harvest,
    Line,
    Loans,
    RoundCard,
    Ship,
    ShipType,
    Start,
    SupplyTile,
)

EFFECT_KINDS = (
    "none",
    "build",
    "gain",
    "choose",
    "convert",
    "wharf",
    "shipping",
    "black_market",
    "local_court",
    "arts_centre",
    "trade_any",
    "bridge",
    "haulage",
    "zoo",
    "harbour_watch",
)
"""The effect kinds rules.py and effects.py know."""

PASSIVE_KINDS = (
    "harvest_cattle",
    "construction_discount",
    "energy_per_payment",
    "final_actions",
    "ship_exchange",
)
KINDS = ("craft", "economic", "industrial", "public", "none", "ship")
TOWN_BUILDS = ("standard", "special", "none")
VARIANTS = ("full", "short")
PLAYER_COUNTS = (1, 2, 3, 4, 5)

DEFAULT_PATH = Path(__file__).with_name("catalog.json")


class CatalogError(ValueError):
    """The catalog file cannot be played: the message says where and why."""


def _get(obj: Mapping[str, Any], key: str, where: str) -> Any:
    if not isinstance(obj, Mapping) or key not in obj:
        raise CatalogError(f"{where}: missing field {key!r}")
    return obj[key]


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise CatalogError(f"{where}: expected a whole number >= 0, not {value!r}")
    return value


def _good(index: Mapping[str, int], name: Any, where: str) -> int:
    if name not in index:
        raise CatalogError(f"{where}: unknown good {name!r}")
    return index[name]


def _amounts(index: Mapping[str, int], obj: Any, where: str) -> Amounts:
    if not isinstance(obj, Mapping):
        raise CatalogError(f"{where}: expected an object of good: count")
    pairs = [(_good(index, k, where), _int(v, f"{where}.{k}")) for k, v in obj.items()]
    return tuple(sorted((i, n) for i, n in pairs if n))


def _vector(index: Mapping[str, int], obj: Any, where: str) -> tuple[int, ...]:
    vec = [0] * (len(index))
    for i, n in _amounts(index, obj, where):
        vec[i] += n
    return tuple(vec)


def _goods(raw: Any) -> tuple[tuple[Good, ...], dict[str, int]]:
    goods: list[Good] = []
    index = {"franc": FRANC}
    for pos, g in enumerate(raw):
        where = f"goods[{pos}]"
        gid = _get(g, "id", where)
        index[gid] = pos + 1
        goods.append(
            Good(
                gid,
                pos + 1,
                _get(g, "basic", where),
                _int(_get(g, "franc_value", where), where),
                _int(_get(g, "food", where), where),
                _int(_get(g, "energy", where), where),
                bool(_get(g, "on_offer", where)),
            )
        )
    for g in goods:
        if g.basic is not None:
            _good(index, g.basic, f"goods {g.id}.basic")
    return tuple(goods), index


def _ratio(obj: Mapping[str, Any], key: str, where: str) -> tuple[int, int]:
    raw = obj.get(key, [0, 1])
    if not (isinstance(raw, list) and len(raw) == 2 and raw[1]):
        raise CatalogError(f"{where}.{key}: expected [numerator, denominator]")
    return _int(raw[0], where), _int(raw[1], where)


def _line(index: Mapping[str, int], raw: Any, where: str) -> Line:
    most = raw.get("max")
    by = raw.get("byproduct", {})
    return Line(
        _amounts(index, _get(raw, "in", where), f"{where}.in"),
        _amounts(index, _get(raw, "out", where), f"{where}.out"),
        None if most is None else _int(most, f"{where}.max"),
        _int(raw.get("food", 0), f"{where}.food"),
        _ratio(raw, "energy", where),
        _ratio(raw, "francs", where),
        tuple((_good(index, g, where), *_ratio(by, g, where)) for g in by),
    )


def _fee(raw: Any, where: str) -> Fee | None:
    if raw is None:
        return None
    food, franc = raw.get("food"), raw.get("franc")
    return Fee(
        None if food is None else _int(food, f"{where}.food"),
        None if franc is None else _int(franc, f"{where}.franc"),
    )


def _check_effect(index: Mapping[str, int], bid: str, effect: Any, passive: Any) -> None:
    where = f"building {bid}"
    kind = _get(effect, "kind", f"{where}.effect")
    if kind not in EFFECT_KINDS:
        raise CatalogError(f"{where}: effect kind {kind!r} is not one the rules know")
    for name in ("goods", "requires"):
        if name in effect:
            _amounts(index, effect[name], f"{where}.effect.{name}")
    for name in effect.get("from", []):
        _good(index, name, f"{where}.effect.from")
    for option in effect.get("options", []):
        for name in _get(option, "get", f"{where}.effect.options"):
            _good(index, name, f"{where}.effect.options")
    for key in passive:
        if key not in PASSIVE_KINDS:
            raise CatalogError(f"{where}: passive rule {key!r} is not one the rules know")


def _players(raw: Any, key: str, where: str) -> tuple[int, ...]:
    counts = tuple(raw.get(key, ()))
    if any(n not in PLAYER_COUNTS for n in counts):
        raise CatalogError(f"{where}.{key}: player counts are 1 to 5")
    return counts


def _building(index: Mapping[str, int], raw: Any, pos: int) -> Building:
    where = f"buildings[{pos}]"
    bid = _get(raw, "id", where)
    where = f"building {bid}"
    effect = _get(raw, "effect", where)
    passive = raw.get("passive", {})
    _check_effect(index, bid, effect, passive)
    kind = _get(raw, "kind", where)
    if kind not in KINDS:
        raise CatalogError(f"{where}: unknown kind {kind!r}")
    materials = _get(raw, "materials", where)
    price = _get(raw, "price", where)
    return Building(
        id=bid,
        name=_get(raw, "name", where),
        group=_get(raw, "group", where),
        number=raw.get("number"),
        kind=kind,
        hammer=_int(_get(raw, "hammer", where), where),
        fishing=_int(_get(raw, "fishing", where), where),
        value=_int(_get(raw, "value", where), where),
        price=None if price is None else _int(price, f"{where}.price"),
        fee=_fee(_get(raw, "fee", where), f"{where}.fee"),
        materials=None if materials is None else _amounts(index, materials, f"{where}.materials"),
        effect_kind=effect["kind"],
        effect=effect,
        lines=tuple(_line(index, ln, f"{where}.lines") for ln in effect.get("lines", [])),
        full_players=_players(raw, "full_players", where),
        short_players=_players(raw, "short_players", where),
        short_town_players=_players(raw, "short_town_players", where),
        solo=bool(raw.get("solo", True)),
        bonus=raw.get("bonus"),
        passive=passive,
    )


def _ships(index: Mapping[str, int], data: Any) -> tuple[tuple[ShipType, ...], dict[str, Ship]]:
    types = []
    for tid, raw in _get(data, "ship_types", "catalog").items():
        where = f"ship type {tid}"
        price = _get(raw, "price", where)
        types.append(
            ShipType(
                tid,
                _amounts(index, _get(raw, "materials", where), where),
                _int(_get(raw, "energy", where), where),
                None if price is None else _int(price, where),
                {int(n): _int(v, where) for n, v in _get(raw, "food", where).items()},
                _int(_get(raw, "capacity", where), where),
                bool(_get(raw, "needs_modernised_wharf", where)),
            )
        )
    ships = {}
    names = {t.id for t in types}
    for raw in _get(data, "ships", "catalog"):
        sid = _get(raw, "id", "ships")
        if _get(raw, "type", f"ship {sid}") not in names:
            raise CatalogError(f"ship {sid}: unknown ship type {raw['type']!r}")
        ships[sid] = Ship(sid, raw["type"], _int(_get(raw, "value", f"ship {sid}"), sid))
    return tuple(types), ships


def _start(
    index: Mapping[str, int], data: Any, variant: str, offer_spaces: tuple[int, ...]
) -> Start:
    where = f"start.{variant}"
    raw = _get(_get(data, "start", "catalog"), variant, "start")
    offers = _vector(index, _get(raw, "offers", where), f"{where}.offers")
    ships = raw.get("starting_ships", {})
    return Start(
        offers=tuple(offers[i] for i in offer_spaces),
        per_player=_vector(index, _get(raw, "per_player", where), f"{where}.per_player"),
        town=tuple(_get(raw, "town", where)),
        extra_town={int(n): tuple(ids) for n, ids in raw.get("extra_town", {}).items()},
        specials_dealt=_int(_get(raw, "specials_dealt", where), where),
        player_ships={int(n): tuple(v["players"]) for n, v in ships.items()},
        pile_ships={int(n): tuple(v["piles"]) for n, v in ships.items()},
    )


def _rounds(data: Any, ships: Mapping[str, Ship]) -> dict[tuple[str, int], tuple[RoundCard, ...]]:
    rounds = {}
    for variant in VARIANTS:
        for n in PLAYER_COUNTS:
            where = f"rounds.{variant}.{n}"
            cards = []
            for raw in _get(_get(data["rounds"], variant, "rounds"), str(n), where):
                if raw.get("ship") not in ships:
                    raise CatalogError(f"{where}: unknown ship {raw.get('ship')!r}")
                if raw.get("town_builds") not in TOWN_BUILDS:
                    raise CatalogError(f"{where}: town_builds must be one of {TOWN_BUILDS}")
                food = _int(_get(raw, "food", where), where)
                cards.append(
                    RoundCard(
                        raw["card"], bool(raw["harvest"]), food, raw["town_builds"], raw["ship"]
                    )
                )
            rounds[(variant, n)] = tuple(cards)
    return rounds


def _check_ids(cat: Catalog) -> None:
    for variant, start in cat.start.items():
        named = list(start.town) + [b for ids in start.extra_town.values() for b in ids]
        for bid in named:
            if bid not in cat.buildings:
                raise CatalogError(f"start.{variant}: unknown building {bid!r}")
        for sid in [s for ids in start.player_ships.values() for s in ids]:
            if sid not in cat.ships:
                raise CatalogError(f"start.{variant}: unknown ship {sid!r}")


def _paying(goods: tuple[Good, ...], what: str) -> tuple[tuple[int, int], ...]:
    """(index, value) of the goods with a food (energy) value, cheapest first, then goods order."""
    pairs = [(g.index, int(getattr(g, what))) for g in goods]
    return tuple(sorted(((i, v) for i, v in pairs if v > 0), key=lambda p: (p[1], p[0])))


def parse_catalog(data: Any) -> Catalog:
    """A :class:`Catalog` from the decoded JSON, or :class:`CatalogError`."""
    goods, index = _goods(_get(data, "goods", "catalog"))
    substitutes = tuple(
        (_good(index, s, "substitutes"), _good(index, r, "substitutes"))
        for s, r in _get(data, "substitutes", "catalog").items()
    )
    spaces = tuple(_good(index, g, "offer_spaces") for g in _get(data, "offer_spaces", "catalog"))
    tiles = tuple(
        SupplyTile(
            _get(t, "id", "supply_tiles"),
            (
                _good(index, t["goods"][0], "supply_tiles"),
                _good(index, t["goods"][1], "supply_tiles"),
            ),
            bool(_get(t, "interest", "supply_tiles")),
        )
        for t in _get(data, "supply_tiles", "catalog")
    )
    if any(t.goods[0] not in spaces or t.goods[1] not in spaces for t in tiles):
        raise CatalogError("supply_tiles: every good on a tile needs an offer space")
    ship_types, ships = _ships(index, data)
    h = _get(_get(data, "round_end", "catalog"), "harvest", "round_end")
    loans = _get(data, "loans", "catalog")
    buildings = [
        _building(index, raw, pos) for pos, raw in enumerate(_get(data, "buildings", "catalog"))
    ]
    cat = Catalog(
        goods=goods,
        names=tuple(sorted(index, key=index.__getitem__)),
        index=index,
        substitutes=substitutes,
        offer_spaces=spaces,
        start={v: _start(index, data, v, spaces) for v in VARIANTS},
        tiles=tiles,
        turns_per_round=_int(_get(data, "turns_per_round", "catalog"), "turns_per_round"),
        rounds=_rounds(data, ships),
        harvest=Harvest(
            *(
                _int(_get(h, k, "harvest"), k)
                for k in ("grain_min", "grain_gain", "cattle_min", "cattle_gain")
            )
        ),
        ship_types=ship_types,
        ships=ships,
        modernise=_amounts(index, _get(data, "modernise", "catalog"), "modernise"),
        loans=Loans(
            *(_int(_get(loans, k, "loans"), k) for k in ("francs", "repay", "penalty", "interest"))
        ),
        buildings={b.id: b for b in buildings},
        order={b.id: pos for pos, b in enumerate(buildings)},
        size=len(index),
        food_values=(*_paying(goods, "food"), (FRANC, 1)),
        energy_values=_paying(goods, "energy"),
    )
    if len(cat.tiles) != cat.turns_per_round:
        raise CatalogError("supply_tiles: one tile per turn of a round")
    _check_ids(cat)
    return cat


def load_catalog(path: str | Path = DEFAULT_PATH) -> Catalog:
    """Read and validate a catalog file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise CatalogError(f"cannot read catalog {path}: {err}") from err
    return parse_catalog(data)


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    """The catalog shipped with the engine."""
    return load_catalog(DEFAULT_PATH)
