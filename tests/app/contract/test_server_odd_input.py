"""Odd input gets a 4xx, never a 500: nesting 3,000 deep, digits that are not ASCII, 5,000-digit
numbers, NUL (PostgreSQL refuses it in text), invalid UTF-8, very long arrays; and HEAD is
answered wherever GET is. Each on SQLite and PostgreSQL (the `client` fixture)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi.testclient import TestClient
from support.fuzz import HttpRoute, http_routes, shared_room
from support.rooms import bearer

from app.edge.cookies import cookie_name
from app.main import create_app
from app.settings import Settings

FORM = {"content-type": "application/x-www-form-urlencoded"}
JSON = {"content-type": "application/json"}
PASS = b"%7B%22type%22%3A%22pass%22%7D"  # {"type":"pass"}, URL-encoded
DEEP = b"[" * 3000 + b"]" * 3000
LONG = b'{"type":"use","building":"restaurant","payments":[' + b"0," * 5000 + b"0]}"
DIGITS = b"9" * 5000


def seated(client: TestClient, room: dict[str, Any]) -> None:
    client.cookies.clear()
    assert client.get(f"/s/{room['tokens'][0]}", follow_redirects=False).status_code == 303


ODD_API_MOVES = [
    b'{"move": ' + DEEP + b', "version": 0, "client_move_id": "a"}',
    b'{"move": ' + LONG + b', "version": 0, "client_move_id": "a"}',
    b'{"move": {"type": "pass"}, "version": ' + DIGITS + b', "client_move_id": "a"}',
    b'{"move": {"type": "pass"}, "version": "\xc2\xb2", "client_move_id": "a"}',
    b'{"move": {"type": "pa\\u0000ss"}, "version": 0, "client_move_id": "a"}',
    b'{"move": {"type": "build", "building": "\\u0000"}, "version": 0, "client_move_id": "a"}',
    b'{"move": {"type": "pass"}, "version": 0, "client_move_id": "\\u0000"}',
    b'{"move": "\xff", "version": 0, "client_move_id": "a"}',
    b'{"move": "\\ud800", "version": 0, "client_move_id": "a"}',
]
"""Moves nested 3,000 deep, with 5,000 items, versions of 5,000 digits or "²", NUL, no UTF-8."""


def test_odd_api_moves_get_a_4xx(client: TestClient) -> None:
    room = shared_room(client)
    for body in ODD_API_MOVES:
        response = client.post(
            f"/api/rooms/{room['room']}/moves",
            content=body,
            headers={**bearer(room["tokens"][0]), **JSON},
        )
        assert 400 <= response.status_code < 500, (body[:80], response.text[:300])
        assert response.status_code != 413, "within the body limit: the odd value is refused"


ODD_MOVE_FORMS = [
    b"move=" + b"%5B" * 3000 + b"&version=0&client_move_id=a",
    b"move=" + quote(LONG, safe=",").encode() + b"&version=0&client_move_id=a",
    b"move=" + PASS + b"&version=" + DIGITS + b"&client_move_id=a",
    b"move=" + PASS + b"&version=%C2%B2&client_move_id=a",
    b"move=" + PASS + b"&version=%D9%A1&client_move_id=a",
    b"move=%00&version=0&client_move_id=a",
    b"move=" + PASS + b"&version=%00&client_move_id=a",
    b"move=" + PASS + b"&version=0&client_move_id=%00",
    b"move=%ff%fe&version=0&client_move_id=a",
    b"move=\xff&version=\xfe&client_move_id=\xfd",
]
"""The page's move form, with the same odd values (and "١", an Arabic-Indic one)."""


def test_odd_move_forms_get_a_4xx(client: TestClient) -> None:
    room = shared_room(client)
    seated(client, room)
    for body in ODD_MOVE_FORMS:
        response = client.post(f"/rooms/{room['room']}/moves", content=body, headers=FORM)
        assert 400 <= response.status_code < 500, (body[:80], response.text[:300])
        assert response.status_code != 413, "within the body limit: the odd value is refused"


ODD_PAGE_FORMS = [
    ("/language", b"lang=%00&next=/"),
    ("/language", b"lang=\xff&next=/"),
    ("/rooms", b"host_seat=%00&computer="),
    ("/rooms", b"host_seat=%C2%B2&computer=%ff"),
    ("/rooms", b"host_seat=0&computer=" + DIGITS),
]


def test_odd_page_forms_get_a_4xx(client: TestClient) -> None:
    for path, body in ODD_PAGE_FORMS:
        response = client.post(path, content=body, headers=FORM, follow_redirects=False)
        assert 400 <= response.status_code < 500, (path, body[:80], response.text[:300])


