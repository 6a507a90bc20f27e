"""How often a takeback is asked for at one position: against the computer once (its answer
does not change), against a person twice (a decline may be thought over once)."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient
from support.rooms import bearer, new_room
from support.services import first_move_against

import engine
from app.services import takeback
from app.services.errors import EndingRefused


def _first_move(client: TestClient, room_id: str, token: str) -> None:
    move = engine.legal_moves(engine.new_game())[0].to_json()
    answer = client.post(
        f"/api/rooms/{room_id}/moves",
        json={"move": move, "version": 0, "client_move_id": uuid.uuid4().hex},
        headers=bearer(token),
    )
    assert answer.status_code == 200, answer.text


def test_a_person_is_asked_twice_at_most_at_one_position(client: TestClient) -> None:
    room = new_room(client)
    room_id, host, guest = room["room"], bearer(room["tokens"][0]), bearer(room["tokens"][1])
    _first_move(client, room_id, room["tokens"][0])
    for _ in range(2):
        assert client.post(f"/api/rooms/{room_id}/takeback", headers=host).status_code == 200
        declined = client.post(
            f"/api/rooms/{room_id}/takeback/answer", json={"accept": False}, headers=guest
        )
        assert declined.status_code == 200, declined.text
    again = client.post(f"/api/rooms/{room_id}/takeback", headers=host)
    assert again.status_code == 409 and again.json()["code"] == "takeback_asked_already"


def test_the_strong_computer_is_asked_once_at_one_position(database_url: str) -> None:
    with first_move_against(database_url, "strong") as (sessions, viewer, _):
        with sessions() as session:
            assert takeback.ask_takeback(session, viewer=viewer) is False
        with sessions() as session, pytest.raises(EndingRefused) as refused:
            takeback.ask_takeback(session, viewer=viewer)
    assert refused.value.code == "takeback_asked_already"


def test_the_table_offers_no_takeback_that_would_be_refused(client: TestClient) -> None:
    room = new_room(client)
    room_id, host, guest = room["room"], bearer(room["tokens"][0]), bearer(room["tokens"][1])
    _first_move(client, room_id, room["tokens"][0])
    for _ in range(2):
        assert 'id="takeback-button"' in client.get(f"/s/{room['tokens'][0]}").text
        client.post(f"/api/rooms/{room_id}/takeback", headers=host)
        client.post(f"/api/rooms/{room_id}/takeback/answer", json={"accept": False}, headers=guest)
    assert 'id="takeback-button"' not in client.get(f"/s/{room['tokens'][0]}").text
