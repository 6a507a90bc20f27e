"""The two kinds of bad input, both ``ValueError``, each with a stable ``code`` and JSON-ready ``params``.

``MalformedMove``: the input cannot be read as a move at all. ``IllegalMove``: it can be read, but it
is not allowed in this position. ``str(err)`` is the English sentence of :data:`SENTENCES` for the
code, filled in with the params; the web app translates the code itself, in each viewer's language.

Placeholders: ``{building:name}`` is a building id shown by its English name; ``{cost:cost}`` a cost
(``{"clay": 2, "wood": 1}``, ``{"food": 6}`` or ``{"francs": 5}``); ``{have:have}`` what the player
has of the goods that fall short (the same keys); ``{fee:francs}`` a number of francs.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

from .catalog import Catalog, default_catalog

_PAYMENT = "that payment cannot pay for {building:name} ({cost:cost}): "
_USE = "that is not a possible use of {building:name} with N = {n}"

MALFORMED: dict[str, str] = {
    "not_json": "not a move: the text is not valid JSON ({reason})",
    "not_an_object": "not a move: a move must be a JSON object",
    "unknown_move_type": "unknown move type {given!r}: a move is a build, a use, a sell or a pass",
    "missing_building": "a {type} move needs a building id",
    "unknown_building": "unknown building {building!r}",
    "missing_field": "the move is missing the field {field!r}",
    "unknown_field": "the move has an unknown field {field!r}",
    "not_a_whole_number": "{field} must be a whole number, not {given!r}",
    "negative_number": "{field} cannot be negative",
    "unknown_good": "{field} must be one of fish, wood, clay, grain, not {given!r}",
    "goods_not_a_list": "goods must be a list of goods",
    "steps_not_an_object": "steps must be an object of good: count",
    "payment_not_an_object": '{field} must be an object such as {{"clay": {{"left": 2}}}}',
    "displacement_not_an_object": "{field} of {good} must be an object with down and/or left",
    "unknown_displacement_field": "{field} of {good} has an unknown field {name!r}",
    "payments_not_a_list": "payments must be a list of payments",
}
"""Why an input is not a move. ``field`` names the place in the move as the sentence reads it
(``"times"``, ``"down of clay"``, ``"each payment"``); ``given`` is the value found there."""

ILLEGAL: dict[str, str] = {
    "game_over": "the game is over: no more moves can be made",
    "no_move_to_choose": "the game is over: there is no move to choose",
    "sell_not_owned": "you cannot sell {building:name}: you do not own it",
    "cannot_pass": "you cannot pass: you can still build or use a building",
    "already_owned": "you already own {building:name}",
    "owned_by_opponent": "{building:name} belongs to your opponent",
    "not_in_supply": "{building:name} comes into play in round {round}",
    "cannot_afford": "{building:name} costs {cost:cost}; you have {have:have}",
    "francs_payment_not_empty": "{building:name} is paid in francs: its payment must be empty ({{}})",
    "payment_off_board": _PAYMENT + "it would move your {good} counter off the warehouse board",
    "payment_not_food": _PAYMENT + "food is paid with fish and grain, not {good}",
    "payment_too_little_food": _PAYMENT + "it pays {paid} food, not {needed}",
    "payment_too_little": _PAYMENT + "it pays {paid} {good}, not {needed}",
    "payment_gives_change": _PAYMENT
    + "no change is given: a step can be left out and it still pays",
    "payment_invalid": _PAYMENT + "it is not one of the valid payments",
    "not_built": "{building:name} has not been built",
    "no_action": "{building:name} has no function to use",
    "sector_zero": "{building:name} is in sector 0 and cannot be used until it has moved on",
    "cannot_pay_fee": "using your opponent's {building:name} costs {fee:francs}; you have none",
    "use_impossible": _USE,
    "use_takes_no_choices": _USE + ": it takes no choices",
    "use_choose_wood_or_clay": _USE + ": choose wood or clay",
    "use_zero_steps": _USE + ": leave out goods with no steps",
    "use_wrong_step_count": _USE + ": spread exactly {steps} steps, not {given}",
    "use_repeated_good": _USE + ": each good can move only once",
    "use_wrong_goods_count": _USE + ": choose exactly {n} different goods",
    "use_too_many_goods": _USE + ": choose at most {n} different goods",
    "use_good_cannot_move": _USE + ": every chosen good must be able to move down-left",
    "use_too_many_times": _USE + ": at most {n} times",
    "use_too_few_francs": _USE + ": each time costs 1 franc and you would have {francs}",
    "use_choose_fish_or_grain": _USE + ": choose fish or grain",
    "use_cannot_move_down": _USE + ": your {good} counter cannot move down that many times",
    "use_invalid_food_payment": (
        _USE + ": each payment must be a valid food payment of {cover} that your warehouse can make"
    ),
}
"""Why a readable move is not allowed now. ``n`` is the multiplier of the building's sector."""

SENTENCES: dict[str, str] = {**MALFORMED, **ILLEGAL}
"""Every code the engine raises -> its English sentence (``str.format`` with the specs above)."""


class _Sentence(string.Formatter):
    """Fills a sentence in, showing building ids by their names in ``catalog``."""

    def __init__(self, catalog: Catalog | None) -> None:
        self.catalog = catalog

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "name":
            return (self.catalog or default_catalog()).building(value).name
        if format_spec == "francs":
            return _plural(value, "franc")
        if format_spec == "cost":
            return _cost_text(value)
        if format_spec == "have":
            return _have_text(value)
        return str(format(value, format_spec))


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _cost_text(cost: Mapping[str, int]) -> str:
    if "francs" in cost:
        return _plural(cost["francs"], "franc")
    if "food" in cost:
        return f"{cost['food']} food (fish and grain)"
    return " and ".join(f"{amount} {good}" for good, amount in sorted(cost.items(), reverse=True))


def _have_text(have: Mapping[str, int]) -> str:
    if "francs" in have:
        return str(have["francs"])
    return " and ".join(f"{amount} {good}" for good, amount in sorted(have.items()))


def sentence(code: str, params: Mapping[str, Any], catalog: Catalog | None = None) -> str:
    """The English sentence of ``code`` with ``params`` (building names from ``catalog``)."""
    return _Sentence(catalog).format(SENTENCES[code], **params)


class _Refusal(ValueError):
    """A refused input: ``code`` (a key of its table), ``params`` and the English ``str()``."""

    codes: dict[str, str] = SENTENCES

    def __init__(
        self, code: str, params: Mapping[str, Any] | None = None, *, catalog: Catalog | None = None
    ) -> None:
        if code not in self.codes:
            raise KeyError(f"{type(self).__name__} has no code {code!r}")
        self.code = code
        self.params: dict[str, Any] = dict(params or {})
        super().__init__(sentence(code, self.params, catalog))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (type(self), self.code, self.params, str(self)))


def _restore(cls: type[_Refusal], code: str, params: dict[str, Any], text: str) -> _Refusal:
    """Unpickle a refusal with its sentence as it was (its catalog is not pickled)."""
    refusal = cls.__new__(cls)
    ValueError.__init__(refusal, text)
    refusal.code = code
    refusal.params = params
    return refusal


class MalformedMove(_Refusal):
    """The input cannot be read as a move at all (not an object, unknown type or building, bad fields)."""

    codes = MALFORMED


class IllegalMove(_Refusal):
    """The move can be read, but it is not allowed in this position."""

    codes = ILLEGAL
