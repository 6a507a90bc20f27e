"""The room WebSocket: boards on connect and after every move, presence, limits, Origin."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette import status
from starlette.websockets import WebSocketDisconnect
from support.boards import next_board
from support.rooms import bearer, first_action, new_room, play_first

from app.edge.cookies import cookie_name
from app.live.frames import PATCH_PREFIX, WHOLE_BOARD_PLEASE


def ws_path(room: dict[str, Any], token: str | None = None) -> str:
    path = f"/ws/rooms/{room['room']}"
    return f"{path}?token={token}" if token else path


def online(client: TestClient, room: dict[str, Any]) -> tuple[list[bool], int]:
    body = client.get(f"/api/rooms/{room['room']}", headers=bearer(room["spectator"])).json()
    return body["online"], body["spectators"]


def api_move(client: TestClient, room: dict[str, Any], seat: int, version: int) -> int:
    response = play_first(client, room["room"], room["tokens"][seat], version=version)
    assert response.status_code == 200, response.text
    new_version: int = response.json()["version"]
    return new_version


def test_every_viewer_gets_the_board_on_connect_and_after_every_move(client: TestClient) -> None:
    room = new_room(client)
    with (
        client.websocket_connect(ws_path(room, room["tokens"][0])) as host,
        client.websocket_connect(ws_path(room, room["tokens"][1])) as guest,
        client.websocket_connect(ws_path(room, room["spectator"])) as watcher,
    ):
        for ws in (host, guest, watcher):
            assert next_board(ws)[0] == 0
        version = api_move(client, room, 0, 0)
        for ws in (host, guest, watcher):
            seen = next_board(ws)[0]
            while seen < version:  # presence updates may come first
                seen = next_board(ws)[0]
            assert seen == 1
        version = api_move(client, room, 1, version)
        for ws in (host, guest, watcher):
            seen = next_board(ws)[0]
            while seen < version:
                seen = next_board(ws)[0]
            assert seen == 2


def test_the_cookie_set_by_a_link_opens_the_socket(client: TestClient) -> None:
    room = new_room(client)
    client.get(f"/s/{room['tokens'][1]}", follow_redirects=False)
    assert client.cookies.get(cookie_name(room["room"])) == room["tokens"][1]
    with client.websocket_connect(ws_path(room)) as ws:
        assert next_board(ws)[0] == 0
        assert online(client, room) == ([False, True], 0)


def test_presence_shows_who_is_connected_right_now(client: TestClient) -> None:
    room = new_room(client)
    assert online(client, room) == ([False, False], 0)
    with client.websocket_connect(ws_path(room, room["tokens"][0])) as host:
        next_board(host)
        assert online(client, room) == ([True, False], 0)
        with client.websocket_connect(ws_path(room, room["spectator"])) as watcher:
            next_board(watcher)
            assert online(client, room) == ([True, False], 1)
        with client.websocket_connect(ws_path(room, room["tokens"][1])) as guest:
            next_board(guest)
            assert online(client, room) == ([True, True], 0)
            next_board(host)  # the host is told the guest arrived
    assert online(client, room) == ([False, False], 0)


@pytest.mark.parametrize("token", [None, "q" * 43, "short"])
def test_a_socket_without_a_valid_token_is_refused(client: TestClient, token: str | None) -> None:
    room = new_room(client)
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(ws_path(room, token)) as ws,
    ):
        ws.receive_text()
    assert refused.value.code == status.WS_1008_POLICY_VIOLATION


def test_a_token_of_another_room_is_refused(client: TestClient) -> None:
    room, other = new_room(client), new_room(client)
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(ws_path(room, other["tokens"][0])) as ws,
    ):
        ws.receive_text()
    assert refused.value.code == status.WS_1008_POLICY_VIOLATION


@pytest.mark.parametrize("suffix", ["/", "/board", "%2Fboard"])
def test_a_socket_on_any_other_path_is_refused(client: TestClient, suffix: str) -> None:
    room = new_room(client)
    path = f"/ws/rooms/{room['room']}{suffix}?token={room['tokens'][0]}"
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(path) as ws:
        ws.receive_text()


def test_of_two_tokens_in_the_address_the_last_counts(client: TestClient) -> None:
    room = new_room(client)
    path = ws_path(room, room["tokens"][0]) + "&token=" + "q" * 43
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(path) as ws,
    ):
        ws.receive_text()
    assert refused.value.code == status.WS_1008_POLICY_VIOLATION
    with client.websocket_connect(ws_path(room, "q" * 43) + "&token=" + room["spectator"]) as ws:
        assert next_board(ws)[0] == 0


def test_a_foreign_origin_is_refused_and_the_own_origin_accepted(client: TestClient) -> None:
    room = new_room(client)
    path = ws_path(room, room["tokens"][0])
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(path, headers={"origin": "http://evil.example"}) as ws,
    ):
        ws.receive_text()
    assert refused.value.code == status.WS_1008_POLICY_VIOLATION
    with client.websocket_connect(path, headers={"origin": "http://testserver"}) as ws:
        assert next_board(ws)[0] == 0


def test_messages_over_8_kib_close_the_socket(client: TestClient) -> None:
    room = new_room(client)
    with client.websocket_connect(ws_path(room, room["tokens"][0])) as ws:
        next_board(ws)
        ws.send_text("x" * (8 * 1024 + 1))
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_text()
    assert closed.value.code == status.WS_1009_MESSAGE_TOO_BIG


def test_the_size_limit_counts_the_bytes_sent_even_when_they_are_no_utf_8(
    client: TestClient,
) -> None:
    room = new_room(client)
    with client.websocket_connect(ws_path(room, room["tokens"][0])) as ws:
        next_board(ws)
        ws.send_bytes(b"\xff" * (8 * 1024))  # 8 KiB, though 24 KiB once decoded with U+FFFD
        reply = ws.receive_text()
        while 'id="move-error"' not in reply:
            reply = ws.receive_text()
        ws.send_bytes(b"\xff" * (8 * 1024 + 1))
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_text()
    assert closed.value.code == status.WS_1009_MESSAGE_TOO_BIG


def test_more_than_100_messages_in_20_seconds_close_the_socket(client: TestClient) -> None:
    room = new_room(client)
    with client.websocket_connect(ws_path(room, room["spectator"])) as ws:
        next_board(ws)
        for _ in range(101):
            ws.send_text("{}")
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_text()
    assert closed.value.code == status.WS_1008_POLICY_VIOLATION


def test_a_message_on_the_socket_changes_nothing_and_gets_an_error_fragment(
    client: TestClient,
) -> None:
    """The socket only carries boards: a move sent over it is not played, and it stays open."""
    room = new_room(client)
    move, _ = first_action(client, room["room"], room["tokens"][0])
    with client.websocket_connect(ws_path(room, room["tokens"][0])) as host:
        next_board(host)
        for message in (
            json.dumps({"move": move, "version": 0, "client_move_id": "w"}),
            "<b>not json</b>",
        ):
            host.send_text(message)
            reply = host.receive_text()
            while 'id="move-error"' not in reply:
                reply = host.receive_text()
            assert "moves are posted over HTTP" in reply
            assert "<b>" not in reply
        log = client.get(f"/api/rooms/{room['room']}/moves", headers=bearer(room["spectator"]))
        assert log.json()["moves"] == []
        assert api_move(client, room, 0, 0) == 1  # still open: the next board arrives
        seen = next_board(host)[0]
        while seen < 1:
            seen = next_board(host)[0]
    assert online(client, room) == ([False, False], 0)


def test_a_move_sends_only_the_changed_parts_and_board_asks_for_the_whole(
    client: TestClient,
) -> None:
    room = new_room(client)
    with (
        client.websocket_connect(ws_path(room, room["tokens"][0])) as host,
        client.websocket_connect(ws_path(room, room["spectator"])) as watcher,
    ):
        for ws in (host, watcher):
            assert next_board(ws)[0] == 0
        version = api_move(client, room, 0, 0)
        seen, html = next_board(watcher)
        while seen < version:
            seen, html = next_board(watcher)
        assert html.startswith(PATCH_PREFIX)
        header = json.loads(html[len(PATCH_PREFIX) : html.index("-->")])
        assert header["version"] == "1" and header["base"] != header["frame"]
        assert 'id="log-newest"' in html and 'id="board"' not in html
        watcher.send_text(WHOLE_BOARD_PLEASE)
        seen, html = next_board(watcher)
        assert seen == 1 and html.lstrip().startswith('<div id="board"')
        assert f'data-frame="{header["frame"]}"' in html
