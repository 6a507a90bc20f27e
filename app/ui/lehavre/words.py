"""Le Havre's words: its goods, buildings and ships by name, and amounts, in one language.

The engine (`engine.lehavre`) speaks in ids: goods ("smoked_fish", "franc"), buildings
("bridge_over_the_seine"), ship types ("luxury_liner"). `LeHavreWords` turns them into what a player
reads — "3 smoked fish", "3 uzené ryby", "3 peixes defumados" — through the gettext catalogues of one
language (`app.i18n`). Amounts are mostly what a player pays or holds (Czech accusative: "1 rybu").
The goods shared with Inland Port keep its words (`app.ui.words`), so both games say "fish" alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache

from app.i18n import DEFAULT_LANGUAGE, Language, language
from engine.lehavre import default_catalog


class LeHavreWords:
    """Le Havre's words in one language (``LeHavreWords("cs")``); `words_for` shares one per language."""

    def __init__(self, code: str = DEFAULT_LANGUAGE) -> None:
        self.code = code
        self.lang: Language = language(code)
        t = self.lang
        self._goods = _good_names(t)
        self._buildings = {**_start_and_standard_names(t), **_special_names(t)}
        self._ship_types = _ship_type_names(t)

    def number(self, n: int) -> str:
        return self.lang.number(n)

    def good_name(self, good: str) -> str:
        """A good (or "franc") as a label or in a list: 'smoked fish', 'francs' ('uzené ryby')."""
        return self._goods[good]

    def amount(self, good: str, n: int) -> str:
        """'3 fish', '1 franc' — '3 ryby', '1 frank'; '3 peixes', '1 franco'."""
        return _amount(self.lang, good, n)

    def francs(self, n: int) -> str:
        return self.amount("franc", n)

    def food(self, n: int) -> str:
        return self.lang.ngettext("%(num)s food", "%(num)s food", n)

    def energy(self, n: int) -> str:
        return self.lang.ngettext("%(num)s energy", "%(num)s energy", n)

    def amounts(self, goods: Mapping[str, int] | Iterable[tuple[str, int]]) -> str:
        """'2 wood, 1 brick' — goods in catalog order (francs first), zero amounts left out."""
        given = dict(goods)
        order = default_catalog().names
        parts = [self.amount(g, given[g]) for g in order if given.get(g)]
        return ", ".join(parts) if parts else self.lang.gettext("nothing")

    def building_name(self, building: str) -> str:
        """A building (standard, special or one of the start) by its id: 'Bridge over the Seine'."""
        return self._buildings[building]

    def ship_type_name(self, ship_type: str) -> str:
        """A ship type by its id, as it reads in a sentence: 'wooden ship', 'luxury liner'."""
        return self._ship_types[ship_type]

    def ship_name(self, ship: str) -> str:
        """A ship by its id ("S04"): the name of its type ('wooden ship')."""
        return self.ship_type_name(default_catalog().ships[ship].type)


@cache
def words_for(code: str = DEFAULT_LANGUAGE) -> LeHavreWords:
    """The shared `LeHavreWords` of one language."""
    return LeHavreWords(code)


def _good_names(t: Language) -> dict[str, str]:
    return {
        "franc": t.pgettext("good", "francs"),
        "fish": t.pgettext("good", "fish"),
        "wood": t.pgettext("good", "wood"),
        "clay": t.pgettext("good", "clay"),
        "iron": t.pgettext("good", "iron"),
        "grain": t.pgettext("good", "grain"),
        "cattle": t.pgettext("good", "cattle"),
        "coal": t.pgettext("good", "coal"),
        "hides": t.pgettext("good", "hides"),
        "smoked_fish": t.pgettext("good", "smoked fish"),
        "charcoal": t.pgettext("good", "charcoal"),
        "brick": t.pgettext("good", "brick"),
        "steel": t.pgettext("good", "steel"),
        "bread": t.pgettext("good", "bread"),
        "meat": t.pgettext("good", "meat"),
        "coke": t.pgettext("good", "coke"),
        "leather": t.pgettext("good", "leather"),
    }


