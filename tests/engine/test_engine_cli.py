"""The engine's command line (SPEC §9), run as a separate process.

`python -m engine replay FILE [--trace]` prints the summary after the last move (with --trace:
the start and every position after a move, sells included); a bad move gives exit status 1, one
stderr line naming its index, and nothing on stdout for it or after it. `python -m engine legal
FILE` prints the legal moves after FILE's moves, one canonical move per line, sorted.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import apply, legal_moves, new_game, replay, summary

ROOT = Path(__file__).resolve().parents[2]


def canonical_summary(state: Any) -> str:
    return json.dumps(summary(state), sort_keys=True, separators=(",", ":"))


def run_engine(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def opening_moves() -> list[str]:
    """Seven moves from the start, across the end of round A, with a sell and a rebuild in the
    same turn (move 4 and 5, seat 0) and a use of the opponent's building (move 3)."""
    state = new_game()
    moves = [
        '{"building":"farmland","payment":{},"type":"build"}',
        '{"building":"wood_company","payment":{"clay":{"left":1}},"type":"build"}',
        '{"building":"grocery_store","payment":{"fish":{"left":2}},"type":"build"}',
        '{"building":"farmland","type":"use"}',
        '{"building":"farmland","type":"sell"}',
        '{"building":"farmland","payment":{},"type":"build"}',
        '{"building":"wood_company","type":"use"}',
    ]
    for move in moves:
        state = apply(state, move)
    return moves


def write_moves(path: Path, moves: list[Any], **extra: Any) -> Path:
    path.write_text(json.dumps({"moves": moves, **extra}))
    return path


def test_replay_prints_the_final_summary(tmp_path: Path) -> None:
    moves = opening_moves()
    result = run_engine("replay", str(write_moves(tmp_path / "game.json", moves)), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == canonical_summary(replay(moves))
    assert result.stdout.count("\n") == 1


def test_replay_trace_prints_every_position(tmp_path: Path) -> None:
    moves = opening_moves()
    path = write_moves(tmp_path / "game.json", moves)
    result = run_engine("replay", str(path), "--trace", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    expected = [canonical_summary(replay(moves[:i])) for i in range(len(moves) + 1)]
    assert result.stdout.splitlines() == expected


@pytest.mark.parametrize(
    ("bad", "index"),
    [
        ('{"type":"pass"}', 2),  # readable, illegal: actions exist
        ('{"building":"kiln","payment":{},"type":"build"}', 1),  # kiln not in play in round A
        ('{"type":"jump"}', 0),  # malformed
        ("not a move", 4),  # malformed
        ({"type": "sell", "building": "castle"}, 5),  # malformed: unknown building
    ],
)
def test_replay_stops_at_a_bad_move(tmp_path: Path, bad: Any, index: int) -> None:
    """Moves 0..index-1 are good; the bad move sits at `index`, good moves follow it."""
    good = opening_moves()
    moves: list[Any] = [*good[:index], bad, *good[index:]]
    path = write_moves(tmp_path / "game.json", moves)

    traced = run_engine("replay", str(path), "--trace", cwd=tmp_path)
    assert traced.returncode == 1
    expected = [canonical_summary(replay(good[:i])) for i in range(index + 1)]
    assert traced.stdout.splitlines() == expected
    error_lines = traced.stderr.strip().splitlines()
    assert len(error_lines) == 1
    assert re.search(rf"\b{index}\b", error_lines[0]), error_lines[0]

    plain = run_engine("replay", str(path), cwd=tmp_path)
    assert plain.returncode == 1
    assert plain.stdout == ""
    assert len(plain.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "content",
    [None, "{not json", "[]", '{"moves": 3}', '{"turns": []}', "\u00ff\u00fe"],
    ids=["missing", "bad-json", "not-object", "moves-not-list", "no-moves", "garbage"],
)
def test_unreadable_file(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content, encoding="latin-1")
    for command in ("replay", "legal"):
        result = run_engine(command, str(path), cwd=tmp_path)
        assert result.returncode == 1, (command, result.stdout)
        assert result.stdout == ""
        assert result.stderr.strip()


def test_legal_lists_the_moves_of_the_position(tmp_path: Path) -> None:
    moves = opening_moves()
    path = write_moves(tmp_path / "game.json", moves)
    result = run_engine("legal", str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines == [m.canonical for m in legal_moves(replay(moves))]
    assert lines == sorted(set(lines))
    assert any('"type":"sell"' in line for line in lines)


def test_legal_at_the_start(tmp_path: Path) -> None:
    result = run_engine("legal", str(write_moves(tmp_path / "g.json", [])), cwd=tmp_path)
    assert result.returncode == 0
    assert len(result.stdout.splitlines()) == 6


def test_legal_prints_nothing_when_the_game_is_over(tmp_path: Path) -> None:
    state = new_game()
    moves = []
    while legal_moves(state):
        move = next(m for m in legal_moves(state) if m.type != "sell")
        moves.append(move.canonical)
        state = apply(state, move)
    assert len(moves) == 72
    path = write_moves(tmp_path / "game.json", moves)
    result = run_engine("legal", str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    final = run_engine("replay", str(path), cwd=tmp_path)
    assert json.loads(final.stdout)["finished"] is True


def test_replay_with_a_catalog_relative_to_the_current_directory(tmp_path: Path) -> None:
    """The file's optional "catalog" is a path relative to the current directory."""
    data = json.loads((ROOT / "engine" / "catalog.json").read_text())
    data["start_francs"] = 7
    (tmp_path / "numbers").mkdir()
    (tmp_path / "numbers" / "cat.json").write_text(json.dumps(data))
    path = write_moves(tmp_path / "game.json", [], catalog="numbers/cat.json")
    result = run_engine("replay", str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert [p["francs"] for p in json.loads(result.stdout)["players"]] == [7, 7]


def test_replay_trace_of_a_golden_game(tmp_path: Path) -> None:
    """The command line and the API agree over a whole recorded game, sells included."""
    game = json.loads((Path(__file__).resolve().parent / "golden" / "game-1.json").read_text())
    path = write_moves(tmp_path / "game.json", game["moves"])
    result = run_engine("replay", str(path), "--trace", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [json.loads(line) for line in lines] == [p["summary"] for p in game["positions"]]
    assert lines[-1] == json.dumps(
        game["positions"][-1]["summary"], sort_keys=True, separators=(",", ":")
    )


def test_replay_reads_both_record_formats(tmp_path: Path) -> None:
    """A game record, JSON or text notation, replays like the plain list of its moves."""
    from engine.notation import record_text
    from engine.record import GameRecord, record_json

    moves = opening_moves()
    record = GameRecord.of(moves)
    expected = [canonical_summary(replay(moves[:i])) for i in range(len(moves) + 1)]
    for name, text in (("game.json", record_json(record)), ("game.txt", record_text(record))):
        (tmp_path / name).write_text(text)
        result = run_engine("replay", name, "--trace", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines() == expected
        legal = run_engine("legal", name, cwd=tmp_path)
        assert legal.stdout.splitlines() == [m.canonical for m in legal_moves(replay(moves))]


def test_replay_names_the_line_of_a_bad_record(tmp_path: Path) -> None:
    from engine.notation import record_text
    from engine.record import GameRecord

    lines = record_text(GameRecord.of(opening_moves())).splitlines()
    lines[6] = "3. build castle"
    (tmp_path / "game.txt").write_text("\n".join(lines))
    result = run_engine("replay", "game.txt", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == ""
    assert "line 7:" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
