"""The move log in words: one describer per kind of engine event (see docs/engine-api.md).

The move log is stored as the engine's events and put into words only when a page is drawn, so the
same move reads in each viewer's language. `DESCRIBERS` maps an event's kind to the function that
tells it; each takes the `Words` of the reader's language, the event, and the building names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .words import GOODS, Words

Event = Mapping[str, Any]
Names = Mapping[str, str]
"""Building id -> its name in the reader's language."""

USE_MOVES_DIRECTION = {
    "business_office": "down-left",
    "guild_hall": "up-right",
    "masons_guild": "up-left",
}
"""Buildings whose "goods" choice moves each chosen counter one step in a fixed direction."""


def _sell(words: Words, event: Event, names: Names) -> str:
    return words.lang.gettext(
        "%(player)s sold %(building)s for %(francs)s",
        player=words.seat_name(event["seat"]),
        building=names[event["building"]],
        francs=words.francs(event["francs"]),
    )


def _forced_sale(words: Words, event: Event, names: Names) -> str:
    return words.lang.gettext(
        "Player %(number)s's %(building)s reached sector ! and was sold for %(francs)s",
        number=event["seat"] + 1,
        building=names[event["building"]],
        francs=words.francs(event["francs"]),
    )


def _build(words: Words, event: Event, names: Names) -> str:
    return words.lang.gettext(
        "%(player)s built %(building)s, paying %(cost)s",
        player=words.seat_name(event["seat"]),
        building=names[event["building"]],
        cost=words.goods_amounts(event.get("paid") or {}),
    )


def _pass(words: Words, event: Event, names: Names) -> str:
    return words.lang.gettext("%(player)s passed", player=words.seat_name(event["seat"]))


def _round_end(words: Words, event: Event, names: Names) -> str:
    t = words.lang
    if event.get("next_round"):
        return t.gettext(
            "End of round %(round)s: every building moves one sector; round %(next)s begins",
            round=event["round"],
            next=event["next_round"],
        )
    return t.gettext(
        "End of round %(round)s: every building moves one sector; that was the last round",
        round=event["round"],
    )


def _game_over(words: Words, event: Event, names: Names) -> str:
    t = words.lang
    s0, s1 = (words.number(s) for s in event["scores"])
    winner = event.get("winner")
    if winner is None:
        return t.gettext("Game over: %(first)s to %(second)s, a draw", first=s0, second=s1)
    return t.gettext(
        "Game over: %(first)s to %(second)s, Player %(number)s wins",
        first=s0,
        second=s1,
        number=winner + 1,
    )


def _use(words: Words, event: Event, names: Names) -> str:
    """Example: "Player 1 used Player 2's Business Office (4+): paid 1 franc to Player 2,
    moved fish, wood, clay, and grain down-left, +21 francs"."""
    t = words.lang
    seat = event["seat"]
    owner = event["owner"]
    building = event["building"]
    if owner == seat:
        head = t.gettext(
            "%(player)s used %(building)s (%(sector)s)",
            player=words.seat_name(seat),
            building=names[building],
            sector=event["sector"],
        )
    else:
        head = t.gettext(
            "%(player)s used Player %(owner)s's %(building)s (%(sector)s)",
            player=words.seat_name(seat),
            owner=owner + 1,
            building=names[building],
            sector=event["sector"],
        )
    parts: list[str] = []
    if event.get("fee"):
        parts.append(
            t.gettext(
                "paid %(francs)s to Player %(owner)s",
                francs=words.francs(event["fee"]),
                owner=owner + 1,
            )
        )
    choice = _choice_text(words, building, event.get("choice") or {})
    if choice:
        parts.append(choice)
    parts.extend(_use_outcome(words, building, event))
    if not parts:
        parts.append(t.gettext("nothing changed"))
    return t.gettext("%(head)s: %(details)s", head=head, details=", ".join(parts))


