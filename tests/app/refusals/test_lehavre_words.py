"""Le Havre's words: every good, building and ship has a name, and every refusal of the engine reads
in English, Czech and Portuguese, each made by the engine itself from a real position."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from app.i18n import LANGUAGES, language
from app.refusals.lehavre import REFUSALS, SETUP_REASONS, sentence, status
from app.ui.lehavre.words import words_for
from engine.lehavre import (
    IllegalMove,
    MalformedMove,
    Setup,
    State,
    apply,
    default_catalog,
    new_game,
    random_setup,
)
from engine.lehavre.errors import ILLEGAL_CODES, MALFORMED_CODES
from engine.lehavre.state import Player, replace

CAT = default_catalog()
WOODEN = tuple(s.id for s in CAT.ships.values() if s.type == "wooden")[:2]
LINER = next(s.id for s in CAT.ships.values() if s.type == "luxury_liner")
PILES = (WOODEN, (), (), (LINER,))
"""Ship piles by type (wooden, iron, steel, luxury liner): two wooden ships and a luxury liner."""
TRANSLATED = ("cs", "pt_BR")
Case = tuple[str, Callable[[], Any]]
"""A refusal code and how to make the engine refuse with it."""


def goods(**amounts: int) -> tuple[int, ...]:
    vec = [0] * CAT.size
    for name, n in amounts.items():
        vec[CAT.index[name]] = n
    return tuple(vec)


def position(
    mine: dict[str, int] | None = None,
    *,
    buildings: tuple[str, ...] = (),
    ships: tuple[str, ...] = (),
    town: tuple[str, ...] = (),
    disc: str | None = None,
    other_disc: str | None = None,
    loans: int = 0,
    **fields: Any,
) -> State:
    """A two-player full game at seat 0's main action: seat 0 holds ``mine`` (nothing by default),
    owns ``buildings`` and ``ships``; ``town`` joins the town; the discs stand where they are told."""
    state = new_game(random_setup(2, "full", seed=1))
    stacks = tuple(tuple(b for b in s if b not in buildings + town) for s in state.proposals)
    players = (
        Player(goods(**(mine or {})), loans, buildings, ships, disc),
        Player(goods(), 0, (), (), other_disc),
    )
    base = tuple(b for b in state.town if b not in buildings + town) + town
    fields.setdefault("piles", PILES)
    return replace(state, players=players, current=0, proposals=stacks, town=base, **fields)


def entering(building: str, state: State | None = None, **choices: Any) -> Callable[[], Any]:
    """Seat 0 enters ``building`` (from the town, free of fee unless ``choices`` pays one)."""
    where = state or position(town=(building,))
    return lambda: apply(where, {"type": "enter", "building": building, **choices})


def move(state: State, obj: Any) -> Callable[[], Any]:
    return lambda: apply(state, obj)


def malformed_cases() -> Iterator[Case]:
    st = position()
    yield "bad_setup", lambda: Setup.from_json({})
    yield "not_json", move(st, "{")
    yield "not_an_object", move(st, [1])
    yield "unknown_move_type", move(st, {"type": "fly"})
    yield "unknown_field", move(st, {"type": "take", "building": "bank"})
    yield "missing_field", move(st, {"type": "take"})
    yield "building_or_ship", move(st, {"type": "buy"})
    yield "unknown_building", move(st, {"type": "enter", "building": "castle"})
    yield "unknown_ship", move(st, {"type": "buy", "ship": "S99"})
    yield "unknown_good", move(st, {"type": "enter", "building": "bank", "fee": {"gold": 1}})
    yield "unknown_offer", move(st, {"type": "enter", "building": "bank", "offers": ["gold"]})
    yield "not_goods", move(st, {"type": "enter", "building": "bank", "fee": [1]})
    yield "not_a_count", move(st, {"type": "enter", "building": "bank", "fee": {"fish": -1}})
    yield "not_counts", move(st, {"type": "enter", "building": "bank", "counts": "x"})
    yield "not_a_list", move(st, {"type": "enter", "building": "bank", "goods": "fish"})
    yield "not_an_id", move(st, {"type": "take", "offer": 3})
    yield "not_a_flag", move(st, {"type": "enter", "building": "bank", "extra": "yes"})


def turn_cases() -> Iterator[Case]:
    st = position()
    yield "game_over", move(replace(st, phase="over"), {"type": "end"})
    yield "must_feed", move(replace(st, phase="feed"), {"type": "take", "offer": "wood"})
    yield "not_feeding", move(st, {"type": "feed", "payment": {}})
    yield "main_action_done", move(replace(st, phase="after"), {"type": "take", "offer": "wood"})
    yield "main_action_due", move(replace(st, offers=(1,) * len(st.offers)), {"type": "end"})
    yield "no_buying_now", move(replace(st, phase="final"), {"type": "buy", "building": "bank"})
    yield "not_an_offer_space", move(st, {"type": "take", "offer": "coal"})
    yield (
        "empty_offer",
        move(replace(st, offers=(0,) * len(st.offers)), {"type": "take", "offer": "iron"}),
    )
    yield "cannot_repay", move(st, {"type": "repay"})
    hungry = position({"fish": 2}, phase="feed")
    yield "feed_must_pay_everything", move(hungry, {"type": "feed", "payment": {}})
    fed = position({"fish": 10, "wood": 1}, phase="feed")
    yield "feed_not_payable", move(fed, {"type": "feed", "payment": {"wood": 1}})
    yield "feed_cannot_afford", move(fed, {"type": "feed", "payment": {"fish": 20}})
    yield "feed_too_little", move(fed, {"type": "feed", "payment": {"fish": 1}})
    yield "feed_overpaid", move(fed, {"type": "feed", "payment": {"fish": 10}})


def market_cases() -> Iterator[Case]:
    st = position(town=("bank", "church"))
    buried = st.proposals[0][1]
    pile = WOODEN
    yield "not_for_sale", move(st, {"type": "buy", "building": buried})
    yield "not_for_sale", move(st, {"type": "buy", "ship": pile[1]})
    yield "cannot_be_bought", move(st, {"type": "buy", "building": "church"})
    yield "cannot_be_bought", move(st, {"type": "buy", "ship": LINER})
    sold = replace(st, sold=("bank", pile[0]))
    yield "sold_this_turn", move(sold, {"type": "buy", "building": "bank"})
    yield "sold_this_turn", move(sold, {"type": "buy", "ship": pile[0]})
    yield "cannot_afford", move(st, {"type": "buy", "building": "bank"})
    yield "cannot_afford", move(st, {"type": "buy", "ship": pile[0]})
    yield "not_yours", move(st, {"type": "sell", "building": "bank"})
    yield "not_yours", move(st, {"type": "sell", "ship": pile[0]})


def entry_cases() -> Iterator[Case]:
    st = position(town=("bank", "abattoir", "marketplace", "harbour_watch"))
    yield "not_built", move(st, {"type": "enter", "building": st.proposals[0][0]})
    yield "not_enterable", entering("bank", st)
    yield (
        "already_there",
        entering(
            "abattoir",
            replace(st, players=(replace(st.players[0], disc="abattoir"), st.players[1])),
        ),
    )
    yield "occupied", entering("abattoir", position(town=("abattoir",), other_disc="abattoir"))
    yield "no_effect", entering("arts_centre", position(buildings=("arts_centre",)))
    yield "unexpected_choice", entering("building_firm_1", counts=[1])
    yield "unexpected_payment", entering("fishery", energy={"wood": 1})
    yield "fee_not_due", entering("fishery", fee={"franc": 1})
    yield "fee_cannot_afford", entering("abattoir", fee={"franc": 2})
    rich = position({"fish": 5, "wood": 1, "franc": 5}, town=("abattoir", "marketplace"))
    yield "fee_not_payable", entering("abattoir", rich, fee={"fish": 2})
    yield "fee_not_payable", entering("marketplace", rich, fee={"wood": 1})
    yield "fee_too_little", entering("marketplace", rich, fee={"fish": 1})
    yield "fee_overpaid", entering("marketplace", rich, fee={"fish": 3})
    yield "not_a_watch_target", entering("harbour_watch")
    watched = position({"fish": 1}, town=("harbour_watch",), other_disc="building_firm_1")
    yield (
        "cannot_compensate",
        entering("harbour_watch", watched, fee={"fish": 1}, target="building_firm_1"),
    )


def effect_cases() -> Iterator[Case]:
    yield "requirement_not_held", entering("church")
    yield "no_extra", entering("fishery", extra=True)
    yield (
        "wrong_goods",
        entering("marketplace", position(buildings=("marketplace",)), goods=["fish"]),
    )
    yield (
        "cannot_reorder",
        entering(
            "marketplace",
            replace(position(buildings=("marketplace",)), specials=()),
            goods=["fish", "wood"],
            reorder=True,
        ),
    )
    yield "wrong_counts", entering("tavern", counts=[])
    yield (
        "too_many_times",
        entering("tavern", position({"wood": 9, "grain": 9}, town=("tavern",)), counts=[5]),
    )
    yield "cannot_afford", entering("tavern", counts=[1])
    yield "wrong_build_count", entering("building_firm_1", build=[])
    st = position()
    yield "not_a_proposal_top", entering("building_firm_1", st, build=[st.proposals[0][1]])
    yield "cannot_construct", entering("building_firm_1", st, build=[st.proposals[0][0]])
    yield from _ship_cases()
    yield from _trade_cases()


def _ship_cases() -> Iterator[Case]:
    st = position(buildings=("wharf_1", "shipping_line"))
    pile = WOODEN
    yield "not_a_pile_top", entering("wharf_1", st, ship=pile[1])
    yield "not_a_pile_top", entering("wharf_1", st)
    yield "cannot_afford", entering("wharf_1", st, ship=pile[0])
    yield (
        "cannot_exchange",
        entering("wharf_1", position(buildings=("wharf_1",), ships=(pile[0],)), exchange=pile[0]),
    )
    yield "cannot_ship", entering("shipping_line", st, give={})
    small = position({"fish": 9}, buildings=("shipping_line",), ships=(pile[0],))
    yield "too_little_capacity", entering("shipping_line", small, give={"fish": 9})
    baker = position({"grain": 2, "wood": 1, "coal": 1, "fish": 1}, buildings=("bakehouse",))
    yield "energy_not_payable", entering("bakehouse", baker, counts=[2], energy={"fish": 1})
    yield "energy_cannot_afford", entering("bakehouse", baker, counts=[2], energy={"wood": 5})
    yield "energy_too_little", entering("bakehouse", baker, counts=[2], energy={})
    yield "energy_overpaid", entering("bakehouse", baker, counts=[2], energy={"wood": 1, "coal": 1})


def _trade_cases() -> Iterator[Case]:
    trader = position({"fish": 5, "wood": 1}, buildings=("business_office", "coal_trader"))
    office = {"give": {"fish": 2}, "get": ["charcoal", "leather"]}
    yield "trade_option_twice", entering("business_office", trader, **office)
    yield "wrong_trade", entering("business_office", trader, give={}, get=["brick"])
    bridge = position(buildings=("bridge_over_the_seine",))
    yield "wrong_sale", entering("bridge_over_the_seine", bridge, give={"fish": 1})
    yield "no_loans", entering("local_court")
    yield (
        "not_neighbouring_offers",
        entering("haulage_firm", position(buildings=("haulage_firm",)), offers=["fish", "iron"]),
    )
    yield "food_not_payable", entering("coal_trader", trader, counts=[1, 0], food={"wood": 1})
    yield "food_cannot_afford", entering("coal_trader", trader, counts=[1, 0], food={"fish": 9})
    yield "food_too_little", entering("coal_trader", trader, counts=[0, 1], food={"fish": 1})
    yield "food_overpaid", entering("coal_trader", trader, counts=[1, 0], food={"fish": 2})


def cases() -> list[Case]:
    return [
        *malformed_cases(),
        *turn_cases(),
        *market_cases(),
        *entry_cases(),
        *effect_cases(),
    ]


def refused(make: Callable[[], Any]) -> tuple[str, dict[str, Any]]:
    """The code and params of the refusal that ``make`` provokes from the engine."""
    with pytest.raises((IllegalMove, MalformedMove)) as err:
        make()
    return err.value.code, err.value.params


def test_every_engine_code_has_an_entry_and_no_other() -> None:
    assert set(REFUSALS) == MALFORMED_CODES | ILLEGAL_CODES


def test_a_move_after_the_end_is_forbidden_and_every_other_refusal_is_unprocessable() -> None:
    assert {code: status(code) for code in REFUSALS if status(code) != 422} == {"game_over": 403}


def test_the_engine_itself_refuses_with_every_code_here() -> None:
    assert {code for code, _ in cases()} == set(REFUSALS)


@pytest.mark.parametrize(("code", "make"), cases(), ids=[code for code, _ in cases()])
def test_each_refusal_reads_in_every_language(code: str, make: Callable[[], Any]) -> None:
    got, params = refused(make)
    assert got == code, params
    said = {lang: sentence(code, params, lang) for lang in LANGUAGES}
    ids = [v for k, v in params.items() if k in ("building", "ship", "target")]
    for lang, text in said.items():
        assert text and "%(" not in text and ")s" not in text, (lang, text)
        assert not [i for i in ids if isinstance(i, str) and re.search(rf"\b{i}\b", text)], text
    for lang in TRANSLATED:
        assert said[lang] != said["en"], (lang, said[lang])


def test_each_sentence_of_the_table_is_translated() -> None:
    """A text the catalogues miss would fall back to English: every plain sentence has its own."""
    for code, refusal in REFUSALS.items():
        if isinstance(refusal.text, str):
            for lang in TRANSLATED:
                assert language(lang).gettext(refusal.text) != refusal.text, (code, lang)


@pytest.mark.parametrize(
    "setup",
    [
        "not a setup",
        {"players": 2},
        {**random_setup(2).to_json(), "extra": 1},
        {**random_setup(2).to_json(), "proposals": "x"},
        {**random_setup(2).to_json(), "specials": [1]},
        {**random_setup(2).to_json(), "players": 7},
        {**random_setup(2).to_json(), "variant": "long"},
        {**random_setup(2).to_json(), "supply_tiles": []},
        {**random_setup(2).to_json(), "proposals": [[], []]},
        {**random_setup(2).to_json(), "proposals": [[], [], []]},
        {**random_setup(2).to_json(), "specials": []},
        {**random_setup(2).to_json(), "first_player": 2},
    ],
)
def test_each_reason_a_setup_is_refused_has_its_own_words(setup: Any) -> None:
    code, params = refused(lambda: Setup.from_json(setup))
    assert code == "bad_setup"
    generic = {
        lang: language(lang).gettext("The game's setup is not valid ('%(field)s').")
        for lang in LANGUAGES
    }
    for lang in LANGUAGES:
        text = sentence(code, params, lang)
        assert "%(" not in text and not text.startswith(generic[lang].split("(")[0]), text
    known = params["reason"] in SETUP_REASONS or params["reason"].startswith("must draw")
    assert known, params


def names_in(lang: str) -> dict[str, str]:
    """Every good, building, ship type and ship by id, named in ``lang``."""
    words = words_for(lang)
    return {
        **{f"good {g}": words.good_name(g) for g in CAT.names},
        **{b: words.building_name(b) for b in CAT.buildings},
        **{f"type {t.id}": words.ship_type_name(t.id) for t in CAT.ship_types},
        **{s: words.ship_name(s) for s in CAT.ships},
    }


def test_every_good_building_and_ship_type_has_a_name_in_each_language() -> None:
    english = names_in("en")
    ids = set(CAT.buildings) | set(CAT.ships) | {t.id for t in CAT.ship_types} - {"iron", "steel"}
    for lang in LANGUAGES:
        names = names_in(lang)
        assert all(names.values()), lang
        assert not [n for n in names.values() if n in ids or "_" in n], lang
        amounts = [words_for(lang).amount(g, n) for g in CAT.names for n in (0, 1, 2, 5, 21)]
        assert all(a and "%(" not in a for a in amounts), (lang, amounts)
    for lang in TRANSLATED:
        same = {key for key, name in names_in(lang).items() if name == english[key]}
        assert same <= {"zoo"}, (lang, same)


def test_english_names_are_the_catalog_s() -> None:
    words = words_for("en")
    assert {b.id: words.building_name(b.id) for b in CAT.buildings.values()} == {
        b.id: b.name for b in CAT.buildings.values()
    }


def test_amounts_read_the_local_way() -> None:
    en, cs, pt = words_for("en"), words_for("cs"), words_for("pt_BR")
    assert [en.amount("fish", 3), cs.amount("fish", 3), pt.amount("fish", 3)] == [
        "3 fish",
        "3 ryby",
        "3 peixes",
    ]
    assert [cs.amount("smoked_fish", n) for n in (1, 2, 5)] == [
        "1 uzenou rybu",
        "2 uzené ryby",
        "5 uzených ryb",
    ]
    assert [en.amount("brick", 1), en.amount("brick", 2), pt.amount("cattle", 2)] == [
        "1 brick",
        "2 bricks",
        "2 cabeças de gado",
    ]
    assert en.amounts({"leather": 1, "franc": 2, "wood": 3}) == "2 francs, 3 wood, 1 leather"
    assert cs.amounts({}) == "nic"
    assert cs.energy(3) == "3 energie" and cs.food(5) == "5 jídel"
