"""The move panel of the player to move: ``legal_moves`` grouped, each group one form.

Nothing legal is hidden and nothing illegal offered: every option is a move the engine listed, in
its canonical text (what the form posts as ``move``), in the engine's order; the first option is
preselected — for a payment, the engine's canonical one, the cheapest tokens first
(docs/le-havre/spec.md, "Payments"). Each option says what it will do before the player confirms:
the move is applied to the position and the mover's holdings compared (paid, gained, built, sold),
so the words can never disagree with the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.i18n import Language, language
from engine.lehavre import Move, State, apply, legal_moves
from engine.lehavre.state import Player

from .cards import Card, card
from .table import seat_name
from .words import LeHavreWords, words_for


@dataclass(frozen=True, slots=True)
class Option:
    move: str  # the canonical JSON text the form posts
    label: str


@dataclass(frozen=True, slots=True)
class Group:
    """One form: a kind of move, maybe about one building, with its options (one or more)."""

    id: str
    kind: str  # take, enter, buy, sell, repay, end, feed
    title: str
    good: str | None
    card: Card | None
    button: str
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class Section:
    kind: str
    title: str
    groups: tuple[Group, ...]


@dataclass(frozen=True, slots=True)
class Panel:
    seat: int
    player: str
    sections: tuple[Section, ...]
    action: str
    version: int


def consequence(st: State, move: Move, t: Language, w: LeHavreWords) -> str:
    """What ``move`` does to its mover's holdings: 'entry: 1 fish · pay 2 wood · get 5 francs ·
    gain Fishery'. An entry fee is said first, and the rest counted from what is left after it."""
    seat = st.current
    before = st.players[seat]
    after = apply(st, move).players[seat]
    cat = st.catalog
    start = list(before.goods)
    for good, n in move.fee:
        start[cat.index[good]] -= n
    pairs = list(enumerate(zip(start, after.goods, strict=True)))
    paid = {cat.names[i]: b - a for i, (b, a) in pairs if b > a}
    got = {cat.names[i]: a - b for i, (b, a) in pairs if a > b}
    parts = [t.gettext("entry: %(goods)s", goods=w.amounts(move.fee))] if move.fee else []
    if paid:
        parts.append(t.gettext("pay %(goods)s", goods=w.amounts(paid)))
    if got:
        parts.append(t.gettext("get %(goods)s", goods=w.amounts(got)))
    parts += _holdings(st, before, after, t, w)
    return " · ".join(parts) or t.gettext("nothing changes in your holdings")


def _holdings(st: State, before: Player, after: Player, t: Language, w: LeHavreWords) -> list[str]:
    """Buildings and ships gained and given up, loans taken and repaid."""
    ships = st.catalog.ships
    parts = [
        t.gettext("gain %(what)s", what=w.building_name(b))
        for b in after.buildings
        if b not in before.buildings
    ]
    parts += [
        t.gettext("gain %(what)s", what=w.ship_type_name(ships[s].type))
        for s in after.ships
        if s not in before.ships
    ]
    parts += [
        t.gettext("give up %(what)s", what=w.building_name(b))
        for b in before.buildings
        if b not in after.buildings
    ]
    parts += [
        t.gettext("give up %(what)s", what=w.ship_type_name(ships[s].type))
        for s in before.ships
        if s not in after.ships
    ]
    diff = after.loans - before.loans
    if diff > 0:
        parts.append(t.ngettext("take %(num)s loan", "take %(num)s loans", diff))
    elif diff < 0:
        parts.append(t.ngettext("repay %(num)s loan", "repay %(num)s loans", -diff))
    return parts


def _enter_label(st: State, move: Move, t: Language, w: LeHavreWords) -> str:
    text = consequence(st, move, t, w)
    if move.target:
        text = f"{w.building_name(move.target)}: {text}"
    if move.reorder:
        text += " · " + t.gettext("swap the top two special buildings")
    return text


def _one(kind: str, key: str, title: str, button: str, move: Move, label: str) -> Group:
    return Group(
        f"lh-move-{kind}-{key}", kind, title, None, None, button, (Option(move.text(), label),)
    )


