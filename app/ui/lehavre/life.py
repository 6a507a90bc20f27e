"""The room's life around a Le Havre game, as one viewer sees it (templates/room_life.html, the
same controls as Inland Port's, for any number of seats): resign, abort, the computer standing in
for a player gone, a takeback that every other player a person holds must accept and what
happened to the last one, a new link for the viewer's own seat.

Pure presentation: the room's view in, the `RoomLife` value out (`app.ui.roomlife`).
"""

from __future__ import annotations

from app.reads.games import standins_of
from app.reads.roomview import RoomEventEntry, RoomView
from app.services.ending import may_abort
from app.services.takeback import may_ask_again
from app.ui.roomlife import RoomLife, takeback_counts
from app.ui.words import Words
from engine.games import game


def life_of(view: RoomView, words: Words) -> RoomLife:
    """The life controls and texts of a Le Havre room for `view`'s viewer."""
    facts = view.facts
    over = facts.ending is not None or game(facts.game).finished(view.state)
    computers = {seat for seat, _ in facts.computers}
    seat = view.viewer_seat
    started = all(facts.seats_claimed)
    playing = seat is not None and seat not in computers and not over
    asker = None if over else facts.takeback_seat
    own = 0
    if playing and seat is not None and started and asker is None:
        others = _answering(facts.players, computers, seat)
        if _may_ask(view, seat, against_computer=not others):
            own = takeback_counts(view, seat)
    gone = _gone(view, computers) if playing and started else None
    standins = set() if over or facts.standin_seat is None else _standins(view)
    standin = seat if seat in standins else min(standins, default=None)
    waiting: tuple[int, ...] = ()
    if asker is not None:
        accepted = accepted_here(view.facts.events, asker, view.version)
        waiting = tuple(s for s in _answering(facts.players, computers, asker) if s not in accepted)
    return RoomLife(
        not_started=False,
        can_resign=playing and started,
        can_abort=playing and may_abort(view.version, facts.start_moves),
        reissue_seat=None,
        opponent_gone=gone is not None,
        gone_seat=gone,
        may_claim=facts.players == 2,
        standin_seat=standin,
        standin_for_viewer=standin is not None and standin == seat,
        standin_others=tuple(sorted(standins - {standin})),
        may_stand_in=gone is not None and gone not in standins,
        can_take_back=own,
        takeback_seat=asker,
        takeback_count=0 if asker is None else takeback_counts(view, asker),
        takeback_answer=seat in waiting,
        takeback_waiting=tuple(words.seat_name(s) for s in waiting),
        reissue_own=seat is not None and seat not in computers,
        several=facts.players > 2,
        news=_news(view, words),
    )


def _standins(view: RoomView) -> set[int]:
    """The seats the computer stands in for (`app.reads.games.standin_seats`)."""
    return standins_of((e.kind, e.seat) for e in view.facts.events)


def _gone(view: RoomView, computers: set[int]) -> int | None:
    """The player to move, when another person holds the seat and has had no open page for a
    while (`app.services.standin.check_opponent_gone`)."""
    to_move = game(view.facts.game).to_move(view.state)
    if to_move is None or to_move == view.viewer_seat or to_move in computers:
        return None
    return int(to_move) if view.facts.absent[to_move] else None


def _answering(players: int, computers: set[int], asker: int) -> tuple[int, ...]:
    """The seats a person holds, but the asker's (`app.services.takeback.answering_seats`)."""
    return tuple(s for s in range(players) if s != asker and s not in computers)


def accepted_here(events: tuple[RoomEventEntry, ...], asker: int, version: int) -> set[int]:
    """The seats that accepted `asker`'s request asked at `version` (after its latest asking)."""
    accepted: set[int] = set()
    for event in events:
        if event.at_version != version:
            continue
        if event.kind == "takeback_asked" and event.seat == asker:
            accepted = set()
        elif event.kind == "takeback_accepted" and event.seat is not None:
            accepted.add(event.seat)
    return accepted


def _may_ask(view: RoomView, seat: int, *, against_computer: bool) -> bool:
    asked = sum(
        1
        for e in view.facts.events
        if e.kind == "takeback_asked" and e.seat == seat and e.at_version == view.version
    )
    return may_ask_again(asked, against_computer=against_computer)


def _news(view: RoomView, words: Words) -> str:
    """How the last takeback ended, while nothing was played since: taken back or declined."""
    t = words.lang
    last = view.log[-1] if view.log else None
    here = [e for e in view.facts.events if e.at_version == view.version]
    if last is not None and last.move.get("type") == "takeback" and not here:
        return t.ngettext(
            "%(player)s's last action was taken back.",
            "%(player)s's last %(num)s actions were taken back.",
            int(last.move["count"]),
            player=words.seat_name(last.seat),
        )
    if here and here[-1].kind == "takeback_declined" and here[-1].seat is not None:
        return t.gettext("%(player)s declined the takeback.", player=words.seat_name(here[-1].seat))
    return ""
