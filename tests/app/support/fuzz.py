"""What the fuzz tests send: the app's routes (walked, so a new route is fuzzed without a word
here), path params that are the room's own ids and tokens or garbage, and odd bodies, query
strings, cookies and socket messages."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI
from fastapi.routing import iter_route_contexts
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from support.rooms import new_room, token_of

FUZZ = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@dataclass(frozen=True)
class HttpRoute:
    path: str
    """The path template, "/rooms/{room_id}/panel"; a mount is "/static/{path}"."""
    methods: frozenset[str]

    @property
    def params(self) -> list[str]:
        return re.findall(r"\{(\w+)(?::\w+)?\}", self.path)

    def url(self, values: dict[str, bytes]) -> str:
        """The path with each param percent-encoded from its bytes (invalid UTF-8 included)."""
        return re.sub(
            r"\{(\w+)(?::\w+)?\}", lambda m: quote(values[m.group(1)], safe="") or "x", self.path
        )


def http_routes(app: FastAPI) -> list[HttpRoute]:
    """Every HTTP route of the app, the routers' and the mounts' (sockets are fuzzed apart)."""
    routes = []
    for context in iter_route_contexts(app.routes):
        if context.methods is not None:
            routes.append(HttpRoute(context.path, frozenset(context.methods)))
        elif context.path and not context.path.startswith("/ws/"):
            routes.append(HttpRoute(context.path.rstrip("/") + "/{path}", frozenset({"GET"})))
    return routes


def shared_room(client: TestClient) -> dict[str, Any]:
    """One room per test (kept on the app): fuzzing changes it at will, and only one is made."""
    state = client.app.state  # type: ignore[attr-defined]
    if not hasattr(state, "fuzz_room"):
        room = new_room(client)
        state.fuzz_room = {**room, "invite": token_of(room["invite_link"])}
    room: dict[str, Any] = state.fuzz_room
    return room


SHORT_ODD_STRINGS = [
    "",
    "\x00",
    "a\x00b",
    "²",
    "١٢",
    "０",
    "-1",
    "1e400",
    "NaN",
    " 1 ",
    "%",
    "%zz",
    "../../etc/passwd",
    "<script>",
    "\u202e",
    "\ufeff",
]
"""Strings that have broken servers: NUL (PostgreSQL refuses it), digits that are not ASCII,
escapes, markup, bidi and BOM marks."""
ODD_STRINGS = [*SHORT_ODD_STRINGS, "9" * 5000, "x" * 300]
"""And a number longer than Python converts from text, and a long text."""

odd_text = st.sampled_from(ODD_STRINGS) | st.text(max_size=30)
odd_bytes = (
    odd_text.map(str.encode)
    | st.binary(max_size=30)
    | st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"a\xffb"])
)
"""Odd text as bytes, and bytes that are no UTF-8 at all (a lone byte, a surrogate, overlong)."""

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(SHORT_ODD_STRINGS)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)

ODD_RAW_BODIES = [
    b"",
    b"\xff\xfe",
    b"[" * 3000 + b"]" * 3000,
    b'{"a":' * 3000 + b"1" + b"}" * 3000,
    b"[" + b"0," * 5000 + b"0]",
    b'{"move": {"type": "pass"}, "version": ' + b"9" * 5000 + b', "client_move_id": "a"}',
    b'{"move": {"type": "pass\\u0000"}, "version": 0, "client_move_id": "a"}',
    b'{"move": "\\ud800", "version": 0, "client_move_id": "a"}',
    b'{"move": NaN, "version": Infinity, "client_move_id": "a"}',
    b"move=" + b"%5B" * 3000 + b"&version=0&client_move_id=a",
    b"move=%ff&version=%C2%B2&client_move_id=%00",
    b"lang=%00&next=/%00",
    b"host_seat=%C2%B2&computer=%ff",
]
"""Bodies nested 3,000 deep, with 5,000 items or digits, NUL, lone surrogates, no UTF-8."""

FORM_FIELDS = [
    "move",
    "version",
    "client_move_id",
    "lang",
    "next",
    "host_seat",
    "computer",
    "building",
    "touched",
]


def encode_pairs(pairs: list[tuple[bytes, bytes]]) -> bytes:
    """A form body or query string from raw pairs, each side percent-encoded from its bytes."""
    return b"&".join(
        quote(k, safe="").encode() + b"=" + quote(v, safe="").encode() for k, v in pairs
    )


form_pairs = st.lists(
    st.tuples(st.sampled_from(FORM_FIELDS).map(str.encode) | odd_bytes, odd_bytes), max_size=6
)
bodies = st.one_of(
    json_values.map(lambda v: (json.dumps(v).encode(), "application/json")),
    form_pairs.map(lambda pairs: (encode_pairs(pairs), "application/x-www-form-urlencoded")),
    st.tuples(
        st.sampled_from(ODD_RAW_BODIES) | st.binary(max_size=200),
        st.sampled_from(
            ["application/json", "application/x-www-form-urlencoded", "text/plain", ""]
        ),
    ),
)
"""(body, content type): JSON, a form, or raw bytes sent as any of them."""

PANEL_FIELDS = [
    "building",
    "touched",
    "payment",
    "good",
    "times",
    "goods.fish",
    "steps.fish",
    "steps.wood",
    "pay.0",
    "pay.1",
]
BUILDINGS = ["marketplace", "wood_trader", "fish_market", "guild_hall", "grocery_store", "farm"]
query_pairs = st.lists(
    st.tuples(
        st.sampled_from(PANEL_FIELDS).map(str.encode) | odd_bytes,
        st.sampled_from([*BUILDINGS, "1", "0"]).map(str.encode) | odd_bytes,
    ),
    max_size=8,
)
"""The panel's picked values (and anything else) with odd values."""
