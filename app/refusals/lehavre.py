"""Le Havre's refusals: every code of `engine.lehavre.errors` -> its HTTP status and its sentence.

The engine refuses a move with a code and JSON params (`engine.lehavre.errors`, docs/le-havre/spec.md);
the codes share names with Inland Port's ("cannot_afford", "game_over") but not their params, so Le
Havre has its own table. Both kinds of bad input are 422, as Inland Port's moves; a move after the
end is 403. :func:`sentence` says why, in the viewer's language, with names and amounts in words
(`app.ui.lehavre.words`): "5 food is due; what you offered is worth less."
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from app.i18n import Language
from app.refusals.table import N_, Refusal
from app.ui.lehavre.words import LeHavreWords, words_for
from engine.lehavre import default_catalog
from engine.lehavre.goods import ENERGY, FOOD, values
from engine.lehavre.loader import PLAYER_COUNTS

_PAYMENT_REASONS = ("not_payable", "cannot_afford", "too_little", "overpaid")
"""Why a payment of food, energy or a fee is not one (`engine.lehavre.goods.payment_error`)."""

Choose = Callable[[Language, dict[str, str], Mapping[str, Any]], str]
"""Renders a refusal whose sentence depends on its params: the language, the params put into
words, and the raw params (which thing was refused, a count for the plural)."""


def _move(text: str | Choose) -> Refusal:
    """A move refused by the engine: it is not a move, or not one allowed in this position."""
    return Refusal(422, text)


def _bought(building: str, ship: str) -> Choose:
    """A refusal about a building or a ship, whichever the params name."""

    def choose(t: Language, shown: dict[str, str], params: Mapping[str, Any]) -> str:
        text = building if "building" in params else ship
        return t.gettext(text, **shown)

    return choose


def _cannot_afford(t: Language, shown: dict[str, str], params: Mapping[str, Any]) -> str:
    if "price" in params:
        if "ship" in params:
            return t.gettext("A %(ship)s costs %(price)s; you have fewer francs.", **shown)
        return t.gettext("%(building)s costs %(price)s; you have fewer francs.", **shown)
    if "ship" in params:
        return t.gettext("You lack the materials or the energy to build a %(ship)s.", **shown)
    return t.gettext("You do not have the goods %(building)s takes for that.", **shown)


def _not_a_pile_top(t: Language, shown: dict[str, str], params: Mapping[str, Any]) -> str:
    if params.get("ship") is None:
        return t.gettext("Name the ship to build: the top ship of one of the piles.")
    return t.gettext(
        "That %(ship)s is not on top of its pile: only the top ship of a pile can be built.",
        **shown,
    )


def _fee(reason: str) -> Choose:
    """The entry fee of a building, paid wrongly (``fee_<reason>``)."""
    texts = {
        "not_payable": N_(
            "The entry fee of %(building)s is %(fee)s: it is paid with food goods or francs only."
        ),
        "cannot_afford": N_("You do not hold the entry fee you offered for %(building)s."),
        "too_little": N_("The entry fee of %(building)s is %(fee)s; what you offered is less."),
        "overpaid": N_(
            "The entry fee of %(building)s is %(fee)s; you offered more, and no change is given: "
            "leave out what is not needed."
        ),
    }

    def choose(t: Language, shown: dict[str, str], params: Mapping[str, Any]) -> str:
        if reason == "not_payable" and params.get("food") is None:
            return t.gettext("The entry fee of %(building)s is %(fee)s, in francs only.", **shown)
        return t.gettext(texts[reason], **shown)

    return choose


PAYMENTS: dict[str, str] = {
    "not_payable": N_("%(due)s is due: it is paid with %(payers)s only."),
    "cannot_afford": N_("%(due)s is due; you do not hold what you offered."),
    "too_little": N_("%(due)s is due; what you offered is worth less."),
    "overpaid": N_(
        "%(due)s is due; you offered more, and no change is given: leave out what is not needed."
    ),
}
"""A food or energy payment of an effect, or the feeding, made wrongly (``<food|energy|feed>_…``)."""


SETUP_REASONS: dict[str, str] = {
    "not an object": N_("The game's setup must be a JSON object."),
    "missing": N_("The game's setup is missing '%(field)s'."),
    "unknown field": N_("The game's setup has an unknown field '%(field)s'."),
    "not a list": N_("In the game's setup, '%(field)s' must be a list."),
    "not a list of ids": N_("In the game's setup, '%(field)s' must be a list of ids."),
    "must be 1 to 5": N_("A game of Le Havre is played by %(least)s to %(most)s players."),
    "must be full or short": N_("The game is either the full game or the short game."),
    "must order every supply tile once": N_("The setup must lay out every supply tile once."),
    "must be three stacks": N_("The building proposals are dealt into three stacks."),
    "must hold every proposal building of this game once": N_(
        "The proposal stacks must hold every standard building of this game once."
    ),
    "the stacks must be of equal size": N_("The proposal stacks must be of equal size."),
    "each stack must be sorted by card number, lowest first": N_(
        "Each proposal stack must be sorted by card number, the lowest on top."
    ),
    "names a special building not in this game": N_(
        "The setup draws a special building that is not in this game."
    ),
    "must be a seat number from 0": N_("The first player must be one of the seats (from 0)."),
}
"""The engine's reasons for refusing a setup (``bad_setup``), in words."""

