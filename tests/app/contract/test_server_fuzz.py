"""Fuzzing every route with Hypothesis: no request produces a server error (5xx), and no move
input changes a room it should not. The JSON API's schema-shaped inputs are Schemathesis's
(`test_api_contract.py`); here are what a schema cannot describe: every route with odd bytes,
cookies and query strings (the pages' included), and JSON the standard does not allow.

The routes are walked from the app (`support.fuzz.http_routes`), so a route added later is fuzzed
too: its path params are the room's own id and tokens or garbage, with odd bodies (JSON, forms,
raw bytes, invalid UTF-8, nesting 3,000 deep, 5,000 items, NUL), query strings, cookies and
headers. Each test runs on SQLite and on PostgreSQL (the `client` fixture).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from support.fuzz import (
    FUZZ,
    HttpRoute,
    bodies,
    encode_pairs,
    http_routes,
    odd_bytes,
    query_pairs,
    shared_room,
)
from support.rooms import bearer, new_room

from app.edge.cookies import cookie_name
from app.main import create_app
from app.settings import Settings

ROUTES = http_routes(create_app(Settings(database_url="sqlite://")))
METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
HOLDERS = ["room", "seat", "other seat", "spectator", "invite"]
"""What a path param, the Bearer token or the room's cookie holds: one of the room's own
values, or garbage."""


def held(room: dict[str, Any], holder: str, garbage: bytes) -> bytes:
    values = {
        "room": room["room"],
        "seat": room["tokens"][0],
        "other seat": room["tokens"][1],
        "spectator": room["spectator"],
        "invite": room["invite"],
    }
    return values[holder].encode() if holder in values else garbage


def header_safe(value: bytes) -> bytes:
    """A header value a server would pass on: HTTP servers refuse CR, LF and NUL themselves."""
    return bytes(b for b in value if b not in b"\r\n\x00")


holders = st.sampled_from([*HOLDERS, "garbage"])


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{'|'.join(sorted(r.methods))} {r.path}")
@settings(FUZZ, max_examples=15)
@given(data=st.data())
def test_every_route_answers_odd_requests_without_a_server_error(
    client: TestClient, route: HttpRoute, data: st.DataObject
) -> None:
    room = shared_room(client)
    client.cookies.clear()
    method = data.draw(st.sampled_from(sorted(route.methods)) | st.sampled_from(METHODS))
    path = {name: held(room, data.draw(holders), data.draw(odd_bytes)) for name in route.params}
    query = encode_pairs(data.draw(query_pairs)).decode()
    body, content_type = data.draw(bodies)
    headers = [(b"content-type", content_type.encode())] if content_type else []
    if data.draw(st.booleans()):
        token = held(room, data.draw(holders), data.draw(odd_bytes))
        headers.append((b"authorization", header_safe(b"Bearer " + token)))
    cookies = []
    if data.draw(st.booleans()):
        token = held(room, data.draw(holders), data.draw(odd_bytes))
        cookies.append(cookie_name(room["room"]).encode() + b"=" + token)
    if data.draw(st.booleans()):
        cookies.append(b"lang=" + data.draw(odd_bytes))
    if cookies:
        headers.append((b"cookie", header_safe(b"; ".join(cookies))))
    if data.draw(st.booleans()):
        headers.append((b"accept-language", header_safe(data.draw(odd_bytes))))
    url = route.url(path) + (f"?{query}" if query else "")
    response = client.request(method, url, content=body, headers=headers, follow_redirects=False)
    assert response.status_code < 500, (method, url, body[:200], response.text[:300])
    if method == "HEAD":
        assert response.content == b""


MOVE_FUZZ = settings(FUZZ, max_examples=60)


@MOVE_FUZZ
@given(
    raw=st.sampled_from(
        [
            b'{"move": NaN, "version": 0, "client_move_id": "a"}',
            b'{"move": {"type": "use", "building": "pier", "steps": {"fish": Infinity}},'
            b' "version": 0, "client_move_id": "a"}',
            b'{"move": {"type": "pass"}, "version": 1e400, "client_move_id": "a"}',
            b'{"move": {"type": "pass"}, "version": 0, "client_move_id": "\\ud800"}',
            b"\xff\xfe",
            b"",
            b"[" * 5000,
        ]
    )
    | st.binary(max_size=200)
)
def test_raw_bytes_as_a_move_never_fail_the_server(client: TestClient, raw: bytes) -> None:
    room = new_room(client)
    response = client.post(
        f"/api/rooms/{room['room']}/moves",
        content=raw,
        headers={**bearer(room["tokens"][0]), "content-type": "application/json"},
    )
    assert response.status_code in (403, 409, 422), response.text[:200]
