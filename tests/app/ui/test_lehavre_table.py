"""The Le Havre table and move panel (app/ui/lehavre), rendered from seeded random games with
1, 2, 4 and 5 players: every region and player area is drawn with a stable, unique id; the panel
is drawn only for the player to move, and its forms post exactly the legal moves."""

from __future__ import annotations

import random
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest

from app.ui.lehavre.panel import panel_context
from app.ui.lehavre.table import table_context
from app.ui.templates import environment_for
from engine.lehavre import State, apply, legal_moves, new_game, parse_move, random_setup

WEIGHTS = {"enter": 6, "buy": 2, "take": 4, "feed": 10, "sell": 0.3, "repay": 1, "end": 3}
REGIONS = ("lh-status", "lh-offers", "lh-supply", "lh-round", "lh-proposals", "lh-town", "lh-ships")


class Page(HTMLParser):
    """The ids of a page, and each form's moves (a hidden ``move`` or the options of its select)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.forms: list[dict[str, object]] = []
        self._select = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if tag == "form":
            self.forms.append({"id": a.get("id"), "method": a.get("method"), "moves": []})
        elif tag == "select":
            self._select = a.get("name") == "move"
        elif (tag == "input" and a.get("name") == "move" and a.get("type") == "hidden") or (
            tag == "option" and self._select
        ):
            self._moves().append(a["value"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = False

    def _moves(self) -> list[str | None]:
        moves = self.forms[-1]["moves"]
        assert isinstance(moves, list)
        return moves


def positions(players: int, seed: int) -> Iterator[State]:
    """Positions of one seeded game, from its start to its end, every few moves."""
    state = new_game(random_setup(players, seed=seed))
    rng = random.Random(seed)
    last = ""
    for step in range(2000):
        if step % 29 == 0 or (state.phase != last and state.phase not in ("main", "after")):
            yield state
            last = state.phase
        if state.phase == "over":
            return
        options = legal_moves(state)
        state = apply(state, rng.choices(options, [WEIGHTS[m.type] for m in options])[0])
    raise AssertionError("a game of 2,000 moves did not end")


def render(state: State, viewer: int | None, lang: str) -> tuple[str, str]:
    env = environment_for(lang)
    table = env.get_template("lehavre/table.html").render(t=table_context(state, viewer, lang))
    panel = panel_context(state, viewer, lang, action="/rooms/r/moves", version=7)
    drawn = env.get_template("lehavre/panel.html").render(panel=panel) if panel else ""
    return table, drawn


def check_table(state: State, html: str) -> None:
    page = Page(html)
    assert len(page.ids) == len(set(page.ids)), "an id is used twice"
    ids = set(page.ids)
    for region in REGIONS:
        assert region in ids
    for seat in range(state.setup.players):
        assert f"lh-player-{seat}" in ids
    for good in ("franc", "fish", "wood", "clay", "iron", "grain", "cattle"):
        assert f"lh-offer-{good}" in ids
    for k in range(len(state.setup.supply_tiles)):
        assert f"lh-tile-{k}" in ids
    assert page.forms == [], "the table itself offers no move"


def check_panel(state: State, html: str) -> None:
    page = Page(html)
    assert len(page.ids) == len(set(page.ids)), "an id is used twice"
    listed = [m.text() for m in legal_moves(state)]
    offered = []
    for form in page.forms:
        assert form["method"] == "post"
        moves = form["moves"]
        assert isinstance(moves, list) and moves, f"form {form['id']} posts no move"
        offered += moves
    assert sorted(str(m) for m in offered) == sorted(listed), "the panel's moves are the legal ones"
    for text in offered:
        assert parse_move(text).text() == text
    assert len(page.forms) <= 7 + len(state.players[state.current].buildings) + 60


@pytest.mark.parametrize("players, seed", [(1, 1), (2, 2), (4, 4), (5, 5)])
def test_every_position_draws_the_table_and_the_mover_s_panel(players: int, seed: int) -> None:
    seen_phases = set()
    for state in positions(players, seed):
        seen_phases.add(state.phase)
        mover = None if state.phase == "over" else state.current
        for viewer in {mover, (state.current + 1) % players, None}:
            table, panel = render(state, viewer, "en")
            check_table(state, table)
            if viewer is not None and viewer == mover:
                check_panel(state, panel)
            else:
                assert panel == "", "only the player to move gets a panel"
    assert {"main", "over"} <= seen_phases


def test_the_table_in_each_language() -> None:
    state = list(positions(3, 9))[6]
    for lang in ("en", "cs", "pt_BR"):
        table, panel = render(state, state.current, lang)
        check_table(state, table)
        check_panel(state, panel)


def test_the_viewer_s_area_comes_first_and_is_marked() -> None:
    state = new_game(random_setup(4, seed=3))
    t = table_context(state, 2, "en")
    assert [a.seat for a in t.areas] == [2, 3, 0, 1]
    assert [a.is_viewer for a in t.areas] == [True, False, False, False]
    assert table_context(state, None, "en").areas[0].seat == 0


def test_round_one_s_tiles_not_reached_lie_face_down() -> None:
    state = new_game(random_setup(2, seed=4))
    tiles = table_context(state, 0, "en").tiles
    assert tiles[0].goods and tiles[0].state == "now"
    assert all(not tile.goods for tile in tiles[1:])


def test_entering_a_building_says_what_it_costs_and_gives() -> None:
    """An option of entering another's (or the town's) building with a fee starts with the fee
    paid, and says what the effect gives."""
    checked = 0
    for state in positions(2, 6):
        panel = panel_context(state, None if state.phase == "over" else state.current, "en")
        groups = [g for s in panel.sections for g in s.groups] if panel else []
        for g in groups:
            owner = state.owner(g.card.id) if g.card else None
            if g.kind == "enter" and g.card and g.card.fee != "free" and owner != state.current:
                assert all(o.label.startswith("entry: ") for o in g.options), g.options
                assert all(" · " in o.label for o in g.options), g.options
                checked += 1
    assert checked > 3
