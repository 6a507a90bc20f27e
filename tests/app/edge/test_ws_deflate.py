"""The sockets' permessage-deflate settings: what `python -m app` starts uvicorn with, and what a
real server agrees to with a client that offers compression."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.sync.client import connect

from app.__main__ import websocket_protocol_for
from app.settings import Settings
from bench.appserver import AppServer


def offer(settings: Settings) -> list[ServerPerMessageDeflateFactory]:
    return list(websocket_protocol_for(settings).offered_extensions)  # type: ignore[attr-defined]


def test_by_default_the_server_offers_a_32_kib_window_and_no_context_takeover() -> None:
    settings = Settings()
    assert (settings.ws_deflate, settings.ws_deflate_window_bits) == (True, 15)
    assert (settings.ws_deflate_mem_level, settings.ws_deflate_keep_context) == (5, False)
    [factory] = offer(settings)
    assert factory.server_max_window_bits == 15
    assert factory.client_max_window_bits == 15
    assert factory.compress_settings == {"memLevel": 5}
    assert factory.server_no_context_takeover and factory.client_no_context_takeover


def test_keeping_the_context_is_a_setting() -> None:
    [factory] = offer(Settings(ws_deflate_keep_context=True))
    assert not factory.server_no_context_takeover
    assert not factory.client_no_context_takeover


def test_the_settings_change_the_offer() -> None:
    [factory] = offer(Settings(ws_deflate_window_bits=15, ws_deflate_mem_level=8))
    assert (factory.server_max_window_bits, factory.compress_settings) == (15, {"memLevel": 8})
    assert offer(Settings(ws_deflate=False)) == []


@pytest.mark.parametrize("bits, level", [(8, 5), (16, 5), (12, 0), (12, 10)])
def test_settings_zlib_cannot_use_stop_the_start(bits: int, level: int) -> None:
    settings = Settings(ws_deflate_window_bits=bits, ws_deflate_mem_level=level)
    with pytest.raises(ValueError, match="WS_DEFLATE_"):
        websocket_protocol_for(settings)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[AppServer]:
    started = AppServer(tmp_path, env={"WS_DEFLATE_WINDOW_BITS": "11"})
    started.start()
    yield started
    started.stop()


@pytest.mark.slow
def test_a_started_server_agrees_to_its_window(server: AppServer) -> None:
    """`python -m app` with WS_DEFLATE_WINDOW_BITS=11: a client offering compression (as
    browsers do) is told to use 2 KiB windows both ways, and the board arrives."""
    with httpx.Client(timeout=10) as http:
        created = http.post(f"{server.url}/api/rooms", json={"host_seat": 0}).json()
    url = f"ws://127.0.0.1:{server.port}/ws/rooms/{created['room']}?token={created['token']}"
    with connect(url, compression="deflate") as ws:
        agreed = ws.response.headers["Sec-WebSocket-Extensions"] if ws.response else ""
        assert "permessage-deflate" in agreed
        assert "server_max_window_bits=11" in agreed
        assert "client_max_window_bits=11" in agreed
        assert 'id="board"' in str(ws.recv(timeout=10))


@pytest.fixture
def default_server(tmp_path: Path) -> Iterator[AppServer]:
    started = AppServer(tmp_path)
    started.start()
    yield started
    started.stop()


@pytest.mark.slow
def test_a_started_server_compresses_each_message_alone(default_server: AppServer) -> None:
    """`python -m app` with the default settings: a client offering compression (as browsers
    do) is told that neither side keeps a context, and still gets compressed boards."""
    with httpx.Client(timeout=10) as http:
        created = http.post(f"{default_server.url}/api/rooms", json={"host_seat": 0}).json()
    port = default_server.port
    url = f"ws://127.0.0.1:{port}/ws/rooms/{created['room']}?token={created['token']}"
    with connect(url, compression="deflate") as ws:
        agreed = ws.response.headers["Sec-WebSocket-Extensions"] if ws.response else ""
        assert "server_no_context_takeover" in agreed
        assert "client_no_context_takeover" in agreed
        assert 'id="board"' in str(ws.recv(timeout=10))
        ws.send("hello")  # compressed alone, as agreed: the server inflates it and answers
        answer = str(ws.recv(timeout=10))
        while 'id="board"' in answer:  # a board redrawn meanwhile (presence) may come first
            answer = str(ws.recv(timeout=10))
        assert "move-error" in answer


async def _greet_then_echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A bare ASGI app: accepts a socket, then echoes what it is sent."""
    assert scope["type"] == "websocket"
    await receive()  # the connect
    await send({"type": "websocket.accept"})
    while (message := await receive())["type"] == "websocket.receive":
        await send({"type": "websocket.send", "text": message["text"]})


def test_an_open_socket_keeps_nothing_of_its_handshake() -> None:
    """Once a socket is open, its protocol holds neither the handshake's request nor its answer
    (their headers would stay walked by the collector for the socket's life), and the socket
    works on."""
    config = uvicorn.Config(
        _greet_then_echo,
        host="127.0.0.1",
        port=0,
        ws=websocket_protocol_for(Settings()),
        lifespan="off",
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        with connect(f"ws://127.0.0.1:{port}/", compression="deflate") as ws:
            ws.send("first")
            assert ws.recv(timeout=10) == "first"
            [protocol] = list(server.server_state.connections)
            assert isinstance(protocol, WebSocketsSansIOProtocol) and protocol.handshake_complete
            assert not hasattr(protocol, "request") and not hasattr(protocol, "response")
            ws.send("second")
            assert ws.recv(timeout=10) == "second"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