_SPECIALS_DRAWN = re.compile(r"must draw (\d+) different special buildings")


def _bad_setup(t: Language, shown: dict[str, str], params: Mapping[str, Any]) -> str:
    reason = str(params.get("reason", ""))
    drawn = _SPECIALS_DRAWN.fullmatch(reason)
    if drawn:
        return t.ngettext(
            "The setup must draw %(num)s special building.",
            "The setup must draw %(num)s different special buildings.",
            int(drawn.group(1)),
        )
    if reason in SETUP_REASONS:
        players = {"least": t.number(min(PLAYER_COUNTS)), "most": t.number(max(PLAYER_COUNTS))}
        return t.gettext(SETUP_REASONS[reason], **shown, **players)
    return t.gettext("The game's setup is not valid ('%(field)s').", **shown)


MALFORMED: dict[str, Refusal] = {
    "bad_setup": _move(_bad_setup),
    "not_json": _move(N_("Not a move: the text is not valid JSON (%(reason)s).")),
    "not_an_object": _move(N_("Not a move: a move must be a JSON object.")),
    "unknown_move_type": _move(
        N_("Unknown move type %(given)s: a move is take, enter, buy, sell, repay, end or feed.")
    ),
    "unknown_field": _move(N_("The move has an unknown field '%(field)s'.")),
    "missing_field": _move(N_("The move is missing the field '%(field)s'.")),
    "building_or_ship": _move(
        N_("A buy or a sale names either a building or a ship: one of them.")
    ),
    "unknown_building": _move(N_("There is no building %(given)s ('%(field)s').")),
    "unknown_ship": _move(N_("There is no ship %(given)s ('%(field)s').")),
    "unknown_good": _move(N_("There is no good %(given)s ('%(field)s').")),
    "unknown_offer": _move(
        N_("There is no offer space %(given)s ('%(field)s'); the offer spaces are %(spaces)s.")
    ),
    "not_goods": _move(
        N_("'%(field)s' must be an object of goods and counts, such as {\"wood\": 2}.")
    ),
    "not_a_count": _move(
        N_("'%(field)s' must count in whole numbers of 0 or more, not %(given)s.")
    ),
    "not_counts": _move(N_("'%(field)s' must be a list of whole numbers of 0 or more.")),
    "not_a_list": _move(N_("'%(field)s' must be a list of ids.")),
    "not_an_id": _move(N_("'%(field)s' must be an id (a text).")),
    "not_a_flag": _move(N_("'%(field)s' must be true or false.")),
}
"""Why an input is not a move of Le Havre (or not a setup)."""

TURN: dict[str, Refusal] = {
    "game_over": Refusal(403, N_("The game is over.")),
    "must_feed": _move(
        N_("Feed your workers first (you may sell buildings or ships to pay for it).")
    ),
    "not_feeding": _move(N_("There is no one to feed now: workers are fed at the end of a round.")),
    "main_action_done": _move(
        N_(
            "You have made your main action this turn: you may still buy, sell, repay a loan, "
            "or end your turn."
        )
    ),
    "main_action_due": _move(
        N_("Make your main action first: take the goods of an offer space or enter a building.")
    ),
    "no_buying_now": _move(N_("Nothing can be bought in the final turns.")),
    "not_an_offer_space": _move(N_("There is no offer space for %(offer)s.")),
    "empty_offer": _move(N_("The offer space of %(offer)s is empty.")),
    "cannot_repay": _move(N_("Repaying a loan costs %(cost)s: you need a loan and the francs.")),
    "feed_must_pay_everything": _move(
        N_(
            "You owe %(owed)s and cannot pay it all: pay with all your food goods and francs; "
            "loans pay the rest."
        )
    ),
}
"""Why a move is not allowed at this point of the turn or the round."""

