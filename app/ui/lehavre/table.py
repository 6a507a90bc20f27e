"""The Le Havre table for one viewer: a position (engine.lehavre.State) -> a frozen tree the
templates draw (templates/lehavre/table.html). Nothing here decides a rule: counts, costs and whose
turn it is come from the state, the catalog and the engine's own functions.

Round 1's supply tiles not reached yet lie face down (docs/le-havre/spec.md, "Summary").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from app.i18n import Language, language
from app.reads.roomview import LogEntry
from app.ui.cache import VERSION_MEMO, Same, SameEntries
from engine.lehavre import State, scores, winners
from engine.lehavre.flow import food_owed, seat_of_turn

from .cards import Card, card
from .feeding import Feeding, feeding
from .words import LeHavreWords, words_for

SEAT_COLOURS = ("red", "blue", "green", "yellow", "purple")
"""The players' colours by seat (static/css/lehavre.css draws each as a custom property)."""


@dataclass(frozen=True, slots=True)
class Counter:
    good: str
    name: str
    count: int
    upgraded: bool


@dataclass(frozen=True, slots=True)
class Offer:
    good: str
    name: str
    amount: int


@dataclass(frozen=True, slots=True)
class Tile:
    index: int
    goods: tuple[str, ...]  # () while face down
    names: str
    interest: bool
    seat: int
    state: str  # "done", "now" or "coming"


@dataclass(frozen=True, slots=True)
class RoundInfo:
    number: int
    total: int
    final: bool
    food: int
    harvest: bool
    town: str
    ship: str
    turns_left: int


@dataclass(frozen=True, slots=True)
class Placed:
    """A building on the table with the workers (seats) standing in it."""

    card: Card
    workers: tuple[int, ...]
    for_sale: bool


@dataclass(frozen=True, slots=True)
class Stack:
    index: int
    top: Placed | None
    count: int


@dataclass(frozen=True, slots=True)
class Pile:
    type: str
    name: str
    count: int
    top: str | None
    value: int | None
    price: str
    capacity: int
    food: int


@dataclass(frozen=True, slots=True)
class ShipHeld:
    id: str
    type: str
    name: str
    value: int
    food: int


@dataclass(frozen=True, slots=True)
class Area:
    seat: int
    name: str
    colour: str
    is_viewer: bool
    is_current: bool
    francs: int
    loans: int
    goods: tuple[Counter, ...]
    buildings: tuple[Placed, ...]
    ships: tuple[ShipHeld, ...]
    food_from_ships: int
    owes: int
    worker_at: str | None
    fortune: int


@dataclass(frozen=True, slots=True)
class Status:
    current: int | None
    headline: str
    detail: str


@dataclass(frozen=True, slots=True)
class Table:
    lang: str
    viewer: int | None
    players: int
    names: tuple[str, ...]  # by seat
    offers: tuple[Offer, ...]
    tiles: tuple[Tile, ...]
    round: RoundInfo
    stacks: tuple[Stack, ...]
    town: tuple[Placed, ...]
    specials_left: int
    piles: tuple[Pile, ...]
    areas: tuple[Area, ...]
    status: Status
    feeding: Feeding | None


def seat_name(t: Language, seat: int, names: Sequence[str] | None) -> str:
    if names and seat < len(names) and names[seat]:
        return names[seat]
    return t.gettext("Player %(num)s", num=seat + 1)


def _workers(st: State, building: str) -> tuple[int, ...]:
    return tuple(seat for seat, p in enumerate(st.players) if p.disc == building)


def _placed(st: State, building: str, lang: str, for_sale: bool) -> Placed:
    return Placed(card(st.catalog, building, lang), _workers(st, building), for_sale)


def _tiles(st: State, w: LeHavreWords) -> tuple[Tile, ...]:
    cat = st.catalog
    by_id = {tile.id: tile for tile in cat.tiles}
    round_no = min(st.round, len(st.cards))
    out = []
    for k, tile_id in enumerate(st.setup.supply_tiles):
        tile = by_id[tile_id]
        state = "done" if k < st.turn - 1 else "now" if k == st.turn - 1 else "coming"
        if st.round > len(st.cards):
            state = "done"
        hidden = st.round == 1 and k >= st.turn
        goods = () if hidden else tuple(cat.names[g] for g in tile.goods)
        out.append(
            Tile(
                index=k,
                goods=goods,
                names=" + ".join(w.good_name(g) for g in goods),
                interest=tile.interest and not hidden,
                seat=seat_of_turn(st, round_no, k),
                state=state,
            )
        )
    return tuple(out)


def _round(st: State, t: Language, w: LeHavreWords) -> RoundInfo:
    total = len(st.cards)
    final = st.round > total
    c = st.cards[min(st.round, total) - 1]
    towns = {
        "standard": t.gettext("a proposed building goes to the town"),
        "special": t.gettext("a special building goes to the town"),
        "none": t.gettext("no building for the town"),
    }
    return RoundInfo(
        number=min(st.round, total),
        total=total,
        final=final,
        food=c.food,
        harvest=c.harvest,
        town=towns[c.town_builds],
        ship=w.ship_type_name(st.catalog.ships[c.ship].type),
        turns_left=0 if final else st.catalog.turns_per_round - st.turn,
    )


