"""Fuzzing the JSON API with Hypothesis: no input produces a server error, none changes a room
it should not."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from server_support import bearer, new_room

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)
move_like = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["build", "use", "sell", "pass", "fly", ""]),
    },
    optional={
        "building": st.sampled_from(["wood_company", "marketplace", "farm", "nope", ""])
        | st.integers(),
        "payment": json_values,
        "payments": json_values,
        "good": json_values,
        "goods": json_values,
        "steps": json_values,
        "times": json_values,
    },
)
bodies = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {
            "move": move_like | json_values,
            "version": st.integers(min_value=-3, max_value=3) | json_values,
            "client_move_id": st.text(max_size=80) | json_values,
        }
    ),
)
FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(body=bodies)
@example(body={"move": {"type": "pass"}, "version": 0, "client_move_id": "a\x00b"})
@example(body={"move": {"type": "pass"}, "version": 0, "client_move_id": "\x00"})
def test_posting_any_json_as_a_move_never_fails_the_server(client: TestClient, body: Any) -> None:
    room = new_room(client)
    response = client.post(
        f"/api/rooms/{room['room']}/moves", json=body, headers=bearer(room["tokens"][0])
    )
    assert response.status_code in (200, 403, 409, 422), response.text
    if response.status_code == 200:
        assert response.json()["version"] == 1


@FUZZ
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
    path=st.sampled_from(
        [
            "/api/rooms",
            "/api/rooms/{room}",
            "/api/rooms/{room}/legal",
            "/api/rooms/{room}/moves",
            "/api/rooms/{room}/rematch",
            "/api/invites/{text}",
            "/api/rooms/{text}/moves",
            "/s/{text}",
            "/i/{text}",
            "/w/{text}",
            "/healthz",
        ]
    ),
    text=st.text(max_size=60),
    token=st.sampled_from(["seat", "spectator", "none", "garbage"]),
    body=json_values,
)
def test_any_request_to_the_api_gets_an_answer_not_a_server_error(
    client: TestClient, method: str, path: str, text: str, token: str, body: Any
) -> None:
    room = new_room(client)
    garbage = text.encode("ascii", "ignore").decode().strip() or "x"
    tokens = {"seat": room["tokens"][0], "spectator": room["spectator"], "garbage": garbage}
    headers = bearer(tokens[token]) if token in tokens else {}
    url = path.format(room=room["room"], text=quote(text, safe="") or "x")
    response = client.request(method, url, json=body, headers=headers, follow_redirects=False)
    assert response.status_code < 500, (method, url, response.text)


@FUZZ
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
    assert response.status_code in (400, 403, 409, 422), response.text[:200]
