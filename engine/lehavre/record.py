"""Le Havre's game record: a game is its setup plus its moves, written down as JSON.

A record holds everything a replay needs: the game (``"format": "lehavre-record/1"``), the seats'
names, the setup (docs/le-havre/spec.md §3: the variant, the shuffled supply tiles, the proposal
stacks, the special buildings drawn, the first player), the moves in canonical form, and the result
(each seat's fortune) once the game is over, or its ending when it ended before its last move.
Reading a record replays it: a setup that is not a possible start, a move that cannot be read or
is not legal, or a result that is not what the moves give is refused with a
:class:`LeHavreRecordError` naming the line (the codes are the game records' own,
``engine.gamerecord.CODES``, plus ``setup``), carrying the engine's refusal when there is one.

Le Havre has no text notation: its moves are JSON objects, so the JSON record is the only form.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..gamerecord import ENDINGS, RecordEnding, RecordError, is_name
from ..record import element_lines, top_level
from . import new_game
from .errors import IllegalMove, MalformedMove
from .moves import Move, canonical, parse_move
from .rules import apply
from .scoring import scores
from .setup import Setup
from .state import State

FORMAT = "lehavre-record/1"
"""The ``format`` field of a Le Havre record."""

MAX_MOVES = 4000
"""The most moves a record may hold (a five-player full game takes a few hundred)."""

MAX_RECORD_BYTES = 512 * 1024
"""The largest record read."""


class LeHavreRecordError(RecordError):
    """A record that cannot be read, with the engine's refusal behind it (``refusal``: its code
    and params) when a setup or a move was refused."""

    def __init__(
        self, code: str, line: int, detail: str, refusal: MalformedMove | IllegalMove | None = None
    ) -> None:
        super().__init__(code, line, detail)
        self.refusal = None if refusal is None else (refusal.code, dict(refusal.params))


@dataclass(frozen=True)
class LeHavreRecord:
    """One Le Havre game as written down: its setup, the seats' names, the moves and, for a game
    that ended before its last move, how (`ending`)."""

    setup: Setup
    seats: tuple[str, ...]
    moves: tuple[Move, ...]
    ending: RecordEnding | None = None

    def positions(self) -> list[State]:
        """Every position of the game: the start, then the one after each move."""
        state = new_game(self.setup)
        states = [state]
        for move in self.moves:
            state = apply(state, move)
            states.append(state)
        return states

    def prefix(self, at: int) -> LeHavreRecord:
        """The record of the game's first ``at`` moves: where a new game can start from."""
        if not 0 <= at <= len(self.moves):
            raise ValueError(f"a position from 0 to {len(self.moves)}, not {at}")
        return LeHavreRecord(self.setup, self.seats, self.moves[:at])


def result_of(state: State) -> dict[str, Any] | None:
    """The result of a finished game (each seat's fortune), else None."""
    return {"scores": scores(state)} if state.phase == "over" else None


def record_json(record: LeHavreRecord) -> str:
    """The JSON record, one move per line (so an error can name the move's line)."""
    final = result_of(record.positions()[-1])
    head = {"format": FORMAT, "seats": list(record.seats), "setup": record.setup.to_json()}
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    moves = [f"    {_compact(canonical(m))}" for m in record.moves]
    lines.append('  "moves": [' + ("\n" + ",\n".join(moves) + "\n  " if moves else "") + "],")
    if record.ending is not None:
        lines.append(f'  "ending": {json.dumps(record.ending.to_json())},')
    lines.append(f'  "result": {json.dumps(final)}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def is_record(text: str) -> bool:
    """Whether ``text`` is meant as a Le Havre record (a JSON object naming its format)."""
    return text.lstrip().startswith("{") and f'"{FORMAT}"' in text[:4096]


def read_record(text: str) -> LeHavreRecord:
    """Read a JSON record and replay it; :class:`LeHavreRecordError` names the first problem."""
    if len(text.encode("utf-8")) > MAX_RECORD_BYTES:
        raise LeHavreRecordError(
            "too_large", 0, f"a record may hold at most {MAX_RECORD_BYTES} bytes"
        )
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise LeHavreRecordError("syntax", err.lineno, f"not valid JSON ({err.msg})") from err
    except (RecursionError, ValueError) as err:
        raise LeHavreRecordError("syntax", 1, "the JSON is nested too deeply or too long") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LeHavreRecordError("shape", 1, f'a record is an object with "format": "{FORMAT}"')
    keys = top_level(text)
    lines = {key: line for key, (line, _) in keys.items()}
    setup = _setup(data.get("setup"), lines.get("setup", 1))
    seats = data.get("seats")
    if not (
        isinstance(seats, list) and len(seats) == setup.players and all(is_name(s) for s in seats)
    ):
        raise LeHavreRecordError(
            "shape", lines.get("seats", 1), f"seats must be {setup.players} names"
        )
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise LeHavreRecordError("shape", lines.get("moves", 1), "moves must be a list of moves")
    ending = _ending(data.get("ending"), lines.get("ending", 1), setup.players)
    record = LeHavreRecord(
        setup, tuple(seats), _replayed(setup, moves, element_lines(text, keys["moves"][1]))
    )
    final = record.positions()[-1]
    if ending is not None and final.phase == "over":
        raise LeHavreRecordError(
            "result", lines.get("ending", 1), "the game was played to its end: it has no ending"
        )
    claimed = data.get("result")
    if claimed is not None and claimed != result_of(final):
        raise LeHavreRecordError(
            "result",
            lines.get("result", 1),
            f"the result {claimed!r} is not what the moves give: {result_of(final)}",
        )
    return LeHavreRecord(record.setup, record.seats, record.moves, ending)


def _setup(value: Any, line: int) -> Setup:
    try:
        return Setup.from_json(value)
    except MalformedMove as err:
        raise LeHavreRecordError("setup", line, f"the setup is not valid: {err}", err) from err


def _ending(value: Any, line: int, players: int) -> RecordEnding | None:
    if value is None:
        return None
    if (
        not isinstance(value, dict)
        or set(value) != {"kind", "seat"}
        or value["kind"] not in ENDINGS
        or isinstance(value["seat"], bool)
        or value["seat"] not in range(players)
    ):
        raise LeHavreRecordError(
            "shape", line, f"ending must be {{kind: one of {', '.join(ENDINGS)}, seat: a seat}}"
        )
    return RecordEnding(value["kind"], value["seat"])


def _replayed(setup: Setup, moves: Sequence[Any], lines: Sequence[int]) -> tuple[Move, ...]:
    """The moves parsed and applied in turn (``lines``: where each begins)."""
    if len(moves) > MAX_MOVES:
        raise LeHavreRecordError("too_large", lines[MAX_MOVES], f"more than {MAX_MOVES} moves")
    state = new_game(setup)
    parsed = []
    for number, (line, raw) in enumerate(zip(lines, moves, strict=True), start=1):
        try:
            move = parse_move(raw)
        except MalformedMove as err:
            raise LeHavreRecordError("malformed_move", line, f"move {number}: {err}", err) from err
        try:
            state = apply(state, move)
        except (MalformedMove, IllegalMove) as err:
            raise LeHavreRecordError(
                "illegal_move", line, f"move {number} is not legal: {err}", err
            ) from err
        parsed.append(move)
    return tuple(parsed)
