"""The board's move log shows the room's newest happenings only; the review shows them all."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from support.rooms import bearer, new_room

from app.ui import roomlife


def test_the_board_shows_the_newest_happenings_and_the_review_all(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(roomlife, "MAX_BOARD_EVENTS", 2)
    room = new_room(client)
    room_id, host = room["room"], room["tokens"][0]
    for _ in range(3):
        answer = client.post(f"/api/rooms/{room_id}/seat-link", headers=bearer(host))
        assert answer.status_code == 200
    board = client.get(f"/s/{host}").text
    assert board.count('data-event="seat_link_reissued"') == 2
    assert 'id="earlier-events"' in board and f'href="/rooms/{room_id}/review"' in board
    review = client.get(f"/rooms/{room_id}/review").text
    assert review.count('data-event="seat_link_reissued"') == 3
    assert 'id="earlier-events"' not in review