def _piles(st: State, w: LeHavreWords) -> tuple[Pile, ...]:
    cat = st.catalog
    out = []
    for ship_type, pile in zip(cat.ship_types, st.piles, strict=True):
        top = pile[0] if pile else None
        out.append(
            Pile(
                type=ship_type.id,
                name=w.ship_type_name(ship_type.id),
                count=len(pile),
                top=top,
                value=cat.ships[top].value if top else None,
                price=w.amount("franc", ship_type.price) if ship_type.price is not None else "—",
                capacity=ship_type.capacity,
                food=ship_type.food.get(st.setup.players, 0),
            )
        )
    return tuple(out)


def _area(st: State, seat: int, viewer: int | None, lang: str, names: Sequence[str] | None) -> Area:
    cat, t, w = st.catalog, language(lang), words_for(lang)
    p = st.players[seat]
    n = st.setup.players
    ships = tuple(
        ShipHeld(
            id=sid,
            type=cat.ships[sid].type,
            name=w.ship_type_name(cat.ships[sid].type),
            value=cat.ships[sid].value,
            food=cat.ship_type(cat.ships[sid].type).food.get(n, 0),
        )
        for sid in p.ships
    )
    goods = tuple(
        Counter(g.id, w.good_name(g.id), p.goods[g.index], g.basic is not None)
        for g in cat.goods
        if p.goods[g.index]
    )
    card_now = st.cards[min(st.round, len(st.cards)) - 1]
    return Area(
        seat=seat,
        name=seat_name(t, seat, names),
        colour=SEAT_COLOURS[seat % len(SEAT_COLOURS)],
        is_viewer=seat == viewer,
        is_current=st.phase != "over" and seat == st.current,
        francs=p.goods[0],
        loans=p.loans,
        goods=goods,
        buildings=tuple(_placed(st, b, lang, False) for b in p.buildings),
        ships=ships,
        food_from_ships=sum(s.food for s in ships),
        owes=food_owed(st, p, card_now) if st.round <= len(st.cards) else 0,
        worker_at=w.building_name(p.disc) if p.disc else None,
        fortune=scores(st)[seat],
    )


def _status(st: State, t: Language, names: Sequence[str] | None) -> Status:
    if st.phase == "over":
        won = t.join([seat_name(t, seat, names) for seat in winners(st)])
        return Status(
            None, t.gettext("The game is over"), t.gettext("Won by %(players)s", players=won)
        )
    who = seat_name(t, st.current, names)
    headlines = {
        "main": t.gettext("%(player)s: main action", player=who),
        "after": t.gettext("%(player)s: main action done", player=who),
        "feed": t.gettext("%(player)s: feeding at the round's end", player=who),
        "final": t.gettext("%(player)s: final action", player=who),
        "final_after": t.gettext("%(player)s: final action done", player=who),
    }
    details = {
        "main": t.gettext("Take an offer or enter a building; buy, sell or repay at any time."),
        "after": t.gettext("Buy, sell or repay, then end the turn."),
        "feed": t.gettext("Pay the food the round demands, or take loans for what is missing."),
        "final": t.gettext("One last action: occupied buildings may be entered too."),
        "final_after": t.gettext("Sell or repay, then end the turn."),
    }
    return Status(st.current, headlines[st.phase], details[st.phase])


def table_context(
    state: State,
    viewer_seat: int | None,
    lang: str,
    names: Sequence[str] | None = None,
    log: Sequence[LogEntry] = (),
) -> Table:
    """The table as ``viewer_seat`` sees it (``None``: a spectator), in language ``lang``;
    ``names`` are the seats' player names (default "Player 1", ...), ``log`` the moves that led
    to ``state`` (the feeding's payments are told from it).

    The viewer changes only the order of the areas (the viewer's first) and which is theirs: the
    rest is made once per position, language, names and log, for all the viewers of a version
    (the hub draws them one after the other from the same position and log entries)."""
    common = _common_table(Same(state), lang, tuple(names or ()), SameEntries(tuple(log)))
    n = common.players
    if viewer_seat is None or not 0 <= viewer_seat < n:
        return common if viewer_seat is None else replace(common, viewer=viewer_seat)
    order = [(viewer_seat + k) % n for k in range(n)]
    areas = tuple(
        replace(common.areas[seat], is_viewer=True) if seat == viewer_seat else common.areas[seat]
        for seat in order
    )
    return replace(common, viewer=viewer_seat, areas=areas)


@lru_cache(maxsize=VERSION_MEMO)
def _common_table(key: Same, lang: str, names: tuple[str, ...], log: SameEntries) -> Table:
    """The table as a spectator sees it (the areas in seat order, none the viewer's)."""
    st: State = key.obj  # type: ignore[assignment]
    t, w = language(lang), words_for(lang)
    cat = st.catalog
    n = st.setup.players
    buyable = st.phase in ("main", "after")
    return Table(
        lang=lang,
        viewer=None,
        players=n,
        names=tuple(seat_name(t, seat, names) for seat in range(n)),
        offers=tuple(
            Offer(cat.names[g], w.good_name(cat.names[g]), amount)
            for g, amount in zip(cat.offer_spaces, st.offers, strict=True)
        ),
        tiles=_tiles(st, w),
        round=_round(st, t, w),
        stacks=tuple(
            Stack(k, _placed(st, s[0], lang, buyable) if s else None, len(s))
            for k, s in enumerate(st.proposals)
        ),
        town=tuple(
            _placed(st, b, lang, buyable and cat.buildings[b].price is not None) for b in st.town
        ),
        specials_left=len(st.specials),
        piles=_piles(st, w),
        areas=tuple(_area(st, seat, None, lang, names) for seat in range(n)),
        status=_status(st, t, names),
        feeding=feeding(st, log.entries, w, [seat_name(t, seat, names) for seat in range(n)]),
    )
