"""Player-facing words: the names and amounts every part of the table says, in one language.

The engine speaks in ids and numbers (building ids, goods, seats); `Words` turns them into short
phrases — "2 wood, 1 clay", "Player 2", "1 franc" — through the gettext catalogues of one language
(`app.i18n`). The phrases of one thing on the table live with that thing: a card's cost and effect
in `app.ui.cards`, the move log in `app.ui.log`, the turn banner in `app.ui.board`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from app.i18n import DEFAULT_LANGUAGE, Language, language
from engine import Catalog, sector_multipliers

GOODS: tuple[str, ...] = ("fish", "wood", "clay", "grain")
"""The four goods, in the order the table lists them."""

AMOUNT_ORDER: tuple[str, ...] = (*GOODS, "food", "francs")
"""The order of a list of amounts: goods in table order, then food, then francs last."""


class Words:
    """The table's words in one language (``Words("cs")``); `words_for` shares one per language."""

    def __init__(self, code: str = DEFAULT_LANGUAGE) -> None:
        self.code = code
        self.lang: Language = language(code)
        self._names: dict[Catalog, Mapping[str, str]] = {}

    def number(self, n: int) -> str:
        return self.lang.number(n)

    def good_name(self, good: str) -> str:
        """A good as a label or in a list: 'fish', 'wood' ('ryby', 'dřevo')."""
        t = self.lang
        names = {
            "fish": t.pgettext("good", "fish"),
            "wood": t.pgettext("good", "wood"),
            "clay": t.pgettext("good", "clay"),
            "grain": t.pgettext("good", "grain"),
            "food": t.pgettext("good", "food"),
            "francs": t.pgettext("good", "francs"),
        }
        return names[good]

    def good_letter(self, good: str) -> str:
        """The one-letter mark on a goods counter, so goods never differ by colour alone."""
        t = self.lang
        letters = {
            "fish": t.pgettext("letter on the fish counter", "F"),
            "wood": t.pgettext("letter on the wood counter", "W"),
            "clay": t.pgettext("letter on the clay counter", "C"),
            "grain": t.pgettext("letter on the grain counter", "G"),
        }
        return letters[good]

    def amount(self, good: str, n: int) -> str:
        """'1 franc', '2 francs' — '1 frank', '2 franky', '5 franků' in Czech."""
        t = self.lang
        if good == "fish":
            # Translators: amounts are mostly what a player pays or has (Czech: "1 rybu").
            return t.ngettext("%(num)s fish", "%(num)s fish", n)
        if good == "wood":
            return t.ngettext("%(num)s wood", "%(num)s wood", n)
        if good == "clay":
            return t.ngettext("%(num)s clay", "%(num)s clay", n)
        if good == "grain":
            return t.ngettext("%(num)s grain", "%(num)s grain", n)
        if good == "food":
            return t.ngettext("%(num)s food", "%(num)s food", n)
        return t.ngettext("%(num)s franc", "%(num)s francs", n)

    def francs(self, n: int) -> str:
        return self.amount("francs", n)

    def times(self, n: int) -> str:
        return self.lang.ngettext("%(num)s time", "%(num)s times", n)

    def steps(self, n: int) -> str:
        return self.lang.ngettext("%(num)s step", "%(num)s steps", n)

    def goods_amounts(self, amounts: Mapping[str, int]) -> str:
        """'2 wood, 1 clay' — goods in table order, zero amounts left out; food, then francs last."""
        parts = [self.amount(g, amounts[g]) for g in AMOUNT_ORDER if amounts.get(g)]
        return ", ".join(parts) if parts else self.lang.gettext("nothing")

    def spectators_watching(self, n: int) -> str:
        return self.lang.ngettext("%(num)s spectator watching", "%(num)s spectators watching", n)

    def sector_hint(self, catalog: Catalog, age: int) -> str:
        """What the wheel sector of a building's age means: its multiplier and bonus francs
        (`engine.sector_multipliers`, the catalog's wheel), or that it is sold ("!")."""
        t = self.lang
        if age >= catalog.sold_at_age:
            return t.gettext("sold at the end of the round")
        multiplier = sector_multipliers(catalog)[age]
        if not multiplier:
            return t.gettext("just built or used: cannot be used")
        bonus = catalog.bonus_francs_by_age[age]
        n = self.number(multiplier)
        if bonus:
            return t.gettext(
                "effect ×%(multiplier)s and %(francs)s", multiplier=n, francs=self.francs(bonus)
            )
        return t.gettext("effect ×%(multiplier)s", multiplier=n)

    def seat_name(self, seat: int) -> str:
        """The name a seat goes by on the table and in the log."""
        return self.lang.gettext("Player %(number)s", number=seat + 1)

    def building_names(self, catalog: Catalog) -> Mapping[str, str]:
        """Building id -> its printed name in this language (from the catalog's data), made once
        per catalog."""
        names = self._names.get(catalog)
        if names is None:
            names = self._names[catalog] = {b.id: b.name_in(self.code) for b in catalog.buildings}
        return names


@cache
def words_for(code: str = DEFAULT_LANGUAGE) -> Words:
    """The shared `Words` of one language."""
    return Words(code)
