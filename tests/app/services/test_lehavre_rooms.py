"""Le Havre rooms through the JSON API: one to five seats, an invite per seat, every move through
the one move service, refusals in Le Havre's words, whole games to the end (SQLite and PostgreSQL)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.lehavre import lehavre_room, move, to_move, wait_for_turn
from support.rooms import bearer, token_of


def test_every_other_seat_gets_its_own_invite_claimed_once(client: TestClient) -> None:
    created = client.post(
        "/api/rooms", json={"game": "lehavre", "others": ["friend"] * 3, "host_seat": "random"}
    ).json()
    assert created["game"] == "lehavre" and created["players"] == 4
    invites = [token_of(link) for link in created["invite_links"]]
    assert len(set(invites)) == 3 and created["token"] not in invites
    seats = []
    for invite in invites:
        first = client.post(f"/api/invites/{invite}")
        assert first.status_code == 200
        seats.append(first.json()["seat"])
        assert client.post(f"/api/invites/{invite}").status_code == 409
    assert sorted([*seats, created["seat"]]) == [0, 1, 2, 3]


def test_no_move_before_every_seat_is_taken(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"game": "lehavre", "others": ["friend"] * 2})
    room = {**created.json(), "tokens": {0: created.json()["token"]}}
    client.post(f"/api/invites/{token_of(room['invite_links'][0])}")
    refused = move(client, room, 0, {"type": "take", "offer": "franc"}, 0)
    assert refused.status_code == 409 and refused.json()["code"] == "not_started"
    assert to_move(client, room)[0] == 0


def test_the_solo_game_starts_at_once(client: TestClient) -> None:
    room = lehavre_room(client, 1)
    assert room["invite_links"] == []
    legal = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(room["tokens"][0]))
    played = move(client, room, 0, legal.json()["moves"][0], 0)
    assert played.status_code == 200 and played.json()["version"] == 1


def test_refusals_name_le_havres_codes_and_change_nothing(client: TestClient) -> None:
    room = lehavre_room(client, 3)
    version, seat = to_move(client, room)
    assert seat is not None
    other = (seat + 1) % 3
    legal = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(room["tokens"][seat]))
    first = legal.json()["moves"][0]
    assert move(client, room, other, first, version).json()["code"] == "not_your_turn"
    stale = move(client, room, seat, first, version + 1)
    assert stale.status_code == 409 and stale.json()["version"] == version
    bad = move(client, room, seat, {"type": "take", "offer": "gold"}, version)
    assert bad.status_code == 422
    assert bad.json()["code"] == "unknown_offer" and "gold" in bad.json()["detail"]
    assert to_move(client, room) == (version, seat)


@pytest.mark.parametrize("players", [2, 3])
def test_a_whole_short_game_is_played_through_the_api(client: TestClient, players: int) -> None:
    room = lehavre_room(client, players)
    rng = random.Random(players)
    version, seat = to_move(client, room)
    while seat is not None:
        token = room["tokens"][seat]
        legal = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(token)).json()
        assert legal["version"] == version and legal["moves"]
        chosen = rng.choice(legal["moves"])
        played = move(client, room, seat, chosen, version)
        assert played.status_code == 200, played.text
        again = move(client, room, seat, chosen, version)  # a retry answers the same
        assert again.json() == played.json()
        version, seat = played.json()["version"], played.json()["summary"]["current"]
    final = client.get(f"/api/rooms/{room['room']}", headers=bearer(room["tokens"][0])).json()
    assert final["finished"] and len(final["online"]) == players
    scores = final["result"]["scores"]
    assert len(scores) == players
    assert final["result"]["winners"] == [s for s, v in enumerate(scores) if v == max(scores)]


@pytest.mark.parametrize(
    "body",
    [
        {"game": "lehavre", "others": ["friend"] * 5},
        {"game": "lehavre", "players": 3},
        {"game": "lehavre", "host_seat": 2},
        {"game": "lehavre", "others": ["easy"]},
        {"game": "lehavre", "computer": "strong"},
        {"game": "lehavre", "variant": "long"},
        {"others": ["friend"]},
        {"game": "inland_port", "players": 3},
        {"game": "inland_port", "host_seat": 3},
        {"game": "inland_port", "variant": "short"},
        {"game": "chess"},
    ],
)
def test_a_room_that_does_not_fit_its_game_is_refused(client: TestClient, body: Any) -> None:
    refused = client.post("/api/rooms", json=body)
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_request"


INLAND_PORT_ONLY = [
    ("get", "/rooms/{room}/panel"),
]


@pytest.mark.parametrize(("method", "path"), INLAND_PORT_ONLY)
def test_what_le_havre_rooms_do_not_offer_yet_is_refused_plainly(
    client: TestClient, method: str, path: str
) -> None:
    room = lehavre_room(client, 2)
    client.get(f"/s/{room['tokens'][0]}")
    answer = client.request(
        method,
        path.format(room=room["room"]),
        headers={**bearer(room["tokens"][0]), "Origin": "http://testserver"},
    )
    assert answer.status_code == 409, answer.text
    assert "Le Havre" in answer.text


def test_resigning_ends_a_two_player_game(client: TestClient) -> None:
    two = lehavre_room(client, 2)
    version, seat = to_move(client, two)
    assert seat is not None
    resigned = client.post(f"/api/rooms/{two['room']}/resign", headers=bearer(two["tokens"][seat]))
    assert resigned.status_code == 200
    after = move(client, two, 1 - seat, {"type": "take", "offer": "franc"}, version)
    assert after.status_code == 403 and after.json()["code"] == "game_over"
    client.get(f"/s/{two['tokens'][1 - seat]}")
    page = client.get(f"/rooms/{two['room']}")
    assert "resigned" in page.text and 'id="lh-move"></div>' in page.text


def test_with_more_players_the_computer_plays_on_for_who_resigned(client: TestClient) -> None:
    room = lehavre_room(client, 3)
    _, seat = to_move(client, room)
    assert seat is not None
    quits = client.post(f"/api/rooms/{room['room']}/resign", headers=bearer(room["tokens"][seat]))
    assert quits.status_code == 200
    again = client.post(f"/api/rooms/{room['room']}/resign", headers=bearer(room["tokens"][seat]))
    assert again.status_code == 403
    humans = {s for s in room["tokens"] if s != seat}
    got = wait_for_turn(client, room, humans)  # the computer moved for the resigned seat
    assert not got["finished"] and got["version"] > 0
    events = client.get(f"/api/rooms/{room['room']}/events", headers=bearer(room["token"]))
    assert {"kind": "resigned", "seat": seat} in [
        {"kind": e["kind"], "seat": e["seat"]} for e in events.json()["events"]
    ]
    client.get(f"/s/{room['tokens'][seat]}")
    assert "the computer plays on" in client.get(f"/rooms/{room['room']}").text


def test_the_table_page_shows_every_seat_and_the_invites_to_the_host(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"game": "lehavre", "others": ["friend"] * 2}).json()
    host = client.get(f"/s/{created['token']}", follow_redirects=True)
    assert host.status_code == 200
    for link in created["invite_links"]:
        assert link in host.text
    watcher = TestClient(client.app)
    page = watcher.get(
        created["spectator_link"].replace("http://testserver", ""), follow_redirects=True
    )
    assert page.status_code == 200 and 'id="lh-harbour"' in page.text
    assert all(link not in page.text for link in created["invite_links"])


def test_a_short_game_with_two_computer_seats_is_played_to_the_end(client: TestClient) -> None:
    body = {
        "game": "lehavre",
        "others": ["heuristic", "friend", "strong"],
        "variant": "short",
        "host_seat": 0,
    }
    created = client.post("/api/rooms", json=body)
    assert created.status_code == 201, created.text
    room = created.json()
    assert len(room["invite_links"]) == 1  # seat 2's; the computer's seats need none
    guest = client.post(f"/api/invites/{token_of(room['invite_links'][0])}").json()
    assert guest["seat"] == 2
    tokens = {0: room["token"], 2: guest["token"]}
    rng = random.Random(4)
    got = wait_for_turn(client, room, set(tokens))
    while not got["finished"]:
        seat = got["summary"]["current"]
        legal = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(tokens[seat]))
        chosen = rng.choice(legal.json()["moves"])
        played = client.post(
            f"/api/rooms/{room['room']}/moves",
            json={
                "move": chosen,
                "version": got["version"],
                "client_move_id": f"h{got['version']}",
            },
            headers=bearer(tokens[seat]),
        )
        assert played.status_code == 200, played.text
        got = wait_for_turn(client, room, set(tokens))
    assert len(got["result"]["scores"]) == 4 and all(got["online"][s] for s in (1, 3))
