"""The room's life around the game, as one viewer sees it: whether the game has started,
what a player may do besides moving (resign, abort, issue a new seat link for the other seat),
how a game that ended early reads, and the room's happenings in the move log.

`life_context` is the part of the board's template context `templates/room_life.html` draws;
`event_lines` tells the room's log entries (`app.services.events`) in the viewer's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from app.reads.positions import TAKEBACK, effective_of, own_moves_to_take_back, takeback_text
from app.reads.roomview import Ending, RoomEventEntry, RoomView
from app.services.ending import may_abort
from app.services.takeback import may_ask_again

from .words import Words


@dataclass(frozen=True)
class RoomLife:
    """What the life controls show one viewer."""

    #: The game has not started (a seat is free): nobody can move yet.
    not_started: bool
    can_resign: bool
    can_abort: bool
    #: The host may issue a new seat link for this seat (a person holds it).
    reissue_seat: int | None
    #: The opponent to move is gone: the viewer may let the computer play for them or claim.
    opponent_gone: bool = False
    #: The seat of the player gone, and whether the game may be claimed (two players only).
    gone_seat: int | None = None
    may_claim: bool = True
    #: The seat the computer plays for while its player is away, and whether it is the viewer's.
    standin_seat: int | None = None
    standin_for_viewer: bool = False
    #: The other seats the computer stands in for (another game's room: several at once).
    standin_others: tuple[int, ...] = ()
    #: The viewer may let the computer play for the player gone.
    may_stand_in: bool = False
    #: How many of their own moves the viewer may ask to take back (0: none, or not now).
    can_take_back: int = 0
    #: The seat whose takeback request is open, and how many moves it would take back.
    takeback_seat: int | None = None
    takeback_count: int = 0
    #: The viewer must still answer the open request.
    takeback_answer: bool = False
    #: The names of the players whose answer the open request still waits for (more than two
    #: seats: each one must accept).
    takeback_waiting: tuple[str, ...] = ()
    #: The viewer may have a new link for their own seat (a room of another game).
    reissue_own: bool = False
    #: The room has more than two seats (its words speak of the other players).
    several: bool = False
    #: How the last happening ended, where the room shows no log of them ("" none).
    news: str = ""


def not_started_text(words: Words) -> str:
    return words.lang.gettext("The game has not started: it starts when both seats are taken.")


def life_context(view: RoomView, words: Words) -> dict[str, Any]:
    """The controls and texts of the room's life for `view`'s viewer."""
    seat = view.viewer_seat
    playing = seat is not None and not view.over
    reissue = None
    if seat is not None and view.facts.host_seat == seat and view.facts.seats_held[1 - seat]:
        reissue = 1 - seat
    gone = (
        playing
        and seat is not None
        and view.started
        and view.facts.computer_seat is None
        and view.state.to_move == 1 - seat
        and view.facts.absent[1 - seat]
    )
    standin = None if view.over else view.facts.standin_seat
    asker = None if view.over else view.facts.takeback_seat
    own = 0
    if playing and seat is not None and view.started and asker is None and _may_ask(view, seat):
        own = takeback_counts(view, seat)
    life = RoomLife(
        not_started=not view.started and not view.over,
        can_resign=playing and view.started,
        can_abort=playing and may_abort(view.version, view.facts.start_moves),
        reissue_seat=reissue,
        opponent_gone=bool(gone),
        gone_seat=1 - seat if gone and seat is not None else None,
        standin_seat=standin,
        standin_for_viewer=standin is not None and standin == seat,
        may_stand_in=bool(gone) and standin is None,
        can_take_back=own,
        takeback_seat=asker,
        takeback_count=0 if asker is None else takeback_counts(view, asker),
        takeback_answer=asker is not None and seat is not None and asker == 1 - seat,
    )
    return {"life": life}


def _may_ask(view: RoomView, seat: int) -> bool:
    """Whether `seat` may still ask for a takeback at this position (`may_ask_again`)."""
    asked = sum(
        1
        for e in view.facts.events
        if e.kind == "takeback_asked" and e.seat == seat and e.at_version == view.version
    )
    return may_ask_again(asked, against_computer=view.facts.computer_seat == 1 - seat)


def takeback_counts(view: RoomView, seat: int) -> int:
    """How many of `seat`'s own moves in force came since the opponent last acted."""
    rows = (
        (
            e.seq,
            e.seat,
            takeback_text(int(e.move["count"])) if e.move.get("type") == TAKEBACK else "",
        )
        for e in view.log
    )
    return own_moves_to_take_back(effective_of(rows), seat, view.facts.start_moves)


def event_line(words: Words, event: RoomEventEntry) -> str:
    """One happening of the room in words."""
    t = words.lang
    player = words.seat_name(event.seat) if event.seat is not None else ""
    if event.kind == "seat_link_reissued":
        # Inland Port's host issues it for the guest; in Le Havre a player for their own seat.
        return t.gettext(
            "%(player)s has a new seat link: the old one no longer works.", player=player
        )
    if event.kind == "resigned":
        return t.gettext("%(player)s resigned.", player=player)
    if event.kind == "aborted":
        return t.gettext("%(player)s aborted the game.", player=player)
    if event.kind == "claimed":
        return t.gettext("%(player)s claimed the game: the opponent left.", player=player)
    if event.kind == "standin_started":
        return t.gettext("The computer plays for %(player)s while they are away.", player=player)
    if event.kind == "standin_ended":
        return t.gettext("%(player)s is back and plays again.", player=player)
    if event.kind == "takeback_asked":
        return t.gettext("%(player)s asked to take back their last actions.", player=player)
    if event.kind == "takeback_declined":
        return t.gettext("%(player)s declined the takeback.", player=player)
    if event.kind == "takeback_accepted":
        return t.gettext("%(player)s accepted the takeback.", player=player)
    return event.kind


#: The room's happenings the board's move log shows, the newest: the review shows them all.
MAX_BOARD_EVENTS = 50


def event_items(view: RoomView, words: Words) -> Mapping[int, Markup]:
    """The room's happenings as move-log items, by the number of moves they came after: on the
    board the newest `MAX_BOARD_EVENTS`, after a pointer to the review for the earlier ones."""
    by_version: dict[int, list[Markup]] = {}
    shown = view.facts.events
    if not view.all_events and len(shown) > MAX_BOARD_EVENTS:
        shown = shown[-MAX_BOARD_EVENTS:]
        more = Markup(
            '<li class="log-entry log-event" id="earlier-events"><p>'
            '<a href="/rooms/{}/review">{}</a></p></li>'
        ).format(view.room_id, words.lang.gettext("Earlier happenings: see the review"))
        by_version[shown[0].at_version] = [more]
    for event in shown:
        item = Markup('<li class="log-entry log-event" data-event="{}"><p>{}</p></li>').format(
            event.kind, escape(event_line(words, event))
        )
        by_version.setdefault(event.at_version, []).append(item)
    # Newest first within a version, as the log reads; joined once (linear in the events).
    return {version: Markup("").join(reversed(found)) for version, found in by_version.items()}


def ending_headline(words: Words, ending: Ending, viewer_seat: int | None) -> str:
    """Why the game ended early, said to the viewer: "Player 1 resigned.", "You resigned."..."""
    t = words.lang
    mine = viewer_seat == ending.seat
    if ending.kind == "resigned":
        if mine:
            return t.gettext("You resigned.")
        return t.gettext("%(player)s resigned.", player=words.seat_name(ending.seat))
    if ending.kind == "claimed":
        return t.gettext("The game was claimed: the opponent left.")
    return t.gettext("The game was aborted: it has no result.")