def _amount(t: Language, good: str, n: int) -> str:
    if good in _BASIC_AMOUNTS:
        return _BASIC_AMOUNTS[good](t, n)
    return _UPGRADED_AMOUNTS[good](t, n)


_BASIC_AMOUNTS: dict[str, Callable[[Language, int], str]] = {
    "franc": lambda t, n: t.ngettext("%(num)s franc", "%(num)s francs", n),
    "fish": lambda t, n: t.ngettext("%(num)s fish", "%(num)s fish", n),
    "wood": lambda t, n: t.ngettext("%(num)s wood", "%(num)s wood", n),
    "clay": lambda t, n: t.ngettext("%(num)s clay", "%(num)s clay", n),
    "iron": lambda t, n: t.ngettext("%(num)s iron", "%(num)s iron", n),
    "grain": lambda t, n: t.ngettext("%(num)s grain", "%(num)s grain", n),
    "cattle": lambda t, n: t.ngettext("%(num)s cattle", "%(num)s cattle", n),
    "coal": lambda t, n: t.ngettext("%(num)s coal", "%(num)s coal", n),
    "hides": lambda t, n: t.ngettext("%(num)s hide", "%(num)s hides", n),
}
"""The standard goods (and francs): language, count -> the amount in words."""

_UPGRADED_AMOUNTS: dict[str, Callable[[Language, int], str]] = {
    "smoked_fish": lambda t, n: t.ngettext("%(num)s smoked fish", "%(num)s smoked fish", n),
    "charcoal": lambda t, n: t.ngettext("%(num)s charcoal", "%(num)s charcoal", n),
    "brick": lambda t, n: t.ngettext("%(num)s brick", "%(num)s bricks", n),
    "steel": lambda t, n: t.ngettext("%(num)s steel", "%(num)s steel", n),
    "bread": lambda t, n: t.ngettext("%(num)s bread", "%(num)s bread", n),
    "meat": lambda t, n: t.ngettext("%(num)s meat", "%(num)s meat", n),
    "coke": lambda t, n: t.ngettext("%(num)s coke", "%(num)s coke", n),
    "leather": lambda t, n: t.ngettext("%(num)s leather", "%(num)s leather", n),
}
"""The upgraded goods, the other side of each standard good's token."""


def _ship_type_names(t: Language) -> dict[str, str]:
    return {
        "wooden": t.pgettext("Le Havre ship", "wooden ship"),
        "iron": t.pgettext("Le Havre ship", "iron ship"),
        "steel": t.pgettext("Le Havre ship", "steel ship"),
        "luxury_liner": t.pgettext("Le Havre ship", "luxury liner"),
    }


def _start_and_standard_names(t: Language) -> dict[str, str]:
    """The buildings in the town at the start, and the standard buildings (card numbers 1-30)."""
    return {
        "building_firm_1": t.pgettext("Le Havre building", "Building Firm"),
        "building_firm_2": t.pgettext("Le Havre building", "Building Firm"),
        "construction_firm": t.pgettext("Le Havre building", "Construction Firm"),
        "marketplace": t.pgettext("Le Havre building", "Marketplace"),
        "sawmill": t.pgettext("Le Havre building", "Sawmill"),
        "fishery": t.pgettext("Le Havre building", "Fishery"),
        "joinery": t.pgettext("Le Havre building", "Joinery"),
        "bakehouse": t.pgettext("Le Havre building", "Bakehouse"),
        "hardware_store": t.pgettext("Le Havre building", "Hardware Store"),
        "charcoal_kiln": t.pgettext("Le Havre building", "Charcoal Kiln"),
        "smokehouse": t.pgettext("Le Havre building", "Smokehouse"),
        "abattoir": t.pgettext("Le Havre building", "Abattoir"),
        "clay_mound": t.pgettext("Le Havre building", "Clay Mound"),
        "arts_centre": t.pgettext("Le Havre building", "Arts Centre"),
        "wharf_1": t.pgettext("Le Havre building", "Wharf"),
        "black_market": t.pgettext("Le Havre building", "Black Market"),
        "brickworks": t.pgettext("Le Havre building", "Brickworks"),
        "local_court": t.pgettext("Le Havre building", "Local Court"),
        "colliery": t.pgettext("Le Havre building", "Colliery"),
        "wharf_2": t.pgettext("Le Havre building", "Wharf"),
        "shipping_line": t.pgettext("Le Havre building", "Shipping Line"),
        "grocery_market": t.pgettext("Le Havre building", "Grocery Market"),
        "tannery": t.pgettext("Le Havre building", "Tannery"),
        "business_office": t.pgettext("Le Havre building", "Business Office"),
        "ironworks": t.pgettext("Le Havre building", "Ironworks"),
        "steel_mill": t.pgettext("Le Havre building", "Steel Mill"),
        "storehouse": t.pgettext("Le Havre building", "Storehouse"),
        "cokery": t.pgettext("Le Havre building", "Cokery"),
        "dock": t.pgettext("Le Havre building", "Dock"),
        "bridge_over_the_seine": t.pgettext("Le Havre building", "Bridge over the Seine"),
        "town_hall": t.pgettext("Le Havre building", "Town Hall"),
        "bank": t.pgettext("Le Havre building", "Bank"),
        "church": t.pgettext("Le Havre building", "Church"),
    }


