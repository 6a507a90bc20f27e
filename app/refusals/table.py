"""Every refusal code with its HTTP status and its words: the engine's, the services' and the game
records'. `app.refusals.answers` puts them into a viewer's language and into the JSON API's answers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.i18n import Language

Plural = Callable[[Language, dict[str, str], Mapping[str, Any]], str]
"""Renders a refusal whose sentence has a plural form: the language, the params put into words, and
the raw params (the count)."""


def N_(message: str) -> str:
    """Marks a text for the catalogues; it is translated when a refusal is shown."""
    return message


@dataclass(frozen=True)
class Refusal:
    status: int
    """The HTTP status of a request refused with this code, from the API or a page."""
    text: str | Plural
    """The sentence (a catalogue text with ``%(param)s`` placeholders), or how to pick its plural."""


def _move(text: str | Plural) -> Refusal:
    """A move refused by the engine: it is not a move, or not one allowed in this position."""
    return Refusal(422, text)


REFUSALS: dict[str, Refusal] = {
    # --- the engine: input that is not a move ---------------------------------------------------
    "not_json": _move(N_("Not a move: the text is not valid JSON (%(reason)s).")),
    "not_an_object": _move(N_("Not a move: a move must be a JSON object.")),
    "unknown_move_type": _move(
        N_("Unknown move type %(given)s: a move is a build, a use, a sell or a pass.")
    ),
    "missing_building": _move(N_("A %(type)s move needs a building id.")),
    "unknown_building": _move(N_("Unknown building %(building)s.")),
    "missing_field": _move(N_("The move is missing the field '%(field)s'.")),
    "unknown_field": _move(N_("The move has an unknown field '%(field)s'.")),
    "not_a_whole_number": _move(N_("%(field)s must be a whole number, not %(given)s.")),
    "negative_number": _move(N_("%(field)s cannot be negative.")),
    "unknown_good": _move(N_("%(field)s must be one of fish, wood, clay, grain, not %(given)s.")),
    "goods_not_a_list": _move(N_("goods must be a list of goods.")),
    "steps_not_an_object": _move(N_("steps must be an object of good: count.")),
    "payment_not_an_object": _move(
        N_('%(field)s must be an object such as {"clay": {"left": 2}}.')
    ),
    "displacement_not_an_object": _move(
        N_("%(field)s of %(good)s must be an object with down and/or left.")
    ),
    "unknown_displacement_field": _move(
        N_("%(field)s of %(good)s has an unknown field '%(name)s'.")
    ),
    "payments_not_a_list": _move(N_("payments must be a list of payments.")),
    # --- the engine: a move not allowed now -----------------------------------------------------
    "game_over": Refusal(403, N_("The game is over.")),
    "no_move_to_choose": Refusal(409, N_("The game is over: there is no move to choose.")),
    "sell_not_owned": _move(N_("You cannot sell %(building)s: you do not own it.")),
    "cannot_pass": _move(N_("You cannot pass: you can still build or use a building.")),
    "already_owned": _move(N_("You already own %(building)s.")),
    "owned_by_opponent": _move(N_("%(building)s belongs to your opponent.")),
    "not_in_supply": _move(N_("%(building)s comes into play in round %(round)s.")),
    "cannot_afford": _move(N_("%(building)s costs %(cost)s; you have %(have)s.")),
    "francs_payment_not_empty": _move(
        N_("%(building)s is paid in francs: its payment must be empty ({}).")
    ),
    "payment_off_board": _move(
        N_(
            "That payment cannot pay for %(building)s (%(cost)s): it would move your %(good)s "
            "counter off the warehouse board."
        )
    ),
    "payment_not_food": _move(
        N_(
            "That payment cannot pay for %(building)s (%(cost)s): food is paid with fish and "
            "grain, not %(good)s."
        )
    ),
    "payment_too_little_food": _move(
        N_("That payment cannot pay for %(building)s (%(cost)s): it pays %(paid)s, not %(needed)s.")
    ),
    "payment_too_little": _move(
        N_("That payment cannot pay for %(building)s (%(cost)s): it pays %(paid)s, not %(needed)s.")
    ),
    "payment_gives_change": _move(
        N_(
            "That payment cannot pay for %(building)s (%(cost)s): no change is given, a step can "
            "be left out and it still pays."
        )
    ),
    "payment_invalid": _move(
        N_(
            "That payment cannot pay for %(building)s (%(cost)s): it is not one of the valid "
            "payments."
        )
    ),
    "not_built": _move(N_("%(building)s has not been built.")),
    "no_action": _move(N_("%(building)s has no action: it is worth points at the end.")),
    "sector_zero": _move(
        N_("%(building)s is in sector 0 (just built or used): it can be used after this round.")
    ),
    "cannot_pay_fee": _move(N_("Using your opponent's %(building)s costs %(fee)s; you have none.")),
    "use_impossible": _move(
        N_("That is not a possible use of %(building)s with N = %(multiplier)s.")
    ),
    "use_takes_no_choices": _move(
        N_(
            "That is not a possible use of %(building)s with N = %(multiplier)s: it takes no choices."
        )
    ),
    "use_choose_wood_or_clay": _move(
        N_(
            "That is not a possible use of %(building)s with N = %(multiplier)s: choose wood or clay."
        )
    ),
    "use_zero_steps": _move(
        N_(
            "That is not a possible use of %(building)s with N = %(multiplier)s: leave out goods with no "
            "steps."
        )
    ),
    "use_wrong_step_count": _move(
        lambda t, v, p: t.ngettext(
            "That is not a possible use of %(building)s with N = %(multiplier)s: spread exactly %(num)s "
            "step, not %(given)s.",
            "That is not a possible use of %(building)s with N = %(multiplier)s: spread exactly %(num)s "
            "steps, not %(given)s.",
            p["steps"],
            **v,
        )
    ),
    "use_repeated_good": _move(
        N_(
            "That is not a possible use of %(building)s with N = %(multiplier)s: each good can move only "
            "once."
        )
    ),
    "use_wrong_goods_count": _move(
        lambda t, v, p: t.ngettext(
            "That is not a possible use of %(building)s with N = %(multiplier)s: choose exactly %(num)s "
            "different good.",
            "That is not a possible use of %(building)s with N = %(multiplier)s: choose exactly %(num)s "
            "different goods.",
            p["n"],
            **v,
        )
    ),
    "use_too_many_goods": _move(
        lambda t, v, p: t.ngettext(
            "That is not a possible use of %(building)s with N = %(multiplier)s: choose at most %(num)s "
            "different good.",
            "That is not a possible use of %(building)s with N = %(multiplier)s: choose at most %(num)s "
            "different goods.",
            p["n"],
            **v,
        )
    ),
    "use_good_cannot_move": _move(
        N_(
            "That is not a possible use of %(building)s with N = %(multiplier)s: every chosen good must "
            "be able to move down-left."
        )
    ),
    "use_too_many_times": _move(
        lambda t, v, p: t.ngettext(
            "That is not a possible use of %(building)s with N = %(multiplier)s: at most %(num)s time.",
            "That is not a possible use of %(building)s with N = %(multiplier)s: at most %(num)s times.",
            p["n"],
            **v,
        )
    ),
    "use_too_few_francs": _move(
        N_(
            "That is not a possible use of %(building)s with N = %(multiplier)s: each time costs 1 franc "
            "and you would have %(francs)s."
        )
    ),
    "use_choose_fish_or_grain": _move(
        N_(
            "That is not a possible use of %(building)s with N = %(multiplier)s: choose fish or grain."
        )
    ),
    "use_cannot_move_down": _move(
        N_(
            "That is not a possible use of %(building)s with N = %(multiplier)s: your %(good)s counter "
            "cannot move down that many times."
        )
    ),
    "use_invalid_food_payment": _move(
        N_(
            "That is not a possible use of %(building)s with N = %(multiplier)s: each payment must be a "
            "valid payment of %(cover)s that your warehouse can make."
        )
    ),
    # --- the services -----------------------------------------------------------------------------
    "stale_version": Refusal(
        409,
        N_(
            "The board changed before your move arrived: look at the new position and choose again."
        ),
    ),
    "not_your_turn": Refusal(403, N_("It is not your turn.")),
    "not_a_player": Refusal(403, N_("Only a player of this room can do that.")),
    "needs_token": Refusal(401, N_("This needs a room token: Authorization: Bearer <token>.")),
    "invalid_request": Refusal(
        422, N_("This request is not valid: its parameters or its body are not what it takes.")
    ),
    "too_many_rooms": Refusal(
        429, N_("Too many new rooms from this address: try again in %(retry_after)s s.")
    ),
    "wrong_token": Refusal(403, N_("This token does not open this room.")),
    "room_not_found": Refusal(404, N_("There is no such room.")),
    "invalid_link": Refusal(404, N_("This link is not valid.")),
    "seat_taken": Refusal(409, N_("This invite was already used: the seat is taken.")),
    "busy": Refusal(503, N_("The server is too busy to answer right now. Try again in a moment.")),
    "analyses_busy": Refusal(
        503, N_("Many games are being analysed right now. Try again in a few minutes.")
    ),
    "too_many_analyses": Refusal(
        429, N_("Too many analyses asked for from this address: try again in %(retry_after)s s.")
    ),
    "invite_closed": Refusal(409, N_("This game has ended, so the invite no longer takes a seat.")),
    "rematch_refused": Refusal(409, N_("A rematch can only be asked for once the game is over.")),
    "not_analysable": Refusal(409, N_("The game can be analysed once it is over.")),
    "not_in_this_game": Refusal(
        409, N_("Le Havre rooms do not offer this yet: it is there for Inland Port's rooms.")
    ),
    "unknown_catalog": Refusal(422, N_("This server has no catalog named “%(catalog)s”.")),
    "catalog_missing": Refusal(
        409,
        N_(
            "This room is played with the numbers of the catalog “%(catalog)s”, which this server "
            "does not have (or has in another version)."
        ),
    ),
    "client_move_id_reused": Refusal(409, N_("This id was used for another move.")),
    "not_the_host": Refusal(403, N_("Only the host of the room can issue a new seat link.")),
    "too_many_reissues": Refusal(
        409, N_("This room's link was given anew %(limit)s times already: no more.")
    ),
    "no_seat_to_reissue": Refusal(
        409, N_("Nobody holds the other seat: there is no seat link to issue again.")
    ),
    "seat_played_by_computer": Refusal(
        409, N_("The computer plays this seat now: it has no seat link to issue again.")
    ),
    "not_started": Refusal(
        409, N_("The game has not started: it starts when both seats are taken.")
    ),
    "not_absent": Refusal(
        409,
        N_(
            "Your opponent is not gone: only when the player to move has had no open page "
            "for a while can you claim the game or let the computer play for them."
        ),
    ),
    "standin_playing": Refusal(
        409, N_("The computer is playing for this seat: its player must take over first.")
    ),
    "no_standin": Refusal(409, N_("The computer is not playing for you.")),
    "takeback_pending": Refusal(409, N_("A takeback request is already waiting for an answer.")),
    "takeback_asked_already": Refusal(
        409, N_("You already asked to take these actions back: play on, or ask after the next one.")
    ),
    "nothing_to_take_back": Refusal(
        409, N_("There is nothing to take back: another player acted after your last action.")
    ),
    "no_takeback": Refusal(409, N_("There is no takeback request for you to answer.")),
    "takeback_answered": Refusal(
        409, N_("You already accepted this takeback: it waits for the other players.")
    ),
    "claim_needs_two": Refusal(
        409,
        N_(
            "With more than two players nobody claims the game: let the computer play for "
            "the absent player instead."
        ),
    ),
    "cannot_abort": Refusal(
        409, N_("The game can only be aborted before anyone has taken an action.")
    ),
    "bad_client_move_id": Refusal(
        422,
        lambda t, v, p: t.ngettext(
            "client_move_id must be 1 to %(num)s character long, with no control characters.",
            "client_move_id must be 1 to %(num)s characters long, with no control characters.",
            p["max_length"],
        ),
    ),
    # --- the chat (app.services.chat) -----------------------------------------------------------
    "unknown_chat": Refusal(
        422, N_("There is no such chat: write in the players' or the spectators' chat.")
    ),
    "chat_not_yours": Refusal(
        403,
        N_(
            "You cannot write here: the players' chat is for the two players, the spectators' "
            "chat for the spectators."
        ),
    ),
    "chat_empty": Refusal(422, N_("The message is empty: write something first.")),
    "chat_too_long": Refusal(
        422,
        lambda t, v, p: t.ngettext(
            "A message has at most %(num)s character.",
            "A message has at most %(num)s characters.",
            p["max_length"],
        ),
    ),
    "chat_too_fast": Refusal(
        429,
        N_(
            "Too many messages: at most %(limit)s in %(seconds)s seconds. Wait a moment, then "
            "send it again."
        ),
    ),
    "chat_closed": Refusal(403, N_("This room has no chat: it is the review of an imported game.")),
    "chat_host_only": Refusal(
        403, N_("Only the host, the player who opened the room, can change this.")
    ),
    # --- game records (engine.record.RecordError; the line comes apart: record_sentence) ----------
    "too_large": Refusal(422, N_("The record is too large.")),
    "syntax": Refusal(422, N_("This line is neither JSON nor the record notation.")),
    "shape": Refusal(422, N_("A part of the record is missing or has the wrong form.")),
    "catalog": Refusal(422, N_("The record was played with other numbers (another catalog).")),
    "malformed_move": Refusal(422, N_("A move on this line cannot be read.")),
    "illegal_move": Refusal(422, N_("A move on this line is not legal at that point of the game.")),
    "result": Refusal(422, N_("The result does not match the moves.")),
    "setup": Refusal(422, N_("The game's setup (its shuffled tiles and buildings) is not valid.")),
}
"""Every refusal code, the engine's, the services' and the game records', with its status and
words."""

SERVICE: tuple[str, ...] = (
    "stale_version",
    "not_your_turn",
    "game_over",
    "not_a_player",
    "needs_token",
    "invalid_request",
    "too_many_rooms",
    "wrong_token",
    "room_not_found",
    "invalid_link",
    "seat_taken",
    "invite_closed",
    "rematch_refused",
    "bad_client_move_id",
    "client_move_id_reused",
    "not_analysable",
    "not_the_host",
    "no_seat_to_reissue",
    "too_many_reissues",
    "seat_played_by_computer",
    "not_started",
    "cannot_abort",
    "not_absent",
    "standin_playing",
    "no_standin",
    "claim_needs_two",
    "takeback_pending",
    "takeback_asked_already",
    "nothing_to_take_back",
    "no_takeback",
    "takeback_answered",
    "unknown_chat",
    "chat_not_yours",
    "chat_empty",
    "chat_too_long",
    "chat_too_fast",
    "chat_host_only",
    "chat_closed",
    "unknown_catalog",
    "catalog_missing",
    "busy",
    "analyses_busy",
    "not_in_this_game",
    "too_many_analyses",
)
"""The codes the services raise (``game_over`` is the engine's too); params: ``stale_version``
``{"current_version": int}``, ``bad_client_move_id`` and ``chat_too_long`` ``{"max_length": int}``,
``chat_too_fast`` ``{"limit": int, "seconds": int, "retry_after": int}``, ``unknown_catalog`` and
``catalog_missing`` ``{"catalog": str}``, ``too_many_analyses`` ``{"retry_after": int}``, the
others none. ``busy`` is raised at the edge
(`app.main`) when the database cannot be reached or has no connection free: 503 with
``Retry-After``."""
