"""Takeback in Le Havre rooms, for any number of seats: a player asks to take back their own
actions since another player last acted; it happens once every other player a person holds
accepted (the computer's seats agree at once), and one decline ends the request. The log stays
append-only: replaying it (tests/app/conftest.py, after every test) gives the stored position."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.lehavre import end_turn, lehavre_room, play_legal, to_move, wait_for_turn
from support.rooms import answer_takeback as answer
from support.rooms import ask_takeback as ask
from support.rooms import bearer, token_of


def summary(client: TestClient, room: dict[str, Any]) -> tuple[int, Any]:
    got = client.get(f"/api/rooms/{room['room']}", headers=bearer(room["tokens"][0])).json()
    return got["version"], got["summary"]


def kinds(client: TestClient, room: dict[str, Any]) -> list[tuple[str, int | None]]:
    found = client.get(f"/api/rooms/{room['room']}/events", headers=bearer(room["tokens"][0]))
    return [(e["kind"], e["seat"]) for e in found.json()["events"]]


def board_of(client: TestClient, room: dict[str, Any], seat: int | None) -> str:
    """The room's page as `seat` (None: the spectator) sees it."""
    token = room["tokens"][seat] if seat is not None else token_of(room["spectator_link"])
    client.cookies.clear()
    client.get(f"/{'s' if seat is not None else 'w'}/{token}")
    return client.get(f"/rooms/{room['room']}").text


@pytest.fixture
def three(client: TestClient) -> dict[str, Any]:
    """Three people; the seat to move has taken one action (its turn goes on)."""
    room = lehavre_room(client, 3)
    _, seat = to_move(client, room)
    assert seat is not None
    before = summary(client, room)
    play_legal(client, room, seat)
    return {**room, "asker": seat, "others": [s for s in range(3) if s != seat], "before": before}


def test_every_other_person_must_accept(client: TestClient, three: dict[str, Any]) -> None:
    room, asker, (first, second) = three, three["asker"], three["others"]
    version, _ = summary(client, room)
    asked = ask(client, room, asker)
    assert asked.status_code == 200 and asked.json() == {"status": "asked"}
    for seat in (first, second, None):
        page = board_of(client, room, seat)
        assert f"Player {asker + 1} asks to take back their last action." in page
        assert ('id="takeback-accept"' in page) == (seat is not None)
    accepted = answer(client, room, first, True)
    assert accepted.status_code == 200
    assert accepted.json() == {"status": "accepted", "waiting_for": [second]}
    assert summary(client, room)[0] == version  # nothing taken back yet
    page = board_of(client, room, first)
    assert f"It waits for: Player {second + 1}." in page and 'id="takeback-accept"' not in page
    assert 'id="takeback-accept"' in board_of(client, room, second)
    again = answer(client, room, first, True)
    assert again.status_code == 409 and again.json()["code"] == "takeback_answered"
    last = answer(client, room, second, True)
    assert last.status_code == 200 and last.json() == {"status": "accepted"}
    after_version, after = summary(client, room)
    assert after_version == version + 1 and after == room["before"][1]
    log = client.get(f"/api/rooms/{room['room']}/moves", headers=bearer(room["tokens"][0])).json()
    assert log["moves"][-1] == {
        "seq": version,
        "seat": asker,
        "move": {"count": 1, "type": "takeback"},
    }
    assert kinds(client, room) == [("takeback_asked", asker), ("takeback_accepted", first)]
    for seat in (asker, first, None):
        assert f"Player {asker + 1}&#39;s last action was taken back." in board_of(
            client, room, seat
        )
    # the game goes on from the position before the action
    play_legal(client, room, asker)


def test_one_decline_ends_the_request(client: TestClient, three: dict[str, Any]) -> None:
    room, asker, (first, second) = three, three["asker"], three["others"]
    before = summary(client, room)
    assert ask(client, room, asker).status_code == 200
    assert answer(client, room, first, True).status_code == 200
    declined = answer(client, room, second, False)
    assert declined.status_code == 200 and declined.json() == {"status": "declined"}
    assert summary(client, room) == before
    assert kinds(client, room)[-1] == ("takeback_declined", second)
    for seat in (asker, first, None):
        page = board_of(client, room, seat)
        assert f"Player {second + 1} declined the takeback." in page
        assert 'id="takeback-request"' not in page
    late = answer(client, room, first, True)
    assert late.status_code == 409 and late.json()["code"] == "no_takeback"
    # a decline may be thought over once: asked twice at one position, then no more
    assert ask(client, room, asker).status_code == 200
    assert answer(client, room, first, False).status_code == 200
    third = ask(client, room, asker)
    assert third.status_code == 409 and third.json()["code"] == "takeback_asked_already"


