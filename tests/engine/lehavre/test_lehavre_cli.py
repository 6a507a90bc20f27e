"""``python -m engine lehavre``: replay, legal, selfplay and bench, and Inland Port untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main


def test_selfplay_writes_games_that_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            ["lehavre", "selfplay", "--players", "2", "--variant", "short", "--out", str(tmp_path)]
        )
        == 0
    )
    [game] = list(tmp_path.glob("*.json"))
    capsys.readouterr()
    assert main(["lehavre", "replay", str(game)]) == 0
    final = json.loads(capsys.readouterr().out)
    assert final["phase"] == "over" and final["winners"]
    data = json.loads(game.read_text())
    data["moves"] = data["moves"][:3]
    game.write_text(json.dumps(data))
    assert main(["lehavre", "legal", str(game)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(json.loads(line)["type"] for line in lines)
    assert main(["lehavre", "replay", "--trace", str(game)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 4


def test_a_refused_move_exits_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["lehavre", "selfplay", "--out", str(tmp_path)]) == 0
    [game] = list(tmp_path.glob("*.json"))
    data = json.loads(game.read_text())
    data["moves"] = [{"type": "end"}]
    game.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["lehavre", "replay", str(game)]) == 1
    err = capsys.readouterr().err
    assert "move 0" in err and "main_action_due" in err and err.count("\n") == 1


def test_bench_reports_games_per_second(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lehavre", "bench", "--players", "1", "--variant", "short", "--games", "1"]) == 0
    assert "games/s" in capsys.readouterr().out
