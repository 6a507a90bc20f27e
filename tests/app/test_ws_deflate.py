"""The sockets' permessage-deflate settings: what `python -m app` starts uvicorn with, and what a
real server agrees to with a client that offers compression."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.sync.client import connect

from app.__main__ import websocket_protocol_for
from app.settings import Settings
from bench.appserver import AppServer


def offer(settings: Settings) -> list[ServerPerMessageDeflateFactory]:
    return list(websocket_protocol_for(settings).offered_extensions)  # type: ignore[attr-defined]


def test_the_server_offers_a_4_kib_window_and_mem_level_5_by_default() -> None:
    settings = Settings()
    assert (settings.ws_deflate, settings.ws_deflate_window_bits) == (True, 12)
    assert settings.ws_deflate_mem_level == 5
    [factory] = offer(settings)
    assert factory.server_max_window_bits == 12
    assert factory.client_max_window_bits == 12
    assert factory.compress_settings == {"memLevel": 5}


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
