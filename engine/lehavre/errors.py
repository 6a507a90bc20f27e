"""The two kinds of bad input, both ``ValueError``, each with a stable ``code`` and JSON-ready ``params``.

``MalformedMove``: the input cannot be read as a move (or a setup) at all. ``IllegalMove``: it can be
read, but it is not allowed in this position. The engine words nothing for players: the web app turns
the code and its params into a sentence in each viewer's language. ``str(err)`` is a debug message.
Every refusal is made by :func:`malformed` or :func:`illegal`, which accept only the codes below.
"""

from __future__ import annotations

from typing import Any

_PAYMENT = ("not_payable", "cannot_afford", "too_little", "overpaid")

MALFORMED_CODES = frozenset(
    {
        "bad_setup",
        "building_or_ship",
        "missing_field",
        "not_a_count",
        "not_a_flag",
        "not_a_list",
        "not_an_id",
        "not_an_object",
        "not_counts",
        "not_goods",
        "not_json",
        "unknown_building",
        "unknown_field",
        "unknown_good",
        "unknown_move_type",
        "unknown_offer",
        "unknown_ship",
    }
)
"""Why an input is not a move (or a setup)."""

ILLEGAL_CODES = frozenset(
    {
        "already_there",
        "cannot_afford",
        "cannot_be_bought",
        "cannot_compensate",
        "cannot_construct",
        "cannot_exchange",
        "cannot_reorder",
        "cannot_repay",
        "cannot_ship",
        "empty_offer",
        "feed_must_pay_everything",
        "fee_not_due",
        "game_over",
        "main_action_done",
        "main_action_due",
        "must_feed",
        "no_buying_now",
        "no_effect",
        "no_extra",
        "no_loans",
        "not_a_pile_top",
        "not_a_proposal_top",
        "not_a_watch_target",
        "not_an_offer_space",
        "not_built",
        "not_enterable",
        "not_feeding",
        "not_for_sale",
        "not_neighbouring_offers",
        "not_yours",
        "occupied",
        "requirement_not_held",
        "sold_this_turn",
        "too_little_capacity",
        "too_many_times",
        "trade_option_twice",
        "unexpected_choice",
        "unexpected_payment",
        "wrong_build_count",
        "wrong_counts",
        "wrong_goods",
        "wrong_sale",
        "wrong_trade",
    }
    | {f"{prefix}_{code}" for prefix in ("fee", "food", "energy", "feed") for code in _PAYMENT}
)
"""Why a readable move is not allowed now (payments: ``<fee|food|energy|feed>_<reason>``)."""


class _Refusal(ValueError):
    kind = "refused"

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params: dict[str, Any] = params
        detail = ", ".join(f"{k}={v!r}" for k, v in sorted(params.items()))
        super().__init__(f"{self.kind}: {code}" + (f" ({detail})" if detail else ""))


class MalformedMove(_Refusal):
    """The input cannot be read as a move (or a setup)."""

    kind = "malformed"


class IllegalMove(_Refusal):
    """The move is well formed but not allowed in this position."""

    kind = "illegal"


def malformed(code: str, **params: Any) -> MalformedMove:
    if code not in MALFORMED_CODES:
        raise AssertionError(f"unknown malformed-move code {code!r}")
    return MalformedMove(code, **params)


def illegal(code: str, **params: Any) -> IllegalMove:
    if code not in ILLEGAL_CODES:
        raise AssertionError(f"unknown illegal-move code {code!r}")
    return IllegalMove(code, **params)
