"""A building card as the table prints it: name, cost, value, price, entry fee, symbols, and what
entering it does in one short line, every number read from the catalog (engine/lehavre/catalog.json).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from app.i18n import Language, language
from engine.lehavre import default_catalog
from engine.lehavre.catalog import Amounts, Building, Catalog, Fee

from .words import LeHavreWords, words_for


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    number: int | None
    kind: str  # craft, economic, industrial, public, none, ship
    kind_name: str
    value: int
    price: str
    fee: str
    cost: str
    effect: str
    hammer: int
    fishing: int


def _named(cat: Catalog, amounts: Amounts) -> dict[str, int]:
    return {cat.names[i]: n for i, n in amounts}


def kind_name(t: Language, kind: str) -> str:
    names = {
        "craft": t.pgettext("building kind", "craft"),
        "economic": t.pgettext("building kind", "economic"),
        "industrial": t.pgettext("building kind", "industrial"),
        "public": t.pgettext("building kind", "public"),
        "ship": t.pgettext("building kind", "ship"),
        "none": t.pgettext("building kind", "no kind"),
    }
    return names[kind]


def fee_text(t: Language, w: LeHavreWords, fee: Fee | None) -> str:
    """'free', '2 food', '1 franc', '2 food or 1 franc'; '—' for a card that cannot be entered."""
    if fee is None:
        return "—"
    if fee.free:
        return t.gettext("free")
    if fee.food is not None and fee.franc is not None:
        return t.gettext(
            "%(food)s or %(francs)s", food=w.food(fee.food), francs=w.amount("franc", fee.franc)
        )
    if fee.food is not None:
        return w.food(fee.food)
    return w.amount("franc", fee.franc or 0)


def _per_symbol(t: Language, w: LeHavreWords, per: Mapping[str, Any], every: bool) -> list[str]:
    out = []
    for symbol, goods in per.items():
        what = w.amounts(dict(goods))
        if symbol == "fishing":
            out.append(
                t.gettext("+%(goods)s per fishing symbol", goods=what)
                if every
                else t.gettext("+%(goods)s with a fishing symbol", goods=what)
            )
        else:
            out.append(
                t.gettext("+%(goods)s per hammer symbol", goods=what)
                if every
                else t.gettext("+%(goods)s with a hammer symbol", goods=what)
            )
    return out


def _gain(t: Language, w: LeHavreWords, e: Mapping[str, Any]) -> str:
    parts = [t.gettext("Take %(goods)s", goods=w.amounts(dict(e["goods"])))] if e["goods"] else []
    parts += _per_symbol(t, w, e.get("per_symbol", {}), True)
    parts += _per_symbol(t, w, e.get("if_symbol", {}), False)
    if "requires" in e:
        parts.append(t.gettext("if you hold %(goods)s", goods=w.amounts(dict(e["requires"]))))
    if "extra" in e:
        extra = e["extra"]
        parts.append(
            t.gettext(
                "pay %(energy)s for %(goods)s more",
                energy=w.energy(extra["energy"]),
                goods=w.amounts(dict(extra["goods"])),
            )
        )
    return ", ".join(parts)


def _choose(t: Language, cat: Catalog, e: Mapping[str, Any]) -> str:
    upgraded = all(cat.goods[cat.index[g] - 1].basic is not None for g in e["from"])
    counts = [str(e["base"])] if e["base"] else []
    for kind, n in e.get("per_kind", {}).items():
        counts.append(t.gettext("%(num)s per %(kind)s building", num=n, kind=kind_name(t, kind)))
    count = " + ".join(counts)
    text = (
        t.gettext("Take different upgraded goods: %(count)s", count=count)
        if upgraded
        else t.gettext("Take different standard goods: %(count)s", count=count)
    )
    if e.get("reorder_specials"):
        text += "; " + t.gettext("may swap the top two special buildings")
    return text


def _line(
    t: Language, w: LeHavreWords, cat: Catalog, line: Any, flat: int, choose_one: bool
) -> str:
    ins = w.amounts(_named(cat, line.inputs)) if line.inputs else ""
    if line.food:
        ins = " + ".join(x for x in (ins, w.food(line.food)) if x)
    extras = []
    num, den = line.energy
    if num:
        extras.append(
            t.gettext("%(energy)s each", energy=w.energy(num))
            if den == 1
            else t.gettext("%(energy)s per %(num)s", energy=w.energy(num), num=den)
        )
    if flat:
        extras.append(t.gettext("%(energy)s once", energy=w.energy(flat)))
    num, den = line.francs
    if num:
        extras.append(t.gettext("+%(francs)s per %(num)s", francs=w.amount("franc", num), num=den))
    for good, bnum, bden in line.byproducts:
        extras.append(
            t.gettext("+%(goods)s per %(num)s", goods=w.amount(cat.names[good], bnum), num=bden)
        )
    if line.max and not choose_one:
        extras.append(t.gettext("at most %(num)s×", num=line.max))
    text = f"{ins} → {w.amounts(_named(cat, line.outputs))}"
    return f"{text} ({', '.join(extras)})" if extras else text


def _convert(t: Language, w: LeHavreWords, cat: Catalog, b: Building) -> str:
    flat = int(b.effect.get("energy_flat", 0))
    choose_one = bool(b.effect.get("choose_one"))
    lines = [_line(t, w, cat, line, flat, choose_one) for line in b.lines]
    if choose_one:
        return t.gettext("One of: %(lines)s", lines=" | ".join(lines))
    return " | ".join(lines)


def _build(t: Language, w: LeHavreWords, e: Mapping[str, Any]) -> str:
    text = t.ngettext("Build %(num)s building", "Build up to %(num)s buildings", e["max"])
    if "needs_material" in e:
        text += ", " + t.gettext(
            "one that needs %(good)s", good=w.good_name(str(e["needs_material"]))
        )
    if "discount" in e:
        text += ", " + t.gettext("%(goods)s less", goods=w.amounts(dict(e["discount"])))
    return text


def _trade(t: Language, w: LeHavreWords, e: Mapping[str, Any]) -> str:
    options = [
        t.ngettext(
            "%(num)s good → 1 %(goods)s",
            "%(num)s goods → 1 %(goods)s",
            o["give"],
            goods=" / ".join(w.good_name(g) for g in o["get"]),
        )
        for o in e["options"]
    ]
    return t.gettext("Trade: %(options)s", options="; ".join(options))


def _court(t: Language, w: LeHavreWords, e: Mapping[str, Any]) -> str:
    rows = []
    for row in e["by_loans"]:
        text = t.ngettext("%(num)s loan: cancel", "%(num)s loans: cancel", row["loans"])
        text += f" {w.number(row['cancel'])}"
        if row["francs"]:
            text += f", +{w.amount('franc', row['francs'])}"
        rows.append(text)
    return t.gettext("Cancel loans (%(rows)s)", rows="; ".join(rows))


def _simple(t: Language, w: LeHavreWords, e: Mapping[str, Any]) -> str:
    kind = e["kind"]
    if kind == "wharf":
        return t.gettext("Build a ship from its materials and energy")
    if kind == "shipping":
        return t.gettext(
            "Ship goods for their value in francs, %(energy)s per ship",
            energy=w.energy(e["energy_per_ship"]),
        )
    if kind == "bridge":
        return t.gettext(
            "Sell goods: 1 franc per upgraded good, 1 franc per %(num)s standard goods",
            num=e["standard_per_franc"],
        )
    if kind == "black_market":
        return t.gettext("Take %(num)s of each good whose offer space is empty", num=e["amount"])
    if kind == "arts_centre":
        return t.gettext(
            "%(francs)s per other player's worker in your buildings",
            francs=w.amount("franc", e["francs"]),
        )
    if kind == "haulage":
        return t.gettext(
            "Pay %(francs)s: take two neighbouring offers", francs=w.amount("franc", e["francs"])
        )
    if kind == "zoo":
        return t.gettext(
            "%(francs)s per %(num)s of %(goods)s",
            francs=w.amount("franc", e["francs"]),
            num=e["per"],
            goods=t.join([w.good_name(g) for g in e["counts"]]),
        )
    if kind == "harbour_watch":
        return t.gettext(
            "Send a worker home (%(francs)s to its owner) and use that building",
            francs=w.amount("franc", e["compensation"]),
        )
    return ""


def _passive(t: Language, w: LeHavreWords, b: Building) -> str:
    parts = []
    p = b.passive
    if "harvest_cattle" in p:
        h = p["harvest_cattle"]
        parts.append(
            t.gettext(
                "Harvest: +%(gain)s cattle with %(low)s to %(high)s cattle",
                gain=h["gain"],
                low=h["min"],
                high=h["max"],
            )
        )
    if "construction_discount" in p:
        parts.append(
            t.gettext(
                "Buildings cost %(goods)s less", goods=w.amounts(dict(p["construction_discount"]))
            )
        )
    if "energy_per_payment" in p:
        parts.append(
            t.gettext(
                "Each energy payment %(energy)s less", energy=w.energy(p["energy_per_payment"])
            )
        )
    if "final_actions" in p:
        parts.append(t.gettext("%(num)s actions in the final round", num=p["final_actions"]))
    if "ship_exchange" in p:
        parts.append(
            t.gettext(
                "At a wharf, exchange your %(ship)s for this card",
                ship=w.ship_type_name(p["ship_exchange"]["gives_type"]),
            )
        )
    bonus = b.bonus or {}
    for kind, n in bonus.get("per_owned", {}).items():
        parts.append(t.gettext("End: +%(num)s per %(kind)s", num=n, kind=kind_name(t, kind)))
    if "per_good_held" in bonus:
        francs, per = bonus["per_good_held"]
        parts.append(t.gettext("End: +%(francs)s per %(num)s goods held", francs=francs, num=per))
    return ". ".join(parts) or t.gettext("No action")


def effect_line(t: Language, w: LeHavreWords, cat: Catalog, b: Building) -> str:
    e = b.effect
    if b.effect_kind == "gain":
        return _gain(t, w, e)
    if b.effect_kind == "choose":
        return _choose(t, cat, e)
    if b.effect_kind == "convert":
        return _convert(t, w, cat, b)
    if b.effect_kind == "build":
        return _build(t, w, e)
    if b.effect_kind == "trade_any":
        return _trade(t, w, e)
    if b.effect_kind == "local_court":
        return _court(t, w, e)
    if b.effect_kind == "none":
        return _passive(t, w, b)
    return _simple(t, w, e)


def card(cat: Catalog, building: str, lang: str) -> Card:
    """The card of ``building`` in one language; the default catalog's cards are remembered."""
    if cat is default_catalog():
        return _default_card(building, lang)
    return _card(cat, building, lang)


@lru_cache(maxsize=1024)
def _default_card(building: str, lang: str) -> Card:
    return _card(default_catalog(), building, lang)


def _card(cat: Catalog, building: str, lang: str) -> Card:
    t, w = language(lang), words_for(lang)
    b = cat.buildings[building]
    return Card(
        id=b.id,
        name=w.building_name(b.id),
        number=b.number,
        kind=b.kind,
        kind_name=kind_name(t, b.kind),
        value=b.value,
        price=w.amount("franc", b.price) if b.price is not None else "—",
        fee=fee_text(t, w, b.fee),
        cost=w.amounts(_named(cat, b.materials)) if b.materials else "—",
        effect=effect_line(t, w, cat, b),
        hammer=b.hammer,
        fishing=b.fishing,
    )
