"""The turn and round flow: the supply step, the end of a turn, the round end and the final stage.

Supply (automatic at the start of every turn of a round): the next tile adds one of each of its two
items to their offer spaces; on the interest tile every player holding a loan pays interest, and a
player who has not the francs takes a loan first. Round end, in the catalog's order: harvest, feeding
(one ``feed`` move per player who owes food, in turn order from the player of the next turn), the
town's building, the new ship. After the last round every player has a final action in turn order.
"""

from __future__ import annotations

from .catalog import FRANC, RoundCard
from .goods import add
from .payments import passive_total
from .state import Player, State, replace


def seat_of_turn(st: State, round_no: int, turn: int) -> int:
    """Turn order continues around the table across rounds."""
    n = st.setup.players
    return (st.setup.first_player + (round_no - 1) * st.catalog.turns_per_round + turn) % n


def food_owed(st: State, player: Player, card: RoundCard) -> int:
    ships = 0
    for sid in player.ships:
        t = st.catalog.ship_type(st.catalog.ships[sid].type)
        ships += t.food.get(st.setup.players, 0)
    return max(0, card.food - ships)


def _interest(st: State) -> State:
    loans = st.catalog.loans
    players = []
    for p in st.players:
        if p.loans:
            goods, count = p.goods, p.loans
            if goods[FRANC] < loans.interest:
                goods, count = add(goods, ((FRANC, loans.francs),)), count + 1
            p = replace(p, goods=add(goods, ((FRANC, -loans.interest),)), loans=count)
        players.append(p)
    return replace(st, players=tuple(players))


def begin_turn(st: State, seat: int) -> State:
    """The supply step of the turn ``st.turn`` of the round, then the main action is due."""
    cat = st.catalog
    tile_id = st.setup.supply_tiles[st.turn]
    tile = next(t for t in cat.tiles if t.id == tile_id)
    offers = list(st.offers)
    for good in tile.goods:
        offers[cat.offer_spaces.index(good)] += 1
    st = replace(st, offers=tuple(offers), turn=st.turn + 1, current=seat, phase="main", sold=())
    return _interest(st) if tile.interest else st


def end_turn(st: State) -> State:
    if st.phase == "final_after":
        return _next_final(st)
    if st.turn < st.catalog.turns_per_round:
        return begin_turn(st, seat_of_turn(st, st.round, st.turn))
    return _round_end(st)


def _harvest(st: State) -> State:
    h = st.catalog.harvest
    cat = st.catalog
    grain, cattle = cat.index["grain"], cat.index["cattle"]
    players = []
    for p in st.players:
        goods = p.goods
        if goods[grain] >= h.grain_min:
            goods = add(goods, ((grain, h.grain_gain),))
        gain = h.cattle_gain if goods[cattle] >= h.cattle_min else 0
        for bid in p.buildings:
            rule = cat.buildings[bid].passive.get("harvest_cattle")
            if rule and rule["min"] <= goods[cattle] <= rule["max"]:
                gain = max(gain, rule["gain"])
        players.append(replace(p, goods=add(goods, ((cattle, gain),))))
    return replace(st, players=tuple(players))


def _round_end(st: State) -> State:
    card = st.cards[st.round - 1]
    if card.harvest:
        st = _harvest(st)
    start = seat_of_turn(st, st.round + 1, 0)
    n = st.setup.players
    order = [(start + k) % n for k in range(n)]
    due = tuple(s for s in order if food_owed(st, st.players[s], card) > 0)
    if due:
        return replace(st, phase="feed", current=due[0], to_feed=due[1:], sold=())
    return finish_round(st)


def next_feed(st: State) -> State:
    if st.to_feed:
        return replace(st, current=st.to_feed[0], to_feed=st.to_feed[1:], sold=())
    return finish_round(replace(st, sold=()))


def _town_builds(st: State, card: RoundCard) -> State:
    if card.town_builds == "special" and st.specials:
        return replace(st, town=(*st.town, st.specials[0]), specials=st.specials[1:])
    if card.town_builds == "standard":
        tops = [
            (st.catalog.buildings[s[0]].number or 0, k) for k, s in enumerate(st.proposals) if s
        ]
        if tops:
            _, k = min(tops)
            stack = st.proposals[k]
            proposals = (*st.proposals[:k], stack[1:], *st.proposals[k + 1 :])
            return replace(st, town=(*st.town, stack[0]), proposals=proposals)
    return st


def finish_round(st: State) -> State:
    """Town building and the new ship, then the next round or the final stage."""
    card = st.cards[st.round - 1]
    st = _town_builds(st, card)
    ship_type = st.catalog.ships[card.ship].type
    k = next(k for k, t in enumerate(st.catalog.ship_types) if t.id == ship_type)
    piles = (*st.piles[:k], (card.ship, *st.piles[k]), *st.piles[k + 1 :])
    st = replace(st, piles=piles, turn=0, to_feed=())
    if st.round < len(st.cards):
        st = replace(st, round=st.round + 1)
        return begin_turn(st, seat_of_turn(st, st.round, 0))
    return _final_stage(st)


def _final_stage(st: State) -> State:
    start = seat_of_turn(st, st.round + 1, 0)
    n = st.setup.players
    finals: list[int] = []
    for k in range(n):
        seat = (start + k) % n
        extra = passive_total(st.catalog, st.players[seat], "final_actions")
        finals += [seat] * max(1, extra)
    return replace(
        st, round=st.round + 1, current=finals[0], finals=tuple(finals[1:]), phase="final", sold=()
    )


def _next_final(st: State) -> State:
    if not st.finals:
        return replace(st, phase="over", sold=())
    return replace(st, current=st.finals[0], finals=st.finals[1:], phase="final", sold=())
