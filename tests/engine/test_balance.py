"""``python -m engine balance``: the report's shape, its figures, and the same report for the same seed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.balance import (
    BalanceSetup,
    GameRecord,
    opening_codes,
    play_games,
    setup_catalog,
)
from engine.balance_report import building_figures, report_lines
from engine.catalogs import load_registry
from engine.cli import main


def tiny_setup(seed: int = 1, catalog_id: str = "provisional-1") -> BalanceSetup:
    entry = load_registry().entry(catalog_id)
    return BalanceSetup(entry.id, entry.hash, entry.data, budget=1, seed=seed)


def record(scores: tuple[int, int], owner: dict[str, int], **counts: dict[str, int]) -> GameRecord:
    return GameRecord(
        index=0,
        opening=0,
        scores=scores,
        built=counts.get("built", {}),
        used=counts.get("used", {}),
        sold=counts.get("sold", {}),
        forced=counts.get("forced", {}),
        owner_at_end=owner,
    )


def test_building_figures_count_games_owners_and_winners() -> None:
    records = [
        record((30, 20), {"zoo": 0}, built={"zoo": 1}, used={"farm": 2}),
        record((20, 30), {"zoo": 0}, built={"zoo": 2}, sold={"zoo": 1}),
        record((25, 25), {"zoo": 1}, built={"zoo": 1}, forced={"zoo": 1}),
        record((10, 30), {}),
    ]
    assert building_figures("zoo", records) == {
        "built": 0.75,
        "uses_per_game": 0.0,
        "sold": 0.25,
        "forced": 0.25,
        "owned_at_end": 0.75,
        "first_owns": 0.5,
        "owner_won": 0.5,  # won, lost, drew
        "winner_owns": 0.25,
    }
    assert building_figures("farm", records)["uses_per_game"] == 0.5
    assert building_figures("farm", records)["owner_won"] is None


def test_openings_are_all_different_up_to_their_number() -> None:
    codes = opening_codes(tiny_setup(), 729)
    assert sorted(codes) == list(range(729))
    assert opening_codes(tiny_setup(), 731)[729:] == codes[:2]
    assert opening_codes(tiny_setup(seed=2), 5) != codes[:5]


@pytest.fixture(scope="module")
def two_games() -> list[GameRecord]:
    return play_games(tiny_setup(), 2, workers=1)


def test_the_report_reads_as_documented(two_games: list[GameRecord]) -> None:
    setup = tiny_setup()
    lines = report_lines(setup, setup_catalog(setup), two_games)
    assert re.fullmatch(
        r"catalog provisional-1 \(sha256 9493fd45a591aaf5\), 2 games, "
        r"strong bots with 1 greedy turns per move, seed 1",
        lines[0],
    )
    assert lines[1] == (
        "openings: the first 6 actions drawn among the 3 best kinds of move (2 different)"
    )
    assert re.fullmatch(
        r"first player: \d+\.\d% \[\d+\.\d%, \d+\.\d%\], mean margin [+-]\d+\.\d", lines[2]
    )
    assert re.fullmatch(
        r"first player: \d won, \d drawn, \d lost; mean score \d+\.\d to \d+\.\d", lines[3]
    )
    assert lines[5].split() == [
        "building", "built", "uses/game", "sold", "forced", "owned", "at", "end",
        "first", "owns", "owner", "won", "winner", "owns",
    ]  # fmt: skip
    rows = lines[6:37]
    assert [row.split()[1] for row in rows] == [b.id for b in setup_catalog(setup).buildings]
    assert all(re.fullmatch(r"[A-L] \w+( +\d+%){1}( +\d+\.\d\d)( +(\d+%|-)){6}", r) for r in rows)
    assert lines[38].startswith("first player within 45%-55%: ")
    assert lines[39].startswith("never built: ")
    assert lines[40].startswith("owned by the winner in more than 90% of games: ")


def test_the_same_seed_gives_the_same_report(
    two_games: list[GameRecord], capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["balance", "--catalog", "provisional-1", "--games", "2", "--budget", "1", "--json"]
    assert main([*args, "--workers", "2"]) == 0
    printed = json.loads(capsys.readouterr().out)
    setup = tiny_setup()
    again = [(r.opening, r.scores, r.owner_at_end) for r in two_games]
    assert again == [(r.opening, r.scores, r.owner_at_end) for r in play_games(setup, 2, workers=1)]
    assert printed["catalog"] == "provisional-1"
    assert printed["games"] == 2 and printed["budget"] == 1 and printed["seed"] == 1
    first = printed["first_player"]
    assert first["won"] + first["drawn"] + first["lost"] == 2
    assert first["mean_scores"] == [sum(r.scores[s] for r in two_games) / 2 for s in (0, 1)]
    assert set(printed["buildings"]) == set(setup_catalog(setup).by_id)


def test_a_catalog_file_or_a_bad_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", "--catalog", "nope", "--games", "1"]) == 1
    assert "unknown catalog 'nope'" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text("{}", encoding="utf-8")
    assert main(["balance", "--catalog", str(broken), "--games", "1"]) == 1
    assert capsys.readouterr().err.startswith(f"{broken}: catalog: ")
