"""Boards: read off a socket (whole or a patch), the views and facts a test draws them from,
and boards drawn for a test."""

from __future__ import annotations

import json
import re

from starlette.testclient import WebSocketTestSession

import engine
from app.live.frames import PATCH_PREFIX, DrawnBoard, part_hash
from app.reads.roomview import LogEntry, RoomFacts, RoomView
from bench import games


def is_board(message: str) -> bool:
    """Whether a socket message is a board: whole (root id="board") or a patch of one."""
    return message.startswith(PATCH_PREFIX) or 'id="board"' in message.split(">", 1)[0]


def next_board(ws: WebSocketTestSession) -> tuple[int, str]:
    """The next board the socket sends, whole or a patch (skipping other fragments, such as the
    chat): (version, html)."""
    while True:
        html = ws.receive_text()
        if is_board(html):
            return board_version(html), html


def board_version(html: str) -> int:
    """The board version of a socket message: the data-version of a whole board's root element
    (which must be id="board"), or the version in a patch's header (app.live.frames)."""
    if html.startswith(PATCH_PREFIX):
        header = json.loads(html[len(PATCH_PREFIX) : html.index("-->")])
        return int(header["version"])
    root = re.match(r"\s*<(\w+)([^>]*)>", html)
    assert root is not None, html[:200]
    attributes = root.group(2)
    assert re.search(r'\bid="board"', attributes), attributes
    found = re.search(r'\bdata-version="(\d+)"', attributes)
    assert found is not None, attributes
    return int(found.group(1))


def text_board(text: str) -> DrawnBoard:
    """A board whose whole HTML is `text`, sent whole every time (no two share a shell)."""
    return DrawnBoard(
        frame=text,
        attrs={},
        parts={"p": text},
        hashes={"p": part_hash(text)},
        pieces=("", "p", ""),
        shell=part_hash(text),
    )


def playing_facts(room_id: str, version: int, spectators: int) -> RoomFacts:
    """The facts of a room whose two players are seated and online, with no offer pending."""
    return RoomFacts(
        room_id=room_id,
        version=version,
        seats_claimed=(True, True),
        online=(True, True),
        spectators=spectators,
        open_invites=frozenset(),
        rematch_offered_by=(False, False),
        rematch_room_id=None,
        computer=None,
        computer_seat=None,
    )


def view_of(
    state: engine.GameState, viewer: int | None, log: tuple[LogEntry, ...] = ()
) -> RoomView:
    """The view of `state` for seat `viewer` (None: a spectator), with two spectators."""
    return games.sample_view("room1", state, log, viewer, spectators=2, spectator_token="<watch>")
