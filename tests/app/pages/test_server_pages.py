"""The page's move form: the same service as the API, refusals told in the panel, and a move
committed and drawn in a worker thread, never on the event loop."""

from __future__ import annotations

import json
import re
import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from support.boards import next_board
from support.rooms import bearer, first_action, new_room, play_first

from app.routes import pages
from app.services import moves


def seated(client: TestClient, room: dict[str, Any], seat: int) -> None:
    """This client's browser holds `seat` of the room (the seat link sets the room's cookie)."""
    assert client.get(f"/s/{room['tokens'][seat]}", follow_redirects=False).status_code == 303


def a_move(client: TestClient, room: dict[str, Any], seat: int) -> str:
    """The seat's first action, as the page's move field carries it (JSON)."""
    return json.dumps(first_action(client, room["room"], room["tokens"][seat])[0])


def post_form(client: TestClient, room: dict[str, Any], **fields: str) -> Any:
    return client.post(f"/rooms/{room['room']}/moves", data=fields)


def test_a_move_from_the_page_is_answered_in_the_panel_and_its_board_comes_by_socket(
    client: TestClient,
) -> None:
    """The answer says what happened and carries no board; the mover's own socket brings the
    board of the new version, as the opponent's does."""
    room = new_room(client)
    seated(client, room, 0)
    move = a_move(client, room, 0)
    with client.websocket_connect(f"/ws/rooms/{room['room']}") as socket:
        assert next_board(socket)[0] == 0
        answer = post_form(client, room, move=move, version="0", client_move_id="p1")
        assert answer.status_code == 200, answer.text
        assert 'id="board"' not in answer.text and "board-patch" not in answer.text
        assert '<h2 id="panel-title" tabindex="-1">Done</h2>' in answer.text
        assert 'data-version="1"' in answer.text  # the version the message tells of
        assert "Player 1 built" in answer.text
        seen, _ = next_board(socket)
        while seen < 1:  # presence updates may come first
            seen, _ = next_board(socket)
        assert seen == 1
    log = client.get(f"/api/rooms/{room['room']}/moves", headers=bearer(room["spectator"]))
    assert [m["move"] for m in log.json()["moves"]] == [json.loads(move)]


def test_a_sell_answer_says_the_turn_goes_on_and_a_repeated_post_tells_the_same(
    client: TestClient,
) -> None:
    """Told from the move the service applied: the hint after a sell, and the same answer for
    the same form posted again (the client move id already used), without a second move."""
    room = new_room(client)
    seated(client, room, 0)
    move = a_move(client, room, 0)
    assert post_form(client, room, move=move, version="0", client_move_id="b").status_code == 200
    replied = play_first(client, room["room"], room["tokens"][1], version=1)
    assert replied.status_code == 200, replied.text
    legal = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(room["tokens"][0]))
    sell = json.dumps(next(m for m in legal.json()["moves"] if m["type"] == "sell"))
    fields = {"move": sell, "version": "2", "client_move_id": "s"}
    sold = post_form(client, room, **fields)
    assert sold.status_code == 200, sold.text
    assert "Your turn goes on: build or use a building." in sold.text
    assert "Player 1 sold" in sold.text
    again = post_form(client, room, **fields)
    assert again.status_code == 200, again.text
    assert 'id="board"' not in again.text
    assert again.text == sold.text
    log = client.get(f"/api/rooms/{room['room']}/moves", headers=bearer(room["spectator"]))
    assert len(log.json()["moves"]) == 3


def test_a_refused_move_is_answered_with_the_current_board(client: TestClient) -> None:
    room = new_room(client)
    seated(client, room, 0)
    move = a_move(client, room, 0)
    assert post_form(client, room, move=move, version="0", client_move_id="a").status_code == 200
    stale = post_form(client, room, move=move, version="0", client_move_id="b")
    assert stale.status_code == 409
    assert "Nothing changed. The board shows the current position." in stale.text
    assert 'id="board"' in stale.text and 'data-version="1"' in stale.text


def test_page_refusals_are_told_in_the_panel(client: TestClient) -> None:
    room = new_room(client)
    move = a_move(client, room, 0)
    assert post_form(client, room, move=move, version="0", client_move_id="x").status_code == 403
    seated(client, room, 1)
    not_yours = post_form(client, room, move=move, version="0", client_move_id="x")
    assert not_yours.status_code == 403  # as the JSON API answers it
    assert "It is not your turn." in not_yours.text
    seated(client, room, 0)
    stale = post_form(client, room, move=move, version="5", client_move_id="x")
    assert stale.status_code == 409
    assert "The board changed before your move arrived" in stale.text
    illegal = post_form(client, room, move='{"type":"nope"}', version="0", client_move_id="x")
    assert illegal.status_code == 422
    assert "Unknown move type &#39;nope&#39;: a move is a build, a use, a sell or a pass." in (
        illegal.text
    )
    assert post_form(client, room, move=move, version="0", client_move_id="p").status_code == 200
    reused = post_form(client, room, move='{"type":"pass"}', version="1", client_move_id="p")
    assert reused.status_code == 409
    assert "This id was used for another move." in reused.text


