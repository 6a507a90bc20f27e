"""Body size limits and Origin checks on HTTP requests."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi.testclient import TestClient
from support.rooms import bearer, new_room

from app.edge.guards import MAX_BODY_BYTES, origin_allowed


def test_bodies_over_16_kib_get_413(client: TestClient) -> None:
    room = new_room(client)
    body = b'{"move": "' + b"x" * MAX_BODY_BYTES + b'", "version": 0, "client_move_id": "a"}'
    response = client.post(
        f"/api/rooms/{room['room']}/moves",
        content=body,
        headers={**bearer(room["tokens"][0]), "content-type": "application/json"},
    )
    assert response.status_code == 413
    assert client.post("/api/rooms", content=b" " * (MAX_BODY_BYTES + 1)).status_code == 413


def test_streamed_bodies_without_a_length_are_cut_at_16_kib(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(20):
            yield b" " * 1024

    response = client.post(
        "/api/rooms", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def test_a_body_just_under_the_limit_is_read(client: TestClient) -> None:
    padding = " " * (MAX_BODY_BYTES - 40)
    response = client.post(
        "/api/rooms",
        content=f'{{"host_seat": 0{padding}}}'.encode(),
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 201


def test_posts_from_another_site_are_refused(client: TestClient) -> None:
    assert (
        client.post("/api/rooms", json={}, headers={"origin": "https://evil.example"}).status_code
        == 403
    )
    assert client.post("/api/rooms", json={}, headers={"origin": "null"}).status_code == 403
    assert (
        client.post("/api/rooms", json={}, headers={"origin": "http://testserver"}).status_code
        == 201
    )
    assert client.post("/api/rooms", json={}).status_code == 201  # not a browser page
    assert client.get("/healthz", headers={"origin": "https://evil.example"}).status_code == 200


def test_origin_rule() -> None:
    def check(origin: str | None, host: str, extra: frozenset[str] = frozenset()) -> bool:
        headers = [(b"host", host.encode())]
        if origin is not None:
            headers.append((b"origin", origin.encode()))
        return origin_allowed(headers, extra)

    assert check(None, "port.example")
    assert check("https://port.example", "port.example")
    assert check("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert check("https://port.example:443", "port.example")
    assert not check("http://127.0.0.1:8001", "127.0.0.1:8000")
    assert not check("https://port.example.evil.example", "port.example")
    assert not check("null", "port.example")
    assert not check("javascript:alert(1)", "port.example")
    assert check("https://cdn.example", "port.example", frozenset({"https://cdn.example"}))