def _use_outcome(words: Words, building: str, event: Event) -> list[str]:
    """What a use paid, gained and lost at the edge of the warehouse."""
    t = words.lang
    parts: list[str] = []
    paid = event.get("paid") or {}
    if any(paid.values()) and building not in USE_MOVES_DIRECTION:
        parts.append(t.gettext("paid %(goods)s", goods=words.goods_amounts(paid)))
    gained = event.get("gained") or {}
    if any(gained.values()):
        parts.append(", ".join(f"+{words.amount(g, gained[g])}" for g in GOODS if gained.get(g)))
    net = int(event.get("bonus") or 0) + int(event.get("francs") or 0)
    if net:
        parts.append(f"+{words.francs(net)}" if net >= 0 else f"−{words.francs(-net)}")
    lost = event.get("lost_steps") or {}
    if any(lost.values()):
        listed = ", ".join(
            t.gettext("%(good)s %(steps)s", good=words.good_name(g), steps=words.steps(lost[g]))
            for g in GOODS
            if lost.get(g)
        )
        parts.append(t.gettext("lost at the edge: %(steps)s", steps=listed))
    return parts


def _moved_goods(words: Words, building: str, goods: Sequence[str]) -> str:
    t = words.lang
    if not goods:
        return t.gettext("moved no goods")
    ordered = sorted(goods, key=lambda g: GOODS.index(g) if g in GOODS else len(GOODS))
    listed = t.join([words.good_name(g) for g in ordered if g in GOODS])
    direction = USE_MOVES_DIRECTION.get(building)
    if direction == "down-left":
        return t.gettext("moved %(goods)s down-left", goods=listed)
    if direction == "up-right":
        return t.gettext("moved %(goods)s up-right", goods=listed)
    if direction == "up-left":
        return t.gettext("moved %(goods)s up-left", goods=listed)
    return t.gettext("moved %(goods)s", goods=listed)


def _choice_text(words: Words, building: str, choice: Mapping[str, Any]) -> str | None:
    """The player's choice inside a use, as the log tells it."""
    t = words.lang
    if not choice:
        return None
    goods = choice.get("goods")
    if goods is not None:
        return _moved_goods(words, building, goods)
    steps = choice.get("steps")
    if steps:
        listed = ", ".join(
            f"{words.good_name(g)} ×{words.number(steps[g])}" for g in GOODS if steps.get(g)
        )
        return t.gettext("steps: %(steps)s", steps=listed)
    times = choice.get("times")
    if times is not None:
        if not times:
            return t.gettext("did it 0 times")
        good = choice.get("good")
        if good == "fish":
            return t.ngettext("%(num)s time with fish", "%(num)s times with fish", times)
        if good == "grain":
            return t.ngettext("%(num)s time with grain", "%(num)s times with grain", times)
        return words.times(times)
    payments = choice.get("payments")
    if payments is not None:
        return words.times(len(payments)) if payments else t.gettext("did it 0 times")
    good = choice.get("good")
    if good in GOODS:
        return t.gettext("chose %(good)s", good=words.good_name(good))
    return None


def _takeback(words: Words, event: Event, names: Names) -> str:
    return words.lang.ngettext(
        "%(player)s took back their last action (the opponent agreed)",
        "%(player)s took back their last %(num)s actions (the opponent agreed)",
        event["count"],
        player=words.seat_name(event["seat"]),
    )


DESCRIBERS: dict[str, Callable[[Words, Event, Names], str]] = {
    "takeback": _takeback,
    "sell": _sell,
    "forced_sale": _forced_sale,
    "build": _build,
    "use": _use,
    "pass": _pass,
    "round_end": _round_end,
    "game_over": _game_over,
}
"""Event kind -> the function that tells it in words."""


def describe_event(words: Words, event: Event, names: Names) -> str:
    """One readable log line for an engine event (an unknown kind reads as the kind itself)."""
    kind = event.get("kind")
    describer = DESCRIBERS.get(kind) if isinstance(kind, str) else None
    return describer(words, event, names) if describer else str(kind)


def describe_events(words: Words, events: Sequence[Event], names: Names) -> list[str]:
    return [describe_event(words, e, names) for e in events]
