"""The public API around the rules (docs/engine-api.md) and the catalog as data (SPEC preamble:
no cost, value, rate, round length or board size may be written into code)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from engine_support import player, position

from engine import (
    apply,
    apply_with_events,
    default_catalog,
    from_summary,
    is_finished,
    legal_moves,
    load_catalog,
    new_game,
    parse_move,
    replay,
    summary,
)
from engine.loader import check_buildings_known

ROOT = Path(__file__).resolve().parents[2]


def catalog_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "engine" / "catalog.json").read_text())
    return data


def write_catalog(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps(data))
    return path


def test_default_catalog_is_cached() -> None:
    assert default_catalog() is default_catalog()


def test_catalog_numbers_drive_the_rules(tmp_path: Path) -> None:
    """Start francs 10, the wood company costing 2 clay and worth 9, one action per round."""
    data = catalog_data()
    data["start_francs"] = 10
    for entry in data["buildings"]:
        if entry["id"] == "wood_company":
            entry["cost"] = {"clay": 2}
            entry["value"] = 9
    for entry in data["rounds"]:
        entry["actions"] = 1
    catalog = load_catalog(write_catalog(tmp_path, data))
    state = new_game(catalog)
    start = summary(state)
    assert [p["francs"] for p in start["players"]] == [10, 10]
    assert start["actions_left"] == 1
    texts = [m.canonical for m in legal_moves(state)]
    assert '{"building":"wood_company","payment":{"clay":{"left":2}},"type":"build"}' in texts
    after = apply(state, '{"building":"wood_company","payment":{"clay":{"left":2}},"type":"build"}')
    data_after = summary(after)
    # One action per round: round B now, seat 1 to move, the wood company aged to 1.
    assert (data_after["round"], data_after["to_move"], data_after["turn"]) == ("B", 1, 1)
    assert data_after["players"][0]["buildings"] == {"wood_company": 1}
    assert data_after["scores"] == [10 + 9, 10]
    moves: list[str] = []
    state = after
    while not is_finished(state):
        move = next(m for m in legal_moves(state) if m.type != "sell")
        moves.append(move.canonical)
        state = apply(state, move)
    assert summary(state)["turn"] == 12
    full = ['{"building":"wood_company","payment":{"clay":{"left":2}},"type":"build"}', *moves]
    assert summary(replay(full, catalog)) == summary(state)
    assert summary(from_summary(summary(state), catalog)) == summary(state)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.pop("buildings"),
        lambda d: d.pop("rounds"),
        lambda d: d["buildings"][0].update(cost={"gold": 1}),
        lambda d: d["buildings"][0].update(cost={"clay": -1}),
        lambda d: d["warehouse"].update(rows="six"),
    ],
    ids=["no-buildings", "no-rounds", "unknown-good", "negative-cost", "rows-not-a-number"],
)
def test_load_catalog_rejects_bad_data(tmp_path: Path, mutate: Any) -> None:
    data = catalog_data()
    mutate(data)
    with pytest.raises(ValueError):
        load_catalog(write_catalog(tmp_path, data))


def test_load_catalog_rejects_a_building_the_rules_do_not_know(tmp_path: Path) -> None:
    data = catalog_data()
    old = data["buildings"][0]["id"]
    data["buildings"][0]["id"] = "lighthouse"
    for names in (data["names_cs"], data["names_pt"]):
        names["lighthouse"] = names.pop(old)
    with pytest.raises(ValueError, match="the rules know no building 'lighthouse'"):
        load_catalog(write_catalog(tmp_path, data))


def test_the_rules_know_every_building_of_the_bundled_catalog() -> None:
    """The bundled catalog is read without the rules (no import circle): checked here instead."""
    assert check_buildings_known(default_catalog()) is default_catalog()


def test_load_catalog_rejects_a_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "catalog.json"
    path.write_text("{ not json")
    with pytest.raises(ValueError):
        load_catalog(path)


def test_apply_accepts_move_dict_and_text() -> None:
    text = '{"building":"farmland","payment":{},"type":"build"}'
    results = {
        json.dumps(summary(apply(new_game(), given)), sort_keys=True)
        for given in (text, json.loads(text), parse_move(text))
    }
    assert len(results) == 1


def test_game_state_attributes() -> None:
    state = position(
        player(4, {"fish": (1, 2)}, {"kiln": 2}),
        player(6, {}, {"town_hall": None}),
        turn=31,
    )
    assert (state.turn, state.to_move, state.round_index, state.round_letter) == (31, 1, 7, "H")
    assert state.actions_left == 7
    me = state.players[0]
    assert (me.francs, tuple(me.goods["fish"])) == (4, (1, 2))
    assert dict(me.buildings) == {"kiln": 2}
    assert dict(state.players[1].buildings) == {"town_hall": None}
    assert (state.owner("kiln"), state.owner("town_hall"), state.owner("farm")) == (0, 1, None)
    assert list(state.supply) == summary(state)["supply"]


def test_state_amount() -> None:
    """docs/engine-api.md: GameState.amount(seat, good) -> goods on the counter's cell (3 x row + col)."""
    state = position(player(4, {"fish": (1, 2), "wood": (5, 5)}))
    assert [state.amount(0, g) for g in ("fish", "wood", "clay", "grain")] == [5, 20, 3, 1]