def _special_names(t: Language) -> dict[str, str]:
    """The special buildings, a few of which each game draws."""
    return {
        "labour_exchange": t.pgettext("Le Havre building", "Labour Exchange"),
        "bakery": t.pgettext("Le Havre building", "Bakery"),
        "baguette_shop": t.pgettext("Le Havre building", "Baguette Shop"),
        "farm": t.pgettext("Le Havre building", "Farm"),
        "clothing_industry": t.pgettext("Le Havre building", "Clothing Industry"),
        "iron_mine_and_coal_seam": t.pgettext("Le Havre building", "Iron Mine & Coal Seam"),
        "fish_market": t.pgettext("Le Havre building", "Fish Market"),
        "fish_restaurant": t.pgettext("Le Havre building", "Fish Restaurant"),
        "fishpond_and_wood": t.pgettext("Le Havre building", "Fishpond & Wood"),
        "forest_hut": t.pgettext("Le Havre building", "Forest Hut"),
        "plant_nursery": t.pgettext("Le Havre building", "Plant Nursery"),
        "business_park": t.pgettext("Le Havre building", "Business Park"),
        "guildhouse": t.pgettext("Le Havre building", "Guildhouse"),
        "harbour_watch": t.pgettext("Le Havre building", "Harbour Watch"),
        "smelter": t.pgettext("Le Havre building", "Smelter"),
        "diner": t.pgettext("Le Havre building", "Diner"),
        "hunting_lodge": t.pgettext("Le Havre building", "Hunting Lodge"),
        "coal_trader": t.pgettext("Le Havre building", "Coal Trader"),
        "patisserie": t.pgettext("Le Havre building", "Pâtisserie"),
        "furriery": t.pgettext("Le Havre building", "Furriery"),
        "leather_industry": t.pgettext("Le Havre building", "Leather Industry"),
        "kiln": t.pgettext("Le Havre building", "Kiln"),
        "luxury_yacht": t.pgettext("Le Havre building", "Luxury Yacht"),
        "feedlot": t.pgettext("Le Havre building", "Feedlot"),
        "masons_guild": t.pgettext("Le Havre building", "Masons' Guild"),
        "furniture_factory": t.pgettext("Le Havre building", "Furniture Factory"),
        "town_square": t.pgettext("Le Havre building", "Town Square"),
        "tavern": t.pgettext("Le Havre building", "Tavern"),
        "haulage_firm": t.pgettext("Le Havre building", "Haulage Firm"),
        "schnaps_distillery": t.pgettext("Le Havre building", "Schnaps Distillery"),
        "steelworks": t.pgettext("Le Havre building", "Steelworks"),
        "steakhouse": t.pgettext("Le Havre building", "Steakhouse"),
        "wind_farm": t.pgettext("Le Havre building", "Wind Farm"),
        "brick_manufacturer": t.pgettext("Le Havre building", "Brick Manufacturer"),
        "zoo": t.pgettext("Le Havre building", "Zoo"),
        "workers_cottages": t.pgettext("Le Havre building", "Workers' Cottages"),
    }
