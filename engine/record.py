"""The game record: a game is its start plus its moves, written down (docs/notation.md).

A record names the catalog it was played with (its ``name`` and the SHA-256 of its canonical JSON),
the two seats, the moves in canonical form and, once the game is over, the result. It is read and
written in two formats: JSON (:func:`record_json` / :func:`read_record`) and the text notation of
:mod:`engine.notation`. Reading a record replays it: a record whose moves are not legal, whose
catalog is another one, or whose result is not what the moves give is refused with a
:class:`RecordError` that names the line.

A record may stop before the end of the game: that prefix is where a new game can start from
(:meth:`GameRecord.prefix`); the game is then the record's moves followed by the new ones.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .catalog import Catalog, default_catalog
from .moves import Move, parse_move
from .rules import apply
from .state import GameState, new_game, scores

FORMAT = "inland-port-record/1"
"""The ``format`` field of a JSON record."""

MAX_RECORD_BYTES = 256 * 1024
"""The largest record read: a whole game with every sell is far below this."""

MAX_MOVES = 1000
"""The most moves a record may hold (72 actions plus sells; a sell needs a building built first)."""

DEFAULT_SEATS = ("Player 1", "Player 2")


CODES: tuple[str, ...] = (
    "too_large",
    "syntax",
    "shape",
    "catalog",
    "malformed_move",
    "illegal_move",
    "result",
)
"""The codes of `RecordError`, each the same for both formats."""


class RecordError(ValueError):
    """A record that cannot be read: ``code`` says what kind, ``line`` where (1-based; 0 = none).

    Codes (:data:`CODES`): ``too_large``, ``syntax`` (not JSON / not notation), ``shape`` (a field
    missing or of the wrong kind), ``catalog`` (another catalog), ``malformed_move``,
    ``illegal_move``, ``result`` (the result does not match the moves).
    """

    def __init__(self, code: str, line: int, detail: str) -> None:
        where = f"line {line}: " if line else ""
        super().__init__(f"{where}{detail}")
        self.code = code
        self.line = line
        self.detail = detail


def catalog_sha256(data: Any) -> str:
    """The SHA-256 of a catalog's canonical JSON (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def _bundled_sha256() -> str:
    path = Path(__file__).with_name("catalog.json")
    return catalog_sha256(json.loads(path.read_text(encoding="utf-8")))


def catalog_id(catalog: Catalog | None = None, path: str | Path | None = None) -> tuple[str, str]:
    """The catalog's name and digest: the bundled catalog, or the one loaded from ``path``."""
    catalog = catalog or default_catalog()
    if path is None:
        return catalog.name, _bundled_sha256()
    return catalog.name, catalog_sha256(json.loads(Path(path).read_text(encoding="utf-8")))


@dataclass(frozen=True)
class GameRecord:
    """One game as written down: the catalog's name and digest, the seats and the moves."""

    catalog_name: str
    catalog_sha256: str
    seats: tuple[str, str]
    moves: tuple[Move, ...]

    @classmethod
    def of(
        cls,
        moves: Sequence[Move | str],
        seats: tuple[str, str] = DEFAULT_SEATS,
        catalog: Catalog | None = None,
    ) -> GameRecord:
        """A record of ``moves`` played with the bundled catalog (or ``catalog``)."""
        name, digest = catalog_id(catalog)
        catalog = catalog or default_catalog()
        return cls(name, digest, seats, tuple(parse_move(m, catalog) for m in moves))

    def positions(self, catalog: Catalog | None = None) -> list[GameState]:
        """Every position of the game: the start, then the one after each move."""
        state = new_game(catalog)
        states = [state]
        for move in self.moves:
            state = apply(state, move)
            states.append(state)
        return states

    def prefix(self, at: int) -> GameRecord:
        """The record of the game's first ``at`` moves: where a new game can start from."""
        if not 0 <= at <= len(self.moves):
            raise ValueError(f"a position from 0 to {len(self.moves)}, not {at}")
        return GameRecord(self.catalog_name, self.catalog_sha256, self.seats, self.moves[:at])


def result_of(state: GameState) -> dict[str, Any] | None:
    """The result of a finished game (``scores`` and ``winner``, None for a draw), else None."""
    if not state.finished:
        return None
    final = scores(state)
    winner = None if final[0] == final[1] else (0 if final[0] > final[1] else 1)
    return {"scores": list(final), "winner": winner}