def test_only_the_other_players_answer_and_no_spectator_acts(
    client: TestClient, three: dict[str, Any]
) -> None:
    room, asker, (first, _) = three, three["asker"], three["others"]
    spectator = bearer(token_of(room["spectator_link"]))
    url = f"/api/rooms/{room['room']}/takeback"
    refused = client.post(url, headers=spectator)
    assert refused.status_code == 403 and refused.json()["code"] == "not_a_player"
    nothing = ask(client, room, first)
    assert nothing.status_code == 409 and nothing.json()["code"] == "nothing_to_take_back"
    assert ask(client, room, asker).status_code == 200
    pending = ask(client, room, asker)
    assert pending.status_code == 409 and pending.json()["code"] == "takeback_pending"
    own = answer(client, room, asker, True)
    assert own.status_code == 409 and own.json()["code"] == "no_takeback"
    watcher = client.post(f"{url}/answer", json={"accept": True}, headers=spectator)
    assert watcher.status_code == 403 and watcher.json()["code"] == "not_a_player"
    assert kinds(client, room) == [("takeback_asked", asker)]


def test_a_move_lets_the_request_lapse(client: TestClient, three: dict[str, Any]) -> None:
    room, asker, (first, _) = three, three["asker"], three["others"]
    assert ask(client, room, asker).status_code == 200
    end_turn(client, room, asker)
    lapsed = answer(client, room, first, True)
    assert lapsed.status_code == 409 and lapsed.json()["code"] == "no_takeback"
    _, following = to_move(client, room)
    assert following is not None and following != asker
    play_legal(client, room, following)
    gone = ask(client, room, asker)  # another player acted after the asker's last action
    assert gone.status_code == 409 and gone.json()["code"] == "nothing_to_take_back"


def test_the_computer_seats_agree_at_once(client: TestClient) -> None:
    room = lehavre_room(client, 3, others=["heuristic", "friend"])
    people = set(room["tokens"])
    assert len(people) == 2
    seat = wait_for_turn(client, room, people)["summary"]["current"]
    other = (people - {seat}).pop()
    before = summary(client, room)
    play_legal(client, room, seat)
    assert ask(client, room, seat).json() == {"status": "asked"}
    done = answer(client, room, other, True)
    assert done.status_code == 200 and done.json() == {"status": "accepted"}
    assert summary(client, room)[1] == before[1]


def test_against_the_computer_alone_the_answer_comes_at_once(client: TestClient) -> None:
    room = lehavre_room(client, 2, others=["strong"])
    seat = wait_for_turn(client, room, {0})["summary"]["current"]
    assert seat == 0
    before = summary(client, room)
    play_legal(client, room, 0)
    accepted = ask(client, room, 0)
    assert accepted.status_code == 200 and accepted.json() == {"status": "accepted"}
    assert summary(client, room) == (before[0] + 2, before[1])
    once = ask(client, room, 0)
    assert once.status_code == 409 and once.json()["code"] == "nothing_to_take_back"


def test_the_pages_ask_and_answer(client: TestClient, three: dict[str, Any]) -> None:
    room, asker, (first, second) = three, three["asker"], three["others"]
    page = board_of(client, room, asker)
    assert 'id="takeback-button"' in page
    asked = client.post(f"/rooms/{room['room']}/takeback")
    assert asked.status_code == 200
    assert "Waiting for the other players" in asked.text
    board_of(client, room, first)
    accepted = client.post(f"/rooms/{room['room']}/takeback/accept")
    assert "It waits for the other players." in accepted.text
    board_of(client, room, second)
    cs = client.post(f"/rooms/{room['room']}/takeback/decline", headers={"Accept-Language": "cs"})
    assert cs.status_code == 200
    twice = client.post(f"/rooms/{room['room']}/takeback/decline")
    assert twice.status_code == 409 and "There is no takeback request" in twice.text