def test_the_language_switcher_sends_an_odd_next_home(client: TestClient) -> None:
    for target in (b"/%00", b"/%0d%0aSet-Cookie:x=1", b"/\xff"):
        response = client.post(
            "/language", content=b"lang=cs&next=" + target, headers=FORM, follow_redirects=False
        )
        assert response.status_code == 303
        assert response.headers["location"] in ("/", "/%EF%BF%BD"), response.headers


ODD_PATHS = [
    "/s/a%00b",
    "/w/%00",
    "/i/%ff%fe",
    "/s/" + "9" * 5000,
    "/rooms/%00",
    "/rooms/%ff/panel?building=pier",
    "/api/rooms/%00",
    "/api/rooms/%ff/legal",
]


def test_odd_path_segments_get_a_4xx(client: TestClient) -> None:
    for url in ODD_PATHS:
        response = client.get(url, follow_redirects=False)
        assert 400 <= response.status_code < 500, (url, response.text[:300])


def test_odd_tokens_and_cookies_get_a_4xx(client: TestClient) -> None:
    room = shared_room(client)
    client.cookies.clear()
    for token in (b"a\x01b", b"\xff\xfe", b"\xc2\xb2" * 100, DIGITS):
        odd_token_is_refused(client, room, token)


def odd_token_is_refused(client: TestClient, room: dict[str, Any], token: bytes) -> None:
    api = client.get(f"/api/rooms/{room['room']}", headers=[(b"authorization", b"Bearer " + token)])
    assert api.status_code == 403, api.text
    cookie = cookie_name(room["room"]).encode() + b"=" + token + b"; lang=" + token
    page = client.get(f"/rooms/{room['room']}", headers=[(b"cookie", cookie)])
    assert page.status_code == 403, page.text[:300]
    invite = client.post(f"/api/invites/{quote(token, safe='')}")
    assert 400 <= invite.status_code < 500, invite.text


ODD_PANEL_QUERIES = [
    b"building=%00",
    b"building=%ff",
    b"building=marketplace&touched=%00&steps.fish=%C2%B2",
    b"building=grocery_store&touched=1&payment=" + DIGITS,
    b"building=grocery_store&touched=1&payment=%C2%B2",
    b"building=grocery_store&touched=1&payment=%00",
    b"%ff=%fe&building=grocery_store&touched=1&payment=%ff",
]


def test_the_panel_answers_odd_picked_values_with_its_reason(client: TestClient) -> None:
    """The panel is the form's live answer: an odd value is shown as no move, with why (the
    steppers' odd numbers are in tests/app/ui/test_ui_panel.py)."""
    room = shared_room(client)
    seated(client, room)
    for query in ODD_PANEL_QUERIES:
        response = client.get(f"/rooms/{room['room']}/panel?{query.decode()}")
        assert response.status_code == 200, (query[:80], response.text[:300])
        assert 'name="move"' not in response.text, query[:80]


ROUTES = http_routes(create_app(Settings(database_url="sqlite://")))
GET_ROUTES = [route for route in ROUTES if "GET" in route.methods]


def test_head_answers_wherever_get_does(client: TestClient) -> None:
    room = shared_room(client)
    seated(client, room)
    for route in GET_ROUTES:
        head_is_get_without_a_body(client, room, route)


def head_is_get_without_a_body(client: TestClient, room: dict[str, Any], route: HttpRoute) -> None:
    link = {
        "/s/": room["tokens"][0],
        "/w/": room["spectator"],
        "/i/": room["invite"],
        "/r/": room["tokens"][0],
    }
    values = {
        "room_id": room["room"],
        "token": link.get(route.path[:3], ""),
        "path": "css/base.css",
        "kind": "json",
    }
    url = route.url({name: values[name].encode() for name in route.params})
    url += "?building=grocery_store" if url.endswith("/panel") else ""
    headers = bearer(room["tokens"][0]) if url.startswith("/api/") else {}
    got = client.get(url, headers=headers, follow_redirects=False)
    head = client.head(url, headers=headers, follow_redirects=False)
    assert got.status_code < 400, (url, got.status_code)
    assert head.status_code == got.status_code, url
    assert head.headers.get("content-type") == got.headers.get("content-type"), url
    assert head.content == b""


def test_every_get_route_is_checked_for_head() -> None:
    """The walk finds the pages, the API, the links, the docs and the static files."""
    paths = {route.path for route in GET_ROUTES}
    assert {"/", "/rooms/{room_id}/panel", "/api/rooms/{room_id}", "/s/{token}"} <= paths
    assert {"/docs", "/healthz", "/static/{path}"} <= paths
