"""The text notation of a game record: one line per action, readable and writable by hand.

The format is documented in docs/notation.md. In short::

    # comments run from "#" to the end of the line
    catalog provisional-1 sha256=5f0c…
    player1 Alice
    player2 Computer (strong)
    result 120 98
    1. build wood_company clay-1l
    2. sell farm; use pier steps=fish:2,wood:1

A header line is a keyword and its value; then each action is its number, a dot and the turn's
moves separated by ``;`` (sells first, the action last). :func:`move_text` and :func:`text_move`
round-trip every move: ``text_move(move_text(m)) == m.to_json()``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .catalog import Catalog
from .gamerecord import (
    DEFAULT_SEATS,
    CatalogFinder,
    GameRecord,
    RecordError,
    checked_record,
    ending_from,
    is_name,
    result_of,
)
from .moves import Move

_ENTRY = re.compile(r"^(clay|fish|grain|wood)-(?:(\d+)d)?(?:(\d+)l)?$")
_ACTION = re.compile(r"^(\d{1,6})\.\s+(.*)$")
_HEADER = ("catalog", "player1", "player2", "result", "ending")


def payment_text(payment: Mapping[str, Mapping[str, int]]) -> str:
    """``{"clay": {"left": 2}, "wood": {"down": 1}}`` as ``clay-2l+wood-1d`` (empty: ``none``)."""
    entries = []
    for good, shift in sorted(payment.items()):
        down, left = shift.get("down", 0), shift.get("left", 0)
        entries.append(f"{good}-{f'{down}d' if down else ''}{f'{left}l' if left else ''}")
    return "+".join(entries) or "none"


def move_text(move: Move) -> str:
    """The notation of one move: ``pass``, ``sell farm``, ``build kiln clay-2l``, ``use … key=value``."""
    data = move.to_json()
    words = [data["type"]]
    if "building" in data:
        words.append(data["building"])
    if data["type"] == "build" and data["payment"]:
        words.append(payment_text(data["payment"]))
    if "good" in data:
        words.append(f"good={data['good']}")
    if "goods" in data:
        words.append("goods=" + ",".join(data["goods"]))
    if "steps" in data:
        words.append("steps=" + ",".join(f"{g}:{n}" for g, n in sorted(data["steps"].items())))
    if "times" in data:
        words.append(f"times={data['times']}")
    if "payments" in data:
        words.append("payments=" + ",".join(payment_text(p) for p in data["payments"]))
    return " ".join(words)


def text_move(text: str) -> dict[str, Any]:
    """Read one move's notation into its JSON form; ``ValueError`` says what is wrong."""
    words = text.split()
    if not words:
        raise ValueError("an empty move")
    kind, rest = words[0], words[1:]
    if kind == "pass":
        if rest:
            raise ValueError("pass takes nothing after it")
        return {"type": "pass"}
    if kind not in ("build", "sell", "use") or not rest:
        raise ValueError(f"{text!r} is not a move: write pass, sell B, build B … or use B …")
    move: dict[str, Any] = {"type": kind, "building": rest[0]}
    if kind == "sell" and len(rest) > 1:
        raise ValueError("sell takes only a building")
    if kind == "build":
        if len(rest) > 2:
            raise ValueError("build takes a building and one payment (entries joined by +)")
        move["payment"] = _payment(rest[1]) if len(rest) == 2 else {}
    if kind == "use":
        for word in rest[1:]:
            key, sep, value = word.partition("=")
            if not sep or key in move:
                raise ValueError(f"{word!r}: write each choice once, as key=value")
            move[key] = _choice(key, value)
    return move


def _choice(key: str, value: str) -> Any:
    parts = value.split(",") if value else []
    if key == "good":
        return value
    if key == "times":
        return _number(value)
    if key == "goods":
        return parts
    if key == "steps":
        steps = {}
        for part in parts:
            good, sep, count = part.partition(":")
            if not sep:
                raise ValueError(f"steps are good:count, not {part!r}")
            steps[good] = _number(count)
        return steps
    if key == "payments":
        return [_payment(part) for part in parts]
    raise ValueError(f"unknown choice {key!r}")


def _number(text: str) -> int:
    if not text.isdigit() or len(text) > 6:
        raise ValueError(f"{text!r} is not a whole number")
    return int(text)


