"""The game record: a game is its start plus its moves, written down (docs/notation.md).

A record names the catalog it was played with (its ``name`` and the SHA-256 of its canonical JSON),
the two seats, the moves in canonical form and, once the game is over, the result (or, for a
game that ended before its last move, its ending: resigned, claimed or aborted). It is read and
written in two formats: JSON (:func:`record_json` / :func:`read_record`) and the text notation of
:mod:`engine.notation`. Reading a record replays it: a record whose moves are not legal, whose
catalog is another one, or whose result is not what the moves give is refused with a
:class:`RecordError` that names the line.

A record may stop before the end of the game: that prefix is where a new game can start from
(:meth:`GameRecord.prefix`); the game is then the record's moves followed by the new ones. The
record itself and its check are in :mod:`engine.gamerecord`; this module reads either format.
"""

from __future__ import annotations

import json

from .catalog import Catalog
from .gamerecord import (
    CODES,
    DEFAULT_SEATS,
    ENDINGS,
    MAX_MOVES,
    CatalogFinder,
    GameRecord,
    RecordEnding,
    RecordError,
    catalog_id,
    catalog_sha256,
    checked_record,
    ending_from,
    is_name,
    result_of,
)
from .notation import read_notation

__all__ = [
    "CODES",
    "DEFAULT_SEATS",
    "ENDINGS",
    "FORMAT",
    "MAX_MOVES",
    "MAX_RECORD_BYTES",
    "CatalogFinder",
    "GameRecord",
    "RecordEnding",
    "RecordError",
    "catalog_id",
    "catalog_sha256",
    "read_record",
    "record_json",
    "result_of",
]

FORMAT = "inland-port-record/1"
"""The ``format`` field of a JSON record."""

MAX_RECORD_BYTES = 256 * 1024
"""The largest record read: a whole game with every sell is far below this."""


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
    if record.ending is not None:
        lines.append(f'  "result": {json.dumps(final)},')
        lines.append(f'  "ending": {json.dumps(record.ending.to_json())}')
    else:
        lines.append(f'  "result": {json.dumps(final)}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def read_record(text: str, catalog: Catalog | CatalogFinder | None = None) -> GameRecord:
    """Read a record in either format (JSON when it starts with ``{``) and replay it.

    Raises :class:`RecordError` naming the line of the first problem.
    """
    if len(text.encode("utf-8")) > MAX_RECORD_BYTES:
        raise RecordError("too_large", 0, f"a record may hold at most {MAX_RECORD_BYTES} bytes")
    if text.lstrip().startswith("{"):
        return _read_json(text, catalog)
    return read_notation(text, catalog)


def _read_json(text: str, catalog: Catalog | CatalogFinder | None) -> GameRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError("syntax", err.lineno, f"not valid JSON ({err.msg})") from err
    except RecursionError as err:
        raise RecordError("syntax", 1, "the JSON is nested too deeply") from err
    except ValueError as err:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise RecordError("syntax", 1, "a number in the JSON has too many digits") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError("shape", 1, f'a JSON record is an object with "format": "{FORMAT}"')
    keys = top_level(text)
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
    lines = element_lines(text, keys["moves"][1])
    entries = list(zip(lines, moves, strict=True))
    ending = None
    if data.get("ending") is not None:
        line = head.get("ending", 1)
        ending = (line, ending_from(line, data["ending"]))
    return checked_record(
        (head["catalog"], raw_catalog["name"], raw_catalog["sha256"]),
        (seats[0], seats[1]),
        entries,
        (head.get("result", 0), data.get("result")),
        catalog,
        ending,
    )


def top_level(text: str) -> dict[str, tuple[int, int]]:
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


def element_lines(text: str, start: int) -> list[int]:
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
