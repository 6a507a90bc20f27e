"""What the command line of every game shares: reading a game file, replaying its moves, the
``replay`` and ``legal`` commands, and how a command ends (``python -m engine``,
``python -m engine lehavre``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

S = TypeVar("S")


class Unreadable(Exception):
    """A game file that cannot be read or replayed: exit status 1 and its one line on stderr."""


def replay_moves(
    state: S,
    moves: Sequence[Any],
    apply_move: Callable[[S, Any], S],
    on_position: Callable[[S], None] | None,
    where: str = "",
) -> S:
    """The position after ``moves`` from ``state``, each position shown to ``on_position``; a
    refused move is :class:`Unreadable` naming ``where`` and the move's index."""
    if on_position:
        on_position(state)
    for index, move in enumerate(moves):
        try:
            state = apply_move(state, move)
        except ValueError as err:
            raise Unreadable(f"{where}move {index}: {err}") from err
        if on_position:
            on_position(state)
    return state


def add_file_commands(
    sub: Any, what: tuple[str, str], replay: Callable[..., int], legal: Callable[..., int]
) -> None:
    """The ``replay FILE [--trace]`` and ``legal FILE`` commands; ``what`` names what each prints
    (the summary, the moves)."""
    parser = sub.add_parser("replay", help=f"print the {what[0]} after a game file's moves")
    parser.add_argument("file")
    parser.add_argument("--trace", action="store_true", help="one summary per position")
    parser.set_defaults(run=replay)
    parser = sub.add_parser("legal", help=f"print the {what[1]} after a game file's moves")
    parser.add_argument("file")
    parser.set_defaults(run=legal)


def run_command(args: argparse.Namespace) -> int:
    """Run a parsed command: an unreadable file ends with status 1 and one line on stderr; a
    closed output pipe ends quietly."""
    try:
        result: int = args.run(args)
    except Unreadable as err:
        print(err, file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    return result


def read_text_file(path: str) -> str:
    """The file's text; :class:`Unreadable` ("cannot read PATH: why") if it has none."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise Unreadable(f"cannot read {path}: {err}") from err


def read_json_file(path: str) -> Any:
    """The file's JSON; :class:`Unreadable` ("cannot read PATH: why") if it is not JSON."""
    text = read_text_file(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise Unreadable(f"cannot read {path}: {err}") from err