def _payment(text: str) -> dict[str, dict[str, int]]:
    if text == "none":
        return {}
    payment: dict[str, dict[str, int]] = {}
    for entry in text.split("+"):
        match = _ENTRY.match(entry)
        if not match or not (match[2] or match[3]) or match[1] in payment:
            raise ValueError(f"{entry!r} is not a payment entry such as clay-2l or wood-1d1l")
        shift = {"down": _number(match[2] or "0"), "left": _number(match[3] or "0")}
        payment[match[1]] = {k: v for k, v in shift.items() if v}
    return payment


def record_text(record: GameRecord, catalog: Catalog | None = None) -> str:
    """The record in the notation: the header, then one numbered line per action."""
    positions = record.positions(catalog)
    lines = [
        "# Inland Port game record (docs/notation.md)",
        f"catalog {record.catalog_name} sha256={record.catalog_sha256}",
        f"player1 {record.seats[0]}",
        f"player2 {record.seats[1]}",
    ]
    final = result_of(positions[-1])
    if final is not None:
        lines.append("result {} {}".format(*final["scores"]))
    if record.ending is not None:
        lines.append(f"ending {record.ending.kind} player{record.ending.seat + 1}")
    turn: list[str] = []
    for move, before in zip(record.moves, positions, strict=False):
        turn.append(move_text(move))
        if move.type != "sell":
            player = before.turn % 2 + 1
            comment = f"# {before.round_letter}, player {player}"
            lines.append(f"{before.turn + 1}. {'; '.join(turn):<40} {comment}")
            turn = []
    if turn:
        lines.append(f"{positions[-1].turn + 1}. {'; '.join(turn)}")
    return "\n".join(lines) + "\n"


def read_notation(text: str, catalog: Catalog | CatalogFinder | None = None) -> GameRecord:
    """Read a record written in the notation and replay it (:class:`RecordError` names the line)."""
    header: dict[str, tuple[int, str]] = {}
    moves: list[tuple[int, Any]] = []
    actions = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        action = _ACTION.match(line)
        if action is None:
            key, _, value = line.partition(" ")
            if key not in _HEADER or key in header or moves:
                raise RecordError(
                    "syntax", number, f"expected a numbered action such as '1. pass', not {line!r}"
                )
            header[key] = (number, value.strip())
            continue
        actions += 1
        if int(action[1]) != actions:
            raise RecordError("syntax", number, f"action {actions} is numbered {action[1]}")
        for part in action[2].split(";"):
            try:
                moves.append((number, text_move(part)))
            except ValueError as err:
                raise RecordError("malformed_move", number, str(err)) from err
    if "catalog" not in header:
        raise RecordError("shape", 1, "the record needs a 'catalog NAME sha256=DIGEST' line")
    catalog_line, catalog_value = header["catalog"]
    name, _, digest = catalog_value.rpartition(" sha256=")
    if not name or not digest:
        raise RecordError("shape", catalog_line, "write the catalog as 'catalog NAME sha256=HEX'")
    seats = []
    for key, default in zip(("player1", "player2"), DEFAULT_SEATS, strict=True):
        seat_line, seat = header.get(key, (1, default))
        if not is_name(seat):
            raise RecordError("shape", seat_line, f"{key} needs a name of at most 80 characters")
        seats.append(seat)
    result_line, claimed = header.get("result", (0, ""))
    ending = None
    if "ending" in header:
        ending_line, stated = header["ending"]
        kind, _, player = stated.partition(" ")
        by = {"player1": 0, "player2": 1}.get(player.strip(), -1)
        ending = (ending_line, ending_from(ending_line, {"kind": kind, "seat": by}))
    return checked_record(
        (catalog_line, name, digest),
        (seats[0], seats[1]),
        moves,
        (result_line, _result(result_line, claimed) if result_line else None),
        catalog,
        ending,
    )


def _result(line: int, text: str) -> dict[str, Any]:
    parts = text.split()
    if len(parts) != 2 or not all(p.isdigit() and len(p) < 7 for p in parts):
        raise RecordError("shape", line, "write the result as 'result SCORE1 SCORE2'")
    first, second = int(parts[0]), int(parts[1])
    winner = None if first == second else (0 if first > second else 1)
    return {"scores": [first, second], "winner": winner}