def _takes(st: State, moves: list[Move], t: Language, w: LeHavreWords) -> tuple[Group, ...]:
    cat = st.catalog
    out = []
    for m in moves:
        offer = m.offer or ""
        amount = st.offers[cat.offer_spaces.index(cat.index[offer])]
        what = w.amount(offer, amount)
        out.append(
            Group(
                f"lh-move-take-{offer}",
                "take",
                what,
                offer,
                None,
                t.gettext("Take %(goods)s", goods=what),
                (Option(m.text(), what),),
            )
        )
    return tuple(out)


def _enters(st: State, moves: list[Move], lang: str) -> tuple[Group, ...]:
    t, w = language(lang), words_for(lang)
    by_building: dict[str, list[Move]] = {}
    for m in moves:
        by_building.setdefault(m.building or "", []).append(m)
    out = []
    for bid, options in by_building.items():
        c = card(st.catalog, bid, lang)
        out.append(
            Group(
                f"lh-move-enter-{bid}",
                "enter",
                c.name,
                None,
                c,
                t.gettext("Enter %(building)s", building=c.name),
                tuple(Option(m.text(), _enter_label(st, m, t, w)) for m in options),
            )
        )
    return tuple(out)


def _trades(
    st: State, moves: list[Move], kind: str, t: Language, w: LeHavreWords
) -> tuple[Group, ...]:
    out = []
    for m in moves:
        if m.building:
            key, name = m.building, w.building_name(m.building)
        else:
            key, name = m.ship or "", w.ship_type_name(st.catalog.ships[m.ship or ""].type)
        button = (
            t.gettext("Buy %(what)s", what=name)
            if kind == "buy"
            else t.gettext("Sell %(what)s", what=name)
        )
        out.append(_one(kind, key, name, button, m, consequence(st, m, t, w)))
    return tuple(out)


def _sections(st: State, lang: str) -> tuple[Section, ...]:
    t, w = language(lang), words_for(lang)
    moves: dict[str, list[Move]] = {}
    for m in legal_moves(st):
        moves.setdefault(m.type, []).append(m)
    sections = []
    if "feed" in moves:
        m = moves["feed"][0]
        feed = _one(
            "feed",
            "food",
            t.gettext("Feed your workers"),
            t.gettext("Feed"),
            m,
            consequence(st, m, t, w),
        )
        sections.append(Section("feed", t.gettext("Feeding at the round's end"), (feed,)))
    if "take" in moves:
        sections.append(
            Section("take", t.gettext("Take an offer"), _takes(st, moves["take"], t, w))
        )
    if "enter" in moves:
        sections.append(
            Section("enter", t.gettext("Enter a building"), _enters(st, moves["enter"], lang))
        )
    if "buy" in moves:
        sections.append(Section("buy", t.gettext("Buy"), _trades(st, moves["buy"], "buy", t, w)))
    if "sell" in moves:
        sections.append(
            Section("sell", t.gettext("Sell"), _trades(st, moves["sell"], "sell", t, w))
        )
    if "repay" in moves:
        m = moves["repay"][0]
        repay = _one(
            "repay",
            "loan",
            t.gettext("Repay a loan"),
            t.gettext("Repay"),
            m,
            consequence(st, m, t, w),
        )
        sections.append(Section("repay", t.gettext("Loans"), (repay,)))
    if "end" in moves:
        end = _one(
            "end",
            "turn",
            t.gettext("End the turn"),
            t.gettext("End the turn"),
            moves["end"][0],
            t.gettext("pass to the next player"),
        )
        sections.append(Section("end", t.gettext("End"), (end,)))
    return tuple(sections)


def panel_context(
    state: State,
    viewer_seat: int | None,
    lang: str,
    *,
    action: str = "",
    version: int = 0,
    names: Sequence[str] | None = None,
) -> Panel | None:
    """The panel of ``viewer_seat`` if it is their move, else ``None``; its forms post to
    ``action`` with the position's ``version``."""
    if state.phase == "over" or viewer_seat != state.current:
        return None
    return Panel(
        seat=viewer_seat,
        player=seat_name(language(lang), viewer_seat, names),
        sections=_sections(state, lang),
        action=action,
        version=version,
    )
