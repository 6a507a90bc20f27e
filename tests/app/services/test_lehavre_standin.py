"""A player gone in a Le Havre room: when the player to move has had no open page for
ABSENT_AFTER seconds, any other player may let the computer play for them until they come back
and take over; with two players the game may be claimed instead, as in Inland Port. Only the
absent player's own requests count as signs of life. Through the API and the pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.lehavre import lehavre_room, move, to_move, wait_for_turn
from support.rooms import bearer, token_of

from app.services import lock
from app.settings import Settings

ABSENT_AFTER = Settings().absent_after


@pytest.fixture
def absence_passes(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Moves the server's clock ABSENT_AFTER seconds and one more ahead (back after the test)."""
    monkeypatch.setattr(lock.clock, "ahead", lock.clock.ahead)

    def move_ahead() -> None:
        lock.clock.ahead += ABSENT_AFTER + 1

    return move_ahead


def act(client: TestClient, room: dict[str, Any], seat: int, what: str) -> Any:
    return client.post(f"/api/rooms/{room['room']}/{what}", headers=bearer(room["tokens"][seat]))


def events(client: TestClient, room: dict[str, Any]) -> list[tuple[str, int]]:
    found = client.get(f"/api/rooms/{room['room']}/events", headers=bearer(room["tokens"][0]))
    return [(e["kind"], e["seat"]) for e in found.json()["events"]]


def page_of(client: TestClient, room: dict[str, Any], seat: int) -> str:
    client.cookies.clear()
    client.get(f"/s/{room['tokens'][seat]}")
    return client.get(f"/rooms/{room['room']}").text


def test_the_computer_stands_in_for_the_player_gone_until_they_take_over(
    client: TestClient, absence_passes: Callable[[], None]
) -> None:
    room = lehavre_room(client, 3)
    _, gone = to_move(client, room)
    assert gone is not None
    here, third = (s for s in range(3) if s != gone)
    absence_passes()
    refused = act(client, room, gone, "standin")  # nobody stands in for themselves
    assert refused.status_code == 409 and refused.json()["code"] == "not_absent"
    spectator = bearer(token_of(room["spectator_link"]))
    watcher = client.post(f"/api/rooms/{room['room']}/standin", headers=spectator)
    assert watcher.status_code == 403
    present = act(client, room, here, "standin")  # the gone player's request was a sign of life
    assert present.status_code == 409 and present.json()["code"] == "not_absent"
    absence_passes()
    page = page_of(client, room, here)
    assert f"Player {gone + 1} has had no open page for a while." in page
    assert 'id="standin-button"' in page and 'id="claim-button"' not in page
    claim = act(client, room, here, "claim")
    assert claim.status_code == 409 and claim.json()["code"] == "claim_needs_two"
    started = act(client, room, here, "standin")
    assert started.status_code == 200 and started.json() == {"standin_seat": gone}
    got = wait_for_turn(client, room, {here, third})  # the computer played the turn
    assert not got["finished"]
    # the next player to move, gone too, gets the computer as well
    mover = got["summary"]["current"]
    other = third if mover == here else here
    absence_passes()
    second = act(client, room, other, "standin")
    assert second.status_code == 200 and second.json() == {"standin_seat": mover}
    again = act(client, room, other, "standin")  # whoever is to move, nobody new is gone
    assert again.status_code == 409
    assert again.json()["code"] in ("not_absent", "standin_playing")
    got = wait_for_turn(client, room, {other})  # the computer played both seats' turns
    assert not got["finished"]
    page = page_of(client, room, other)
    for seat in (gone, mover):
        assert f"The computer plays for Player {seat + 1} while they are away." in page
    assert 'id="take-over-button"' in page_of(client, room, mover)
    assert act(client, room, mover, "take-over").json() == {"standin_seat": None}
    # the first player back; the computer goes on standing in for the other
    assert f"The computer plays for Player {gone + 1} while they are away." in page_of(
        client, room, other
    )
    assert 'id="take-over-button"' in page_of(client, room, gone)
    foreign = act(client, room, here, "take-over")
    assert foreign.status_code == 409 and foreign.json()["code"] == "no_standin"
    back = act(client, room, gone, "take-over")
    assert back.status_code == 200 and back.json() == {"standin_seat": None}
    assert events(client, room) == [
        ("standin_started", gone),
        ("standin_started", mover),
        ("standin_ended", mover),
        ("standin_ended", gone),
    ]


def test_the_owner_cannot_play_over_the_stand_in(
    client: TestClient, absence_passes: Callable[[], None]
) -> None:
    room = lehavre_room(client, 3)
    version, gone = to_move(client, room)
    assert gone is not None
    here = (gone + 1) % 3
    absence_passes()
    assert act(client, room, here, "standin").status_code == 200
    # whether or not the computer moved already, the seat is the computer's until taken over
    over = move(client, room, gone, {"type": "take", "offer": "franc"}, version)
    assert over.status_code == 409 and over.json()["code"] == "standin_playing"


def test_with_two_players_the_game_may_be_claimed(
    client: TestClient, absence_passes: Callable[[], None]
) -> None:
    room = lehavre_room(client, 2)
    _, gone = to_move(client, room)
    assert gone is not None
    here = 1 - gone
    absence_passes()
    assert 'id="claim-button"' in page_of(client, room, here)
    claimed = act(client, room, here, "claim")
    assert claimed.status_code == 200 and claimed.json() == {"ending": "claimed", "seat": here}
    assert "The game was claimed: the opponent left." in page_of(client, room, here)
    again = act(client, room, gone, "take-over")
    assert again.status_code == 409