MARKET: dict[str, Refusal] = {
    "not_for_sale": _move(
        _bought(
            N_("%(building)s is not for sale: buy a town building or the top of a proposal stack."),
            N_("That %(ship)s is not for sale: only the top ship of each pile is."),
        )
    ),
    "cannot_be_bought": _move(
        _bought(
            N_("%(building)s cannot be bought: it has no price."),
            N_("A %(ship)s cannot be bought: it has no price."),
        )
    ),
    "sold_this_turn": _move(
        _bought(
            N_("You sold %(building)s this turn: it cannot be bought back before the turn ends."),
            N_("You sold that %(ship)s this turn: it cannot be bought back before the turn ends."),
        )
    ),
    "cannot_afford": _move(_cannot_afford),
    "not_yours": _move(
        _bought(N_("You do not own %(building)s."), N_("You do not own that %(ship)s."))
    ),
}
"""Why a building or a ship cannot be bought or sold."""

ENTER: dict[str, Refusal] = {
    "not_built": _move(N_("%(building)s has not been built yet.")),
    "not_enterable": _move(N_("%(building)s cannot be entered: it has no action.")),
    "already_there": _move(
        N_("Your worker already stands in %(building)s: enter another building.")
    ),
    "occupied": _move(
        N_("Another worker stands in %(building)s: it is taken until that worker moves on.")
    ),
    "no_effect": _move(N_("Entering %(building)s this way would change nothing.")),
    "unexpected_choice": _move(N_("%(building)s takes no '%(field)s': leave it out.")),
    "unexpected_payment": _move(N_("Nothing is paid in '%(field)s' here: leave it out.")),
    "fee_not_due": _move(N_("%(building)s has no entry fee for you: leave the fee empty.")),
    **{f"fee_{reason}": _move(_fee(reason)) for reason in _PAYMENT_REASONS},
    "not_a_watch_target": _move(
        N_("The target of %(building)s must be a building where another player's worker stands.")
    ),
    "cannot_compensate": _move(
        N_("Each worker you send home gets %(francs)s from you; you have too few francs.")
    ),
}
"""Why a building cannot be entered, or its fee is wrong."""

EFFECTS: dict[str, Refusal] = {
    "requirement_not_held": _move(
        N_("%(building)s gives its goods only to a player holding %(needs)s.")
    ),
    "no_extra": _move(N_("%(building)s has nothing more to give for energy.")),
    "wrong_goods": _move(
        lambda t, v, p: t.ngettext(
            "Choose %(num)s good at %(building)s.",
            "Choose %(num)s different goods at %(building)s.",
            p["count"],
            **v,
        )
    ),
    "cannot_reorder": _move(
        N_("%(building)s swaps the top two special buildings only while two or more are left.")
    ),
    "wrong_counts": _move(
        lambda t, v, p: t.ngettext(
            "%(building)s takes %(num)s count: how many times to use it, at least once.",
            "%(building)s takes %(num)s counts, one per line of its card, adding up to at "
            "least 1 (to exactly 1 where the card offers a choice).",
            p["lines"],
            **v,
        )
    ),
    "too_many_times": _move(
        lambda t, v, p: t.ngettext(
            "%(building)s can do that at most %(num)s time.",
            "%(building)s can do that at most %(num)s times.",
            p["most"],
            **v,
        )
    ),
    "wrong_build_count": _move(
        lambda t, v, p: t.ngettext(
            "%(building)s builds %(num)s building at a time.",
            "%(building)s builds 1 to %(num)s buildings at a time.",
            p["most"],
            **v,
        )
    ),
    "not_a_proposal_top": _move(
        N_("%(building)s is not on top of a proposal stack: only the top buildings can be built.")
    ),
    "cannot_construct": _move(
        N_("You cannot build %(building)s here: you lack its materials, or this firm cannot.")
    ),
    "not_a_pile_top": _move(_not_a_pile_top),
    "cannot_exchange": _move(N_("That %(ship)s cannot be exchanged here for a card of the town.")),
    "cannot_ship": _move(N_("Ship at least one good, goods only (no francs), from what you hold.")),
    "too_little_capacity": _move(N_("Your ships cannot carry that many goods.")),
    "trade_option_twice": _move(N_("Each trade of %(building)s can be made only once a visit.")),
    "wrong_trade": _move(
        lambda t, v, p: t.ngettext(
            "For what you take at %(building)s, give exactly %(num)s good (no francs).",
            "For what you take at %(building)s, give exactly %(num)s goods (no francs).",
            p["give"],
            **v,
        )
    ),
    "wrong_sale": _move(
        lambda t, v, p: t.ngettext(
            "%(building)s pays 1 franc per upgraded good and per %(num)s standard good: "
            "give at least 1 franc's worth.",
            "%(building)s pays 1 franc per upgraded good and per %(num)s standard goods: "
            "give standard goods in lots of %(num)s, and at least 1 franc's worth.",
            p["per"],
            **v,
        )
    ),
    "no_loans": _move(N_("%(building)s cancels loans, and you have none.")),
    "not_neighbouring_offers": _move(
        N_(
            "%(building)s takes the goods of two neighbouring offer spaces (not the francs), "
            "neither of them empty."
        )
    ),
    **{
        f"{what}_{reason}": _move(PAYMENTS[reason])
        for what in ("food", "energy", "feed")
        for reason in _PAYMENT_REASONS
    },
}
"""Why a building's effect refuses the choices or the payment of a move."""