def test_a_refused_move_is_told_with_its_specific_reason_in_czech(client: TestClient) -> None:
    room = new_room(client)
    seated(client, room, 0)
    client.cookies.set("lang", "cs")
    unpaid = json.dumps({"type": "build", "building": "hardware_store", "payment": {}})
    refused = post_form(client, room, move=unpaid, version="0", client_move_id="x")
    assert refused.status_code == 422
    assert "Tah neproběhl" in refused.text
    assert "Touto platbou nelze zaplatit budovu Stavebniny" in refused.text
    assert "zaplatí 0 jílů, ne 2 jíly." in refused.text
    seated(client, room, 1)
    not_yours = post_form(client, room, move=unpaid, version="0", client_move_id="y")
    assert not_yours.status_code == 403 and "Nejste na tahu." in not_yours.text


@pytest.mark.parametrize(
    "body",
    [b"", b"\xff\xfe\x00garbage", b"version=" + b"9" * 5000, b"version=%C2%B2&move=x", b"%%%"],
)
def test_malformed_move_forms_get_a_4xx(client: TestClient, body: bytes) -> None:
    room = new_room(client)
    seated(client, room, 0)
    answer = client.post(
        f"/rooms/{room['room']}/moves",
        content=body,
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert 400 <= answer.status_code < 500, answer.text


def test_a_move_from_the_page_does_not_hold_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a page's move is being committed, the server answers other requests.

    The commit is held until /healthz has been answered (or 5 s have passed). A route that ran
    on the event loop would hold the loop as well, and /healthz would only be answered after.
    """
    room = new_room(client)
    seated(client, room, 0)
    move = a_move(client, room, 0)
    submit = moves.submit_move
    committing, answered = threading.Event(), threading.Event()
    waited: list[bool] = []

    def slow_submit(*args: Any, **kwargs: Any) -> moves.MoveResult:
        result = submit(*args, **kwargs)
        committing.set()
        waited.append(answered.wait(timeout=5))
        return result

    monkeypatch.setattr(moves, "submit_move", slow_submit)
    posted: list[int] = []
    poster = threading.Thread(
        target=lambda: posted.append(
            post_form(client, room, move=move, version="0", client_move_id="slow").status_code
        )
    )
    poster.start()
    try:
        assert committing.wait(timeout=10)
        assert client.get("/healthz").status_code == 200
        answered.set()
    finally:
        answered.set()
        poster.join(timeout=20)
    assert posted == [200]
    assert waited == [True], "/healthz waited for the move: the move ran on the event loop"


def test_a_room_removed_while_its_page_is_drawn_gets_the_error_page(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The room lifetime sweep may remove a room between two reads of one page: the browser
    gets the error page in its language, not the API's JSON."""
    room = new_room(client)
    seated(client, room, 0)
    real = pages.chat_page_context

    def removed_meanwhile(session: Any, **kwargs: Any) -> Any:
        session.execute(text("DELETE FROM rooms WHERE id = :id"), {"id": room["room"]})
        session.commit()
        return real(session, **kwargs)

    monkeypatch.setattr(pages, "chat_page_context", removed_meanwhile)
    page = client.get(f"/rooms/{room['room']}", headers={"Accept-Language": "cs"})
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert "Taková místnost neexistuje" in page.text  # the title, in the viewer's language
    api = client.get(f"/api/rooms/{room['room']}", headers=bearer(room["tokens"][0]))
    assert api.status_code == 404 and api.json()["code"] == "room_not_found"


def test_a_panel_form_the_browser_sent_itself_plays_the_move_and_goes_back_to_the_table(
    client: TestClient,
) -> None:
    """Without htmx (a script that did not load, a quick keyboard) the browser posts the form
    itself: the move is played and the answer takes it back to the table."""
    room = new_room(client)
    seated(client, room, 0)
    move = a_move(client, room, 0)
    answer = client.post(
        f"/rooms/{room['room']}/moves",
        data={"move": move, "version": "0", "client_move_id": "n1"},
        headers={"Sec-Fetch-Mode": "navigate"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/rooms/{room['room']}"
    state = client.get(f"/api/rooms/{room['room']}", headers=bearer(room["tokens"][0])).json()
    assert state["version"] == 1


def test_the_panel_s_move_forms_post_without_htmx_too(client: TestClient) -> None:
    room = new_room(client)
    seated(client, room, 0)
    building = json.loads(a_move(client, room, 0))["building"]
    panel = client.get(f"/rooms/{room['room']}/panel", params={"building": building})
    form = re.search(r'<form class="confirm-form"[^>]*>', panel.text)
    assert form is not None, panel.text
    assert f'method="post" action="/rooms/{room["room"]}/moves"' in form[0]
