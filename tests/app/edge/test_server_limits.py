"""Abuse limits: new rooms per address, open sockets per address, slow request headers."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette import status
from starlette.websockets import WebSocketDisconnect
from support.rooms import new_room

from app.edge.limits import TOO_MANY_SOCKETS, TokenBucket
from app.edge.protocol import HEADER_TIMEOUT
from app.main import create_app
from app.settings import Settings
from bench.appserver import AppServer


@pytest.fixture
def limited(settings: Settings) -> Iterator[TestClient]:
    """A server with the default limits (the other tests lift the room limit)."""
    defaults = Settings()
    with_limits = settings.model_copy(
        update={
            "rooms_per_minute": defaults.rooms_per_minute,
            "room_burst": defaults.room_burst,
            "sockets_per_address": 2,
        }
    )
    with TestClient(create_app(with_limits)) as test_client:
        yield test_client


def test_the_default_limits() -> None:
    defaults = Settings()
    assert (defaults.rooms_per_minute, defaults.room_burst) == (20, 5)
    assert defaults.sockets_per_address == 32


def _until_refused(post: Callable[[], httpx.Response], expected: int) -> httpx.Response:
    """Post until refused: `expected` are accepted, plus one per 3 s the posts took (20 a
    minute) on a slow machine."""
    started = time.monotonic()
    accepted = 0
    while (answer := post()).status_code != 429:
        assert answer.status_code in (201, 303), answer.text
        accepted += 1
        assert accepted <= expected + (time.monotonic() - started) / 3, "never refused"
    assert accepted >= expected
    # Retry-After: whole seconds until the bucket holds a room again (one every 3 s).
    assert 1 <= int(answer.headers["retry-after"]) <= 3
    return answer


def test_rooms_beyond_the_burst_get_429_with_retry_after(limited: TestClient) -> None:
    refused = _until_refused(lambda: limited.post("/api/rooms", json={"host_seat": 0}), 5)
    assert f"try again in {refused.headers['retry-after']} s" in refused.json()["detail"]
    # Another address is not concerned.
    other = TestClient(limited.app, client=("203.0.113.9", 4000))
    try:
        assert other.post("/api/rooms", json={"host_seat": 0}).status_code == 201
    finally:
        other.close()


def test_the_home_page_says_so_in_the_viewers_language(limited: TestClient) -> None:
    form = {"host_seat": "0", "computer": ""}
    czech = {"accept-language": "cs"}
    refused = _until_refused(
        lambda: limited.post("/rooms", data=form, headers=czech, follow_redirects=False), 5
    )
    assert "Za krátkou dobu jste založili mnoho místností" in refused.text
    assert 'class="start-form"' in refused.text  # the form is there to try again


def test_the_bucket_refills_at_the_rate_and_holds_the_burst() -> None:
    now = [0.0]
    bucket = TokenBucket(per_minute=20, burst=5, clock=lambda: now[0])
    assert [bucket.take("a") for _ in range(5)] == [0.0] * 5
    assert bucket.take("a") == pytest.approx(3.0)
    now[0] = 3.0
    assert bucket.take("a") == 0.0
    assert bucket.take("a") == pytest.approx(3.0)
    now[0] = 600.0  # a long pause refills the burst, never more
    assert [bucket.take("a") for _ in range(6)][-2:] == [0.0, pytest.approx(3.0)]


def test_sockets_beyond_the_cap_are_closed_with_1013(limited: TestClient) -> None:
    room = new_room(limited)
    path = f"/ws/rooms/{room['room']}?token={room['tokens'][0]}"
    with limited.websocket_connect(path) as first, limited.websocket_connect(path) as second:
        first.receive_text()
        second.receive_text()
        with limited.websocket_connect(path) as third, pytest.raises(WebSocketDisconnect) as closed:
            third.receive_text()
        assert closed.value.code == status.WS_1013_TRY_AGAIN_LATER
        assert closed.value.reason == TOO_MANY_SOCKETS
    # Once they are closed, the address may open sockets again.
    with limited.websocket_connect(path) as again:
        assert 'id="board"' in again.receive_text()


def test_request_headers_that_trickle_in_are_dropped_after_10_s(tmp_path: Path) -> None:
    assert HEADER_TIMEOUT == 10.0
    server = AppServer(tmp_path)
    server.start()
    try:
        # An idle kept-alive connection is not a slow one: it outlives the slow one below.
        kept = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        assert _get_healthz(kept).startswith(b"HTTP/1.1 200 ")
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as slow:
            started = time.monotonic()
            slow.sendall(b"GET / HT")  # half a request line, and then nothing
            time.sleep(3)
            slow.sendall(b"T")  # a byte now and then does not keep it open
            assert slow.recv(1024) == b""  # the server closed the connection
            waited = time.monotonic() - started
        assert HEADER_TIMEOUT - 0.5 <= waited <= HEADER_TIMEOUT + 3, waited
        # Idle for over 10 s (uvicorn's own default closes it after 5 s), the kept-alive
        # connection still takes the next request (KEEP_ALIVE_TIMEOUT, 65 s).
        with kept:
            assert _get_healthz(kept).startswith(b"HTTP/1.1 200 ")
        # A whole request on a fresh connection, and a kept-alive one, are answered as usual.
        with httpx.Client(base_url=server.url) as http:
            assert http.get("/healthz").status_code == 200
            time.sleep(1)
            assert http.get("/healthz").status_code == 200
    finally:
        server.stop()


def _get_healthz(connection: socket.socket) -> bytes:
    """`GET /healthz` on `connection`, kept alive; the whole answer (its head and body)."""
    connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = connection.recv(4096)
        assert chunk, "the server closed the connection"
        answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += connection.recv(4096)
    return head + b"\r\n\r\n" + body


def test_cross_site_posts_do_not_use_up_the_addresss_rooms(limited: TestClient) -> None:
    evil = {"origin": "https://evil.example"}
    for _ in range(10):
        assert limited.post("/api/rooms", json={}, headers=evil).status_code == 403
    _until_refused(lambda: limited.post("/api/rooms", json={"host_seat": 0}), 5)


def test_imports_and_forks_share_the_room_limit(limited: TestClient) -> None:
    """Forking a game and importing a record open rooms too: they draw on the same bucket."""
    for _ in range(5):
        assert limited.post("/api/rooms", json={"host_seat": 0}).status_code == 201
    imported = limited.post(
        "/import",
        content=b"record=x\r\n",
        headers={"Content-Type": "text/plain"},
        follow_redirects=False,
    )
    assert imported.status_code == 429
    assert 1 <= int(imported.headers["retry-after"]) <= 3
    forked = limited.post("/rooms/abc/fork", data={"at": "0", "seat": "0"})
    assert forked.status_code == 429