REFUSALS: dict[str, Refusal] = {**MALFORMED, **TURN, **MARKET, **ENTER, **EFFECTS}
"""Every code of `engine.lehavre.errors`, with its status and its words."""


def status(code: str) -> int:
    """The HTTP status of a Le Havre refusal (``KeyError`` for an unknown code)."""
    return REFUSALS[code].status


def sentence(code: str, params: Mapping[str, Any], lang: str) -> str:
    """A Le Havre refusal in the language ``lang`` ("en", "cs", "pt_BR")."""
    words = words_for(lang)
    text = REFUSALS[code].text
    shown = _values(words, code, params)
    if isinstance(text, str):
        return words.lang.gettext(text, **shown)
    return text(words.lang, shown, params)


def _values(words: LeHavreWords, code: str, params: Mapping[str, Any]) -> dict[str, str]:
    """The params put into words, and what the sentences add from the catalog: the fee of the
    building, the goods that pay food or energy, the offer spaces, what a building requires."""
    shown = {key: _value(words, code, key, value) for key, value in params.items()}
    if "owed" in shown:
        shown["due"] = shown["owed"]
    cat = default_catalog()
    building = cat.buildings.get(params.get("building") or "")
    t = words.lang
    if code.startswith("fee_") and building is not None and building.fee is not None:
        fee = {"food": building.fee.food, "francs": building.fee.franc}
        parts = [words.food(fee["food"]) if fee["food"] else "", words.francs(fee["francs"] or 0)]
        if fee["food"] and fee["francs"] is not None:
            shown["fee"] = t.gettext("%(food)s or %(francs)s", food=parts[0], francs=parts[1])
        else:
            shown["fee"] = parts[0] or parts[1]
    what = ENERGY if code.startswith("energy_") else FOOD
    payers = [cat.names[i] for i, _ in values(cat, what)]
    shown["payers"] = t.join([words.good_name(g) for g in payers])
    shown["spaces"] = t.join([words.good_name(cat.names[i]) for i in cat.offer_spaces])
    if building is not None and "requires" in building.effect:
        shown["needs"] = t.join(
            [words.amount(g, n) for g, n in building.effect["requires"].items()]
        )
    return shown


def _value(words: LeHavreWords, code: str, key: str, value: Any) -> str:
    """One param in words: names for ids, amounts for counts of francs, food and energy."""
    cat = default_catalog()
    if key in ("building", "target") and value in cat.buildings:
        return words.building_name(value)
    if key == "ship" and value in cat.ships:
        return words.ship_name(value)
    if key == "offer" and value in cat.index:
        return words.good_name(value)
    if isinstance(value, int) and not isinstance(value, bool):
        if key in ("price", "francs", "cost"):
            return words.francs(value)
        if key in ("food", "owed") or (key == "due" and not code.startswith("energy_")):
            return words.food(value)
        if key == "due":
            return words.energy(value)
        return words.number(value)
    if key in ("field", "reason", "type") and isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=repr)
