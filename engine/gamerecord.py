"""A game record as data: the catalog it was played with, the seats, the moves (docs/notation.md).

:class:`GameRecord` and the check every reader ends with (:func:`checked_record`: the catalog is
this one, the moves parse and are legal in turn, a stated result is the one the moves give), with
:class:`RecordError` naming the line of the first problem. The formats that write a record down
build on this: JSON in :mod:`engine.record`, the text notation in :mod:`engine.notation`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .catalog import Catalog, default_catalog
from .moves import Move, parse_move
from .rules import apply
from .state import GameState, new_game, scores

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
    "setup",
)
"""The codes of `RecordError`, each the same for both formats (``setup``: a Le Havre record's
setup that is no possible start, `engine.lehavre.record`)."""


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


def catalog_id(catalog: Catalog | None = None, path: str | Path | None = None) -> tuple[str, str]:
    """The catalog's name and digest: the bundled catalog's, ``catalog``'s, or the file ``path``'s."""
    catalog = catalog or default_catalog()
    if path is None:
        return catalog.name, catalog.sha256
    return catalog.name, catalog_sha256(json.loads(Path(path).read_text(encoding="utf-8")))


CatalogFinder = Callable[[str, str], Catalog | None]
"""The catalog of a record's name and digest, None when it is not known (``checked_record``)."""


ENDINGS = ("resigned", "claimed", "aborted")
"""How a game may end before its last move: a player resigned (the opponent wins), claimed the
game because the opponent left (the claimer wins), or aborted it (no result)."""


@dataclass(frozen=True)
class RecordEnding:
    """A game that ended before its last move: how (one of :data:`ENDINGS`) and by which seat."""

    kind: str
    seat: int

    @property
    def winner(self) -> int | None:
        if self.kind == "resigned":
            return 1 - self.seat
        if self.kind == "claimed":
            return self.seat
        return None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat}


def ending_from(line: int, value: Any) -> RecordEnding:
    """The ending a record states (``{"kind": ..., "seat": 0 | 1}``), else :class:`RecordError`."""
    if (
        not isinstance(value, dict)
        or set(value) != {"kind", "seat"}
        or value["kind"] not in ENDINGS
        or value["seat"] not in (0, 1)
        or isinstance(value["seat"], bool)
    ):
        raise RecordError(
            "shape", line, f"ending must be {{kind: one of {', '.join(ENDINGS)}, seat: 0 or 1}}"
        )
    return RecordEnding(value["kind"], value["seat"])


@dataclass(frozen=True)
class GameRecord:
    """One game as written down: the catalog's name and digest, the seats, the moves and, for a
    game that ended before its last move, how (`ending`)."""

    catalog_name: str
    catalog_sha256: str
    seats: tuple[str, str]
    moves: tuple[Move, ...]
    ending: RecordEnding | None = None

    @classmethod
    def of(
        cls,
        moves: Sequence[Move | str],
        seats: tuple[str, str] = DEFAULT_SEATS,
        catalog: Catalog | None = None,
        ending: RecordEnding | None = None,
    ) -> GameRecord:
        """A record of ``moves`` played with the bundled catalog (or ``catalog``)."""
        name, digest = catalog_id(catalog)
        catalog = catalog or default_catalog()
        return cls(name, digest, seats, tuple(parse_move(m, catalog) for m in moves), ending)

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


def is_name(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 80 and value.isprintable()


def checked_record(
    named: tuple[int, str, str],
    seats: tuple[str, str],
    moves: Sequence[tuple[int, Any]],
    result: tuple[int, Any],
    catalog: Catalog | CatalogFinder | None = None,
    ending: tuple[int, RecordEnding] | None = None,
) -> GameRecord:
    """A record read from ``(line, move)`` entries, replayed and checked; else :class:`RecordError`.

    ``named`` is ``(line, catalog name, digest)``; ``result`` is ``(line, claimed result)``, and a
    claimed result (None: not stated) must be the one the moves give. The record must name
    ``catalog`` (by default the bundled one) or, given a finder, a catalog the finder knows.
    ``ending`` is ``(line, ending)`` for a game that ended before its last move (its moves must
    not finish the game).
    """
    catalog_line, catalog_name, digest = named
    if callable(catalog):
        catalog = catalog(catalog_name, digest)
        if catalog is None:
            raise RecordError(
                "catalog",
                catalog_line,
                f"the record was played with the catalog {catalog_name!r} "
                f"(sha256 {digest[:12]}…), which is not known here",
            )
    catalog = catalog or default_catalog()
    expected = catalog_id(catalog)
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
    if ending is not None and state.finished:
        raise RecordError("result", ending[0], "the game was played to its end: it has no ending")
    return GameRecord(
        catalog_name, digest, seats, tuple(parsed), None if ending is None else ending[1]
    )
