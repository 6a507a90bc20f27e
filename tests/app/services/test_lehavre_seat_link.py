"""A new seat link in a Le Havre room: each seat's player gets one for their own seat, whatever
its number; the old link stops opening the room (the seat, its spectator link, its open pages),
the other seats keep theirs; a spectator, or a seat the computer took over, gets none."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from support.lehavre import lehavre_room, to_move
from support.rooms import bearer, token_of

from app.edge.tokens import spectator_token_for
from app.services.seats import MAX_REISSUES


def reissue(client: TestClient, room: dict[str, Any], seat: int) -> Any:
    return client.post(f"/api/rooms/{room['room']}/seat-link", headers=bearer(room["tokens"][seat]))


def opens(client: TestClient, room: dict[str, Any], token: str) -> bool:
    return client.get(f"/api/rooms/{room['room']}", headers=bearer(token)).status_code == 200


@pytest.mark.parametrize("players", [2, 3, 5])
def test_each_seat_gets_a_new_link_for_itself(client: TestClient, players: int) -> None:
    room = lehavre_room(client, players)
    for seat in range(players):
        old = room["tokens"][seat]
        answer = reissue(client, room, seat)
        assert answer.status_code == 200, answer.text
        assert answer.json()["seat"] == seat
        new = token_of(answer.json()["seat_link"])
        assert not opens(client, room, old) and opens(client, room, new)
        assert client.get(f"/w/{spectator_token_for(old)}").status_code == 404
        room["tokens"][seat] = new
        for other in range(players):  # the other seats keep their links
            assert opens(client, room, room["tokens"][other])
        legal = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(new))
        assert legal.status_code == 200  # a seat's own question
    events = client.get(f"/api/rooms/{room['room']}/events", headers=bearer(room["tokens"][0]))
    assert [(e["kind"], e["seat"]) for e in events.json()["events"]] == [
        ("seat_link_reissued", seat) for seat in range(players)
    ]


def test_a_spectator_and_a_seat_the_computer_took_get_none(client: TestClient) -> None:
    room = lehavre_room(client, 3)
    spectator = token_of(room["spectator_link"])
    watcher = client.post(f"/api/rooms/{room['room']}/seat-link", headers=bearer(spectator))
    assert watcher.status_code == 403 and watcher.json()["code"] == "not_a_player"
    client.get(f"/w/{spectator}")
    page = client.post(f"/rooms/{room['room']}/seat-link")
    assert page.status_code == 403 and "Only a player of this room" in page.text
    _, seat = to_move(client, room)
    assert seat is not None
    resigned = client.post(
        f"/api/rooms/{room['room']}/resign", headers=bearer(room["tokens"][seat])
    )
    assert resigned.status_code == 200
    taken = reissue(client, room, seat)
    assert taken.status_code == 409 and taken.json()["code"] == "seat_played_by_computer"


def test_one_seat_cannot_use_up_the_others_reissues(client: TestClient) -> None:
    room = lehavre_room(client, 3)
    for _ in range(MAX_REISSUES):
        answer = reissue(client, room, 1)
        assert answer.status_code == 200
        room["tokens"][1] = token_of(answer.json()["seat_link"])
    more = reissue(client, room, 1)
    assert more.status_code == 409 and more.json()["code"] == "too_many_reissues"
    assert reissue(client, room, 2).status_code == 200


def test_the_page_keeps_the_seat_in_its_own_browser_and_closes_the_old_pages(
    client: TestClient,
) -> None:
    room = lehavre_room(client, 3)
    room_id, old = room["room"], room["tokens"][2]
    client.get(f"/s/{old}")
    assert 'id="reissue-button"' in client.get(f"/rooms/{room_id}").text
    with client.websocket_connect(f"/ws/rooms/{room_id}?token={old}") as socket:
        socket.receive_text()
        answer = client.post(f"/rooms/{room_id}/seat-link")
        assert answer.status_code == 200 and "Your new seat link: http" in answer.text
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                socket.receive_text()
        assert closed.value.code == 1012
    page = client.get(f"/rooms/{room_id}")  # the cookie holds the new token
    assert page.status_code == 200 and 'id="reissue-button"' in page.text
    assert "(you)" in page.text
    client.cookies.clear()
    client.get(f"/s/{old}")
    assert client.get(f"/rooms/{room_id}").status_code == 403
