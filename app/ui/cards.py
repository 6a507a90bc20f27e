"""What a building's card prints, in one language: its name, round letter, cost, value and effect.

A card is the same on every board, so `card_of` draws each one once per language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from engine import Catalog, has_action
from engine.catalog import ComputedValue

from .words import AMOUNT_ORDER, Words, words_for


@dataclass(frozen=True)
class Card:
    """What a building's card prints in one language: the same on every board."""

    name: str
    letter: str
    cost: str
    cost_parts: tuple[tuple[str, int], ...]
    value: str
    effect: str


@cache
def card_of(catalog: Catalog, building_id: str, lang: str) -> Card:
    """The card of one building in one language."""
    building = catalog.building(building_id)
    words = words_for(lang)
    return Card(
        name=building.name_in(lang),
        letter=building.letter,
        cost=cost_text(words, dict(building.cost)),
        cost_parts=tuple(sorted(building.cost, key=lambda kv: AMOUNT_ORDER.index(kv[0]))),
        value=value_text(words, building.value),
        effect=effect_text(words, building_id),
    )


def cost_text(words: Words, cost: Mapping[str, int]) -> str:
    """A building's cost: '2 wood, 1 clay', '3 food (fish or grain)', '4 francs', 'free'."""
    if not cost or not any(cost.values()):
        return words.lang.gettext("free")
    text = words.goods_amounts(cost)
    if "food" in cost and len(cost) == 1:
        return words.lang.gettext("%(amount)s (fish or grain)", amount=text)
    return text


def value_text(words: Words, value: int | ComputedValue) -> str:
    """A building's value: '12' or '1 per grain' / '4 per dock building'."""
    t = words.lang
    if not isinstance(value, ComputedValue):
        return words.number(int(value))
    rate = words.number(int(value.rate))
    per = value.per
    if per == "fish":
        return t.gettext("%(rate)s per fish", rate=rate)
    if per == "wood":
        return t.gettext("%(rate)s per wood", rate=rate)
    if per == "clay":
        return t.gettext("%(rate)s per clay", rate=rate)
    if per == "grain":
        return t.gettext("%(rate)s per grain", rate=rate)
    return t.gettext("%(rate)s per dock building", rate=rate)


def effect_text(words: Words, building_id: str) -> str:
    """What a building does; N is the multiplier of its sector (2, 3, 4; 4+ adds 1 franc)."""
    t = words.lang
    if not has_action(building_id):
        return t.gettext("No action: worth points at the end.")
    effects = {
        "wood_company": t.gettext("Wood right ×N."),
        "farmland": t.gettext("Grain right ×N, then wood and clay right once."),
        "clay_mound": t.gettext("Clay right ×(N+1)."),
        "grocery_store": t.gettext("+N francs, then grain and fish right once."),
        "hardware_store": t.gettext("Wood or clay right ×N."),
        "farm": t.gettext("Grain up-right ×(N−1)."),
        "kiln": t.gettext("Clay up-left ×N."),
        "smokehouse": t.gettext("Fish up-left ×N."),
        "bakehouse": t.gettext("Grain up-left ×N."),
        "sawmill": t.gettext("Wood up-left ×N."),
        "wood_trader": t.gettext("Up to N times: pay 1 franc and 2 food, wood up once."),
        "restaurant": t.gettext("Up to N times: pay 1 food for 2 francs."),
        "marketplace": t.gettext("N steps right, spread over any goods."),
        "fish_market": t.gettext("Up to N times: pay 1 franc, fish up-right once."),
        "building_firm": t.gettext("Wood right ×N and clay right ×N."),
        "church_square": t.gettext("Grain right ×N and fish right ×N."),
        "weekly_market": t.gettext("Up to N times: grain or fish down once for 4 francs."),
        "masons_guild": t.gettext("N different goods up-left once each."),
        "business_office": t.gettext("Up to N different goods down-left, 5 francs each."),
        "shipping_line": t.gettext("+3N francs."),
        "guild_hall": t.gettext("N different goods up-right once each."),
        "pier": t.gettext("N+2 steps right, spread over any goods."),
        "craftsmens_yard": t.gettext("N+1 steps up-left, spread over any goods."),
    }
    return effects[building_id]
