"""Fuzzing the room socket with Hypothesis: every odd message (text or bytes; not `board`, which
asks for the whole board) gets the error fragment back and the socket stays open; only the documented limits close it (`app.routes.ws`:
8 KiB a message, 100 messages in 20 seconds)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession
from support.boards import board_version, is_board
from support.fuzz import FUZZ, ODD_RAW_BODIES, odd_bytes, odd_text, shared_room

from app.live.frames import WHOLE_BOARD_PLEASE
from app.routes.ws import MAX_MESSAGE_BYTES, RATE_LIMIT

messages = st.lists(
    odd_text.filter(lambda text: text != WHOLE_BOARD_PLEASE)
    | odd_bytes
    | st.sampled_from([m for m in ODD_RAW_BODIES if len(m) <= MAX_MESSAGE_BYTES])
    | st.binary(min_size=1000, max_size=MAX_MESSAGE_BYTES)
    | st.just(b"\xff" * MAX_MESSAGE_BYTES),
    min_size=1,
    max_size=8,
)
"""Up to 8 messages: odd text, odd bytes (invalid UTF-8 too), odd bodies, up to 8 KiB of bytes."""


def answer(ws: WebSocketTestSession) -> str:
    """The next frame that is not a board (boards come whenever the room or presence changes)."""
    while True:
        frame = ws.receive_text()
        if not is_board(frame):
            return frame


@FUZZ
@given(sent=messages)
def test_odd_messages_get_an_error_and_the_socket_stays_open(
    client: TestClient, sent: list[Any]
) -> None:
    room = shared_room(client)
    client.cookies.clear()
    assert client.get(f"/s/{room['tokens'][0]}", follow_redirects=False).status_code == 303
    assert len(sent) < RATE_LIMIT
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as ws:
        board_version(ws.receive_text())  # the board on connect
        for message in sent:
            if isinstance(message, str):
                ws.send_text(message)
            else:
                ws.send_bytes(message)
            reply = answer(ws)
            assert reply.startswith('<div id="move-error" hx-swap-oob="true" role="alert">'), reply
        ws.send_text("still open?")
        assert 'id="move-error"' in answer(ws)
