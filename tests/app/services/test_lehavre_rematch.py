"""A rematch after a Le Havre game: once every player asked (the computer at once), a new room
of the same game opens with the same seats, variant and computer seats at their strengths; each
player's link into their own seat is derived from their old seat token, as Inland Port's."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import update
from support.lehavre import lehavre_room, to_move
from support.rooms import bearer, token_of

from app.edge.tokens import rematch_token_for
from app.models import Room


def offer(client: TestClient, room: dict[str, Any], seat: int) -> Any:
    return client.post(f"/api/rooms/{room['room']}/rematch", headers=bearer(room["tokens"][seat]))


def stored(client: TestClient, room_id: str) -> Room:
    with client.app.state.sessionmaker() as session:  # type: ignore[attr-defined]
        found = session.get(Room, room_id)
        assert found is not None
        session.expunge(found)
        return found


def ended(client: TestClient, room_id: str) -> None:
    """The room's game over, as if it had been aborted (a game of three that has begun does
    not end early: a resignation hands the seat to the computer), so the computer moves no more."""
    with client.app.state.sessionmaker() as session:  # type: ignore[attr-defined]
        over = {"finished": True, "ending": "aborted", "ending_seat": 0}
        session.execute(update(Room).where(Room.id == room_id).values(**over))
        session.commit()


def test_every_player_asks_and_each_keeps_their_seat(client: TestClient) -> None:
    room = lehavre_room(client, 3)
    early = offer(client, room, 1)
    assert early.status_code == 409 and early.json()["code"] == "rematch_refused"
    aborted = client.post(f"/api/rooms/{room['room']}/abort", headers=bearer(room["tokens"][0]))
    assert aborted.status_code == 200
    spectator = bearer(token_of(room["spectator_link"]))
    watcher = client.post(f"/api/rooms/{room['room']}/rematch", headers=spectator)
    assert watcher.status_code == 403
    first = offer(client, room, 2)
    assert first.status_code == 200
    assert first.json() == {"offered_by": [False, False, True], "room": None, "seat_link": None}
    assert offer(client, room, 0).json()["room"] is None
    last = offer(client, room, 1).json()
    new_id = last["room"]
    assert new_id is not None and last["offered_by"] == [True, True, True]
    assert last["seat_link"].endswith("/s/" + rematch_token_for(room["tokens"][1]))
    new = stored(client, new_id)
    old = stored(client, room["room"])
    assert (new.game, new.players, new.computers, new.rematch_of) == ("lehavre", 3, "{}", old.id)
    assert json.loads(new.setup)["variant"] == json.loads(old.setup)["variant"] == "short"
    for seat, token in room["tokens"].items():
        again = offer(client, room, seat).json()  # each player's own link into their seat
        link_token = token_of(again["seat_link"])
        assert link_token == rematch_token_for(token)
        legal = client.get(f"/api/rooms/{new_id}/legal", headers=bearer(link_token))
        assert legal.status_code == 200, seat
    _, current = to_move(
        client, {"room": new_id, "tokens": {0: rematch_token_for(room["tokens"][0])}}
    )
    assert current in range(3)  # every seat is taken: the rematch has started


def test_the_computer_seats_come_along_at_their_strengths(client: TestClient) -> None:
    room = lehavre_room(client, 2, others=["strong"])
    resigned = client.post(f"/api/rooms/{room['room']}/resign", headers=bearer(room["tokens"][0]))
    assert resigned.status_code == 200
    answer = offer(client, room, 0).json()
    assert answer["room"] is not None  # the computer agrees at once
    new = stored(client, answer["room"])
    assert json.loads(new.computers) == {"1": "strong"} and new.players == 2


def test_a_player_who_resigned_plays_the_rematch_in_person(client: TestClient) -> None:
    room = lehavre_room(client, 3, others=["heuristic", "friend"])
    people = sorted(room["tokens"])
    assert people == [0, 2]
    resigned = client.post(f"/api/rooms/{room['room']}/resign", headers=bearer(room["tokens"][2]))
    assert resigned.status_code == 200  # the computer plays on for seat 3
    ended(client, room["room"])
    offer(client, room, 0)
    opened = offer(client, room, 2).json()
    assert json.loads(stored(client, opened["room"]).computers) == {"1": "heuristic"}


def test_the_page_offers_the_rematch(client: TestClient) -> None:
    room = lehavre_room(client, 3)
    client.post(f"/api/rooms/{room['room']}/abort", headers=bearer(room["tokens"][0]))
    client.get(f"/s/{room['tokens'][1]}")
    assert 'id="rematch-button"' in client.get(f"/rooms/{room['room']}").text
    asked = client.post(f"/rooms/{room['room']}/rematch")
    assert "It starts when every player agrees." in asked.text
    page = client.get(f"/rooms/{room['room']}").text
    assert 'id="rematch-button"' not in page and "Asked for a rematch: Player 2." in page
    client.cookies.clear()
    client.get(f"/w/{token_of(room['spectator_link'])}")
    page = client.get(f"/rooms/{room['room']}").text
    assert 'id="rematch-button"' not in page and "Asked for a rematch: Player 2." in page