def test_events_of_build_sell_pass_and_round_end() -> None:
    """Round A, turn 2 (seat 0, last action of the round): sell, then build the wood company."""
    state = position(player(3, {}, {"farmland": 0}), player(3), turn=2)
    state, sold = apply_with_events(state, {"type": "sell", "building": "farmland"})
    assert [e.to_json() for e in sold] == [
        {"kind": "sell", "seat": 0, "building": "farmland", "francs": 1}
    ]
    move = '{"building":"wood_company","payment":{"clay":{"left":1}},"type":"build"}'
    state, events = apply_with_events(state, move)
    kinds = [e.kind for e in events]
    assert kinds[0] == "build"
    assert "round_end" in kinds
    built = events[0].to_json()
    assert (built["seat"], built["building"]) == (0, "wood_company")
    assert built["payment"] == {"clay": {"left": 1}}
    assert built["paid"] == {"clay": 1}
    ended = next(e.to_json() for e in events if e.kind == "round_end")
    assert (ended["round"], ended["next_round"]) == ("A", "B")


def test_pass_event() -> None:
    nothing = {g: (0, 0) for g in ("fish", "clay", "wood", "grain")}
    state = position(player(0, nothing))
    _after, events = apply_with_events(state, {"type": "pass"})
    assert [e.to_json() for e in events] == [{"kind": "pass", "seat": 0}]


def test_missing_cells_from_the_catalog(tmp_path: Path) -> None:
    """A catalog board without cell (1,2): a gain onto it is lost, a payment cannot end on it."""
    data = catalog_data()
    data["warehouse"]["missing_cells"] = [[1, 2]]
    catalog = load_catalog(write_catalog(tmp_path, data))
    seat0 = player(3, {"grain": (0, 1), "wood": (1, 4)}, {"farm": 1})
    state = from_summary({"turn": 64, "players": [seat0, player(3)]}, catalog)
    # farm at age 1: grain UR x1 from (0,1) onto (1,2): lost.
    after = summary(apply(state, '{"building":"farm","type":"use"}'))
    assert after["players"][0]["goods"]["grain"] == [0, 1]
    # kiln costs 2 wood: L2 from (1,4) would end on (1,2); D1 ends on (0,4).
    builds = {m.canonical for m in legal_moves(state) if m.building == "kiln"}
    assert '{"building":"kiln","payment":{"wood":{"down":1}},"type":"build"}' in builds
    assert '{"building":"kiln","payment":{"wood":{"left":2}},"type":"build"}' not in builds


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["players"][0]["goods"].update(fish=[6, 0]),
        lambda d: d["players"][0]["goods"].update(fish=[0, -1]),
        lambda d: d["players"][0].update(francs=-1),
        lambda d: d["players"][0]["buildings"].update(castle=0),
        lambda d: d["players"][0]["buildings"].update(kiln=5),
        lambda d: d["players"][0]["buildings"].update(kiln=None),
        lambda d: d["players"][0]["buildings"].update(town_hall=2),
        lambda d: (
            d["players"][0]["buildings"].update(kiln=1),
            d["players"][1]["buildings"].update(kiln=1),
        ),
        lambda d: d.update(turn=73),
        lambda d: d.update(turn=-1),
        lambda d: d["players"].pop(),
    ],
    ids=[
        "row-off-board",
        "negative-column",
        "negative-francs",
        "unknown-building",
        "age-5",
        "wheel-building-without-age",
        "locked-building-with-age",
        "owned-twice",
        "turn-73",
        "turn-negative",
        "one-player",
    ],
)
def test_from_summary_rejects_impossible_positions(change: Any) -> None:
    """Bad input gets a clear error: a ValueError, never a position that cannot exist."""
    data = {"turn": 64, "players": [player(3), player(3)]}
    change(data)
    with pytest.raises(ValueError):
        from_summary(data)