def record_json(record: GameRecord, catalog: Catalog | None = None) -> str:
    """The JSON record, one move per line (so an error can name the move's line)."""
    final = result_of(record.positions(catalog)[-1])
    head = {
        "format": FORMAT,
        "catalog": {"name": record.catalog_name, "sha256": record.catalog_sha256},
        "seats": list(record.seats),
    }
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    moves = [f"    {m.canonical}" for m in record.moves]
    lines.append('  "moves": [' + ("\n" + ",\n".join(moves) + "\n  " if moves else "") + "],")
    lines.append(f'  "result": {json.dumps(final)}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def read_record(text: str, catalog: Catalog | None = None) -> GameRecord:
    """Read a record in either format (JSON when it starts with ``{``) and replay it.

    Raises :class:`RecordError` naming the line of the first problem.
    """
    if len(text.encode("utf-8")) > MAX_RECORD_BYTES:
        raise RecordError("too_large", 0, f"a record may hold at most {MAX_RECORD_BYTES} bytes")
    if text.lstrip().startswith("{"):
        return _read_json(text, catalog)
    from .notation import read_notation

    return read_notation(text, catalog)


def _read_json(text: str, catalog: Catalog | None) -> GameRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError("syntax", err.lineno, f"not valid JSON ({err.msg})") from err
    except RecursionError as err:
        raise RecordError("syntax", 1, "the JSON is nested too deeply") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError("shape", 1, f'a JSON record is an object with "format": "{FORMAT}"')
    keys = _top_level(text)
    head = {key: line for key, (line, _) in keys.items()}
    raw_catalog = data.get("catalog")
    if not isinstance(raw_catalog, dict) or not all(
        isinstance(raw_catalog.get(k), str) for k in ("name", "sha256")
    ):
        raise RecordError("shape", head.get("catalog", 1), "catalog must be {name, sha256} strings")
    seats = data.get("seats", list(DEFAULT_SEATS))
    if not (isinstance(seats, list) and len(seats) == 2 and all(is_name(s) for s in seats)):
        raise RecordError("shape", head.get("seats", 1), "seats must be two names")
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise RecordError("shape", head.get("moves", 1), "moves must be a list of moves")
    lines = _element_lines(text, keys["moves"][1])
    entries = list(zip(lines, moves, strict=True))
    return checked_record(
        (head["catalog"], raw_catalog["name"], raw_catalog["sha256"]),
        (seats[0], seats[1]),
        entries,
        (head.get("result", 0), data.get("result")),
        catalog,
    )


def is_name(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 80 and value.isprintable()


def checked_record(
    named: tuple[int, str, str],
    seats: tuple[str, str],
    moves: Sequence[tuple[int, Any]],
    result: tuple[int, Any],
    catalog: Catalog | None = None,
) -> GameRecord:
    """A record read from ``(line, move)`` entries, replayed and checked; else :class:`RecordError`.

    ``named`` is ``(line, catalog name, digest)``; ``result`` is ``(line, claimed result)``, and a
    claimed result (None: not stated) must be the one the moves give.
    """
    catalog = catalog or default_catalog()
    expected = catalog_id(catalog)
    catalog_line, catalog_name, digest = named
    if (catalog_name, digest) != expected:
        raise RecordError(
            "catalog",
            catalog_line,
            f"the record was played with the catalog {catalog_name!r} (sha256 {digest[:12]}…), "
            f"not with {expected[0]!r} (sha256 {expected[1][:12]}…)",
        )
    if len(moves) > MAX_MOVES:
        raise RecordError("too_large", moves[MAX_MOVES][0], f"more than {MAX_MOVES} moves")
    state = new_game(catalog)
    parsed = []
    for number, (line, raw) in enumerate(moves, start=1):
        try:
            move = parse_move(raw, catalog)
        except ValueError as err:
            raise RecordError("malformed_move", line, f"move {number}: {err}") from err
        try:
            state = apply(state, move)
        except ValueError as err:
            raise RecordError("illegal_move", line, f"move {number} is not legal: {err}") from err
        parsed.append(move)
    line, claimed = result
    if claimed is not None and claimed != result_of(state):
        raise RecordError(
            "result", line, f"the result {claimed!r} is not what the moves give: {result_of(state)}"
        )
    return GameRecord(catalog_name, digest, seats, tuple(parsed))


def _top_level(text: str) -> dict[str, tuple[int, int]]:
    """Each top-level key of a valid JSON object: the key's line and where its value starts."""
    decoder = json.JSONDecoder()
    found: dict[str, tuple[int, int]] = {}
    pos = _skip(text, text.index("{") + 1)
    while pos < len(text) and text[pos] == '"':
        key, pos = decoder.raw_decode(text, pos)
        line = text.count("\n", 0, pos) + 1
        pos = _skip(text, _skip(text, pos) + 1)
        found[key] = (line, pos)
        _, pos = decoder.raw_decode(text, pos)
        pos = _skip(text, _skip(text, pos) + 1)
    return found


def _element_lines(text: str, start: int) -> list[int]:
    """The line where each element of the valid JSON list at ``start`` begins."""
    decoder = json.JSONDecoder()
    lines = []
    pos = _skip(text, start + 1)
    while text[pos] != "]":
        lines.append(text.count("\n", 0, pos) + 1)
        _, pos = decoder.raw_decode(text, pos)
        pos = _skip(text, pos)
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
    return lines


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos
