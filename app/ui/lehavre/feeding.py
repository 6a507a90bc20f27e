"""The round end's feeding as the table tells it: every player in feeding order, what the round
demands of them once their ships have fed them, and what each one paid.

While the feeding goes on (phase ``feed``) the position says who owes what and who is still to
pay; what the paid ones gave comes from their ``feed`` moves in the log, and a payment worth less
than the demand was made up with loans (docs/le-havre/spec.md, "Round end"). After the feeding the
table keeps, for the round that follows, who paid what at the last round end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.reads.roomview import LogEntry
from engine.lehavre import State
from engine.lehavre.flow import food_owed, seat_of_turn
from engine.lehavre.goods import FOOD, values, worth

from .words import LeHavreWords


@dataclass(frozen=True, slots=True)
class FedSeat:
    seat: int
    name: str
    #: "paid", "now" (paying), "waiting" (to pay after the one paying) or "free" (owes nothing).
    state: str
    #: What the demand was and what was paid, in words; once the feeding is over, what was paid
    #: only (the ships, and so the demand, may have changed since).
    said: str


@dataclass(frozen=True, slots=True)
class Feeding:
    round: int  # the round whose end it is
    going_on: bool
    seats: tuple[FedSeat, ...]


def _last_feeds(st: State, log: Sequence[LogEntry]) -> dict[int, dict[str, int]] | None:
    """The payments of the latest round end's feeding by seat, from the log's ``feed`` moves;
    None if the latest round end fed nobody, or is not the one just gone or going on."""
    feeds: dict[int, dict[str, int]] = {}
    ends = 0  # turns ended since the feeding: more than this round's, and it is an older one
    for entry in reversed(log):
        kind = entry.move.get("type")
        if kind == "feed":
            feeds.setdefault(entry.seat, dict(entry.move.get("payment", {})))
        elif kind == "sell":
            continue  # sales are allowed while feeding
        elif feeds or st.phase == "feed":
            break
        elif kind == "end":
            ends += 1
            if ends >= st.turn:
                return None
    return feeds if feeds or st.phase == "feed" else None


def _order(st: State, ending_round: int) -> list[int]:
    """Feeding order: from the player of the next round's first turn."""
    n = st.setup.players
    start = seat_of_turn(st, ending_round + 1, 0)
    return [(start + k) % n for k in range(n)]


def feeding(
    st: State, log: Sequence[LogEntry], w: LeHavreWords, names: Sequence[str]
) -> Feeding | None:
    """The feeding going on or just over (None in the final stage, the first round, or after a
    round end at which every player's ships fed them)."""
    if st.phase not in ("feed", "main", "after") or st.round > len(st.cards):
        return None
    going_on = st.phase == "feed"
    ending_round = st.round if going_on else st.round - 1
    if ending_round < 1:
        return None
    feeds = _last_feeds(st, log)
    if feeds is None:
        return None
    seats = [_fed_seat(st, seat, feeds, going_on, w, names) for seat in _order(st, ending_round)]
    return Feeding(ending_round, going_on, tuple(seats))


def _fed_seat(
    st: State,
    seat: int,
    feeds: dict[int, dict[str, int]],
    going_on: bool,
    w: LeHavreWords,
    names: Sequence[str],
) -> FedSeat:
    t = w.lang
    paid = feeds.get(seat)
    if not going_on:
        if paid is None:
            return FedSeat(seat, names[seat], "free", t.gettext("nothing to pay"))
        said = t.gettext("paid %(goods)s", goods=w.amounts(paid))
        return FedSeat(seat, names[seat], "paid", said)
    owes = w.food(food_owed(st, st.players[seat], st.cards[st.round - 1]))
    if seat == st.current:
        return FedSeat(seat, names[seat], "now", t.gettext("owes %(food)s, paying now", food=owes))
    if seat in st.to_feed:
        return FedSeat(seat, names[seat], "waiting", t.gettext("owes %(food)s", food=owes))
    if paid is None:
        return FedSeat(seat, names[seat], "free", t.gettext("nothing to pay"))
    said = t.gettext("owed %(food)s, paid %(goods)s", food=owes, goods=w.amounts(paid))
    loans = _loans(st, seat, paid)
    if loans:
        said += " " + t.ngettext("and took %(num)s loan", "and took %(num)s loans", loans)
    return FedSeat(seat, names[seat], "paid", said)


def _loans(st: State, seat: int, paid: dict[str, int]) -> int:
    """The loans a feeding payment needed: what it lacked of the demand, in loans."""
    cat = st.catalog
    owed = food_owed(st, st.players[seat], st.cards[st.round - 1])
    given = worth(tuple(paid.get(g, 0) for g in cat.names), values(cat, FOOD))
    return -(-max(0, owed - given) // cat.loans.francs)
