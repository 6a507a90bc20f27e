"""Moves through the JSON API: versions, idempotency, refusals, the log, the end and the rematch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from support.rooms import bearer, first_action, new_room, play, play_first, post_move

import engine
from app.models import Room

ROOT = Path(__file__).resolve().parents[3]


def room_state(client: TestClient, room: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/rooms/{room['room']}", headers=bearer(room["spectator"]))
    result: dict[str, Any] = response.json()
    return result


def test_a_legal_move_advances_the_version_and_the_summary(client: TestClient) -> None:
    room = new_room(client)
    move, _ = first_action(client, room["room"], room["tokens"][0])
    response = post_move(client, room["room"], room["tokens"][0], move, 0, "m1")
    assert response.status_code == 200
    body = response.json()
    expected = engine.summary(engine.apply(engine.new_game(), move))
    assert body == {"version": 1, "summary": expected}
    assert room_state(client, room)["summary"] == expected


def test_legal_moves_are_the_engines_and_empty_for_the_seat_not_to_move(
    client: TestClient,
) -> None:
    room = new_room(client)
    mover = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(room["tokens"][0]))
    waiting = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(room["tokens"][1]))
    expected = [m.to_json() for m in engine.legal_moves(engine.new_game())]
    assert mover.json() == {"version": 0, "moves": expected}
    assert waiting.json() == {"version": 0, "moves": []}
    spectator = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(room["spectator"]))
    assert spectator.status_code == 403


def test_a_stale_version_gets_409_with_the_current_version(client: TestClient) -> None:
    room = new_room(client)
    play_first(client, room["room"], room["tokens"][0], version=0)
    move, _ = first_action(client, room["room"], room["tokens"][1])
    stale = post_move(client, room["room"], room["tokens"][1], move, 0, "b")
    assert stale.status_code == 409
    assert stale.json()["version"] == 1
    assert stale.json()["code"] == "stale_version"
    assert stale.json()["params"] == {"current_version": 1}
    assert stale.json()["summary"] == room_state(client, room)["summary"]
    future = post_move(client, room["room"], room["tokens"][1], move, 7, "c")
    assert future.status_code == 409
    assert room_state(client, room)["version"] == 1


def test_a_repeated_client_move_id_gets_the_original_answer_and_applies_once(
    client: TestClient,
) -> None:
    room = new_room(client)
    move, _ = first_action(client, room["room"], room["tokens"][0])
    first = post_move(client, room["room"], room["tokens"][0], move, 0, "same-id")
    again = post_move(client, room["room"], room["tokens"][0], move, 0, "same-id")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    log = client.get(f"/api/rooms/{room['room']}/moves", headers=bearer(room["spectator"]))
    assert len(log.json()["moves"]) == 1
    # still the original answer after the game moved on
    play_first(client, room["room"], room["tokens"][1], version=1)
    late = post_move(client, room["room"], room["tokens"][0], move, 0, "same-id")
    assert late.json() == first.json()


def test_a_client_move_id_used_for_another_move_is_refused_and_stores_nothing(
    client: TestClient,
) -> None:
    room = new_room(client)
    token = room["tokens"][0]
    legal = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(token)).json()["moves"]
    move, other = [m for m in legal if m["type"] != "sell"][:2]
    first = post_move(client, room["room"], token, move, 0, "mine")
    assert first.status_code == 200
    after = room_state(client, room)
    for different in (other, {"type": "pass"}, "not a move", [1] * 1000):
        refused = post_move(client, room["room"], token, different, 0, "mine")
        assert refused.status_code == 409, refused.text
        assert refused.json() == {
            "detail": "This id was used for another move.",
            "code": "client_move_id_reused",
            "params": {},
        }
    # the same move written another way (its keys in another order) is the same move
    reordered = dict(reversed(list(move.items())))
    assert post_move(client, room["room"], token, reordered, 0, "mine").json() == first.json()
    assert (
        post_move(client, room["room"], token, json.dumps(move), 0, "mine").json() == first.json()
    )
    assert room_state(client, room) == after


def test_a_client_move_id_reused_at_the_current_version_is_refused_and_stores_nothing(
    client: TestClient,
) -> None:
    """The id clashes with the log only when the row is written: a move that is legal now,
    on the board the player sees, under an id the seat used before."""
    room = new_room(client)
    token = room["tokens"][0]
    move, _ = first_action(client, room["room"], token)
    assert post_move(client, room["room"], token, move, 0, "mine").is_success
    version = room_state(client, room)["version"]
    while room_state(client, room)["summary"]["to_move"] != 0:
        other, _ = first_action(client, room["room"], room["tokens"][1])
        assert post_move(
            client, room["room"], room["tokens"][1], other, version, f"o{version}"
        ).is_success
        version += 1
    after = room_state(client, room)
    move, _ = first_action(client, room["room"], token)
    refused = post_move(client, room["room"], token, move, version, "mine")
    assert refused.status_code == 409, refused.text
    assert refused.json()["code"] == "client_move_id_reused"
    assert room_state(client, room) == after
    log = client.get(f"/api/rooms/{room['room']}/moves", headers=bearer(room["spectator"]))
    assert len(log.json()["moves"]) == version


def test_illegal_and_malformed_moves_get_422_with_the_engines_reason(client: TestClient) -> None:
    room = new_room(client)
    token = room["tokens"][0]
    before = room_state(client, room)
    cases: list[Any] = [
        {"type": "build", "building": "shipping_line", "payment": {}},  # not in supply yet
        {"type": "fly"},
        {"type": "use", "building": "no_such_building"},
        "not a move",
        [1, 2, 3],
        {"type": "sell", "building": "wood_company"},  # not owned
    ]
    for index, move in enumerate(cases):
        response = post_move(client, room["room"], token, move, 0, f"bad-{index}")
        assert response.status_code == 422, (move, response.text)
        reason = response.json()["detail"]
        assert isinstance(reason, str) and reason
        try:
            engine.apply(engine.new_game(), move)
        except (engine.MalformedMove, engine.IllegalMove) as exc:
            assert reason == str(exc)
            assert response.json()["code"] == exc.code
            assert response.json()["params"] == exc.params
    assert room_state(client, room) == before


def test_bad_request_bodies_get_422_and_change_nothing(client: TestClient) -> None:
    room = new_room(client)
    path = f"/api/rooms/{room['room']}/moves"
    headers = bearer(room["tokens"][0])
    move, _ = first_action(client, room["room"], room["tokens"][0])
    bodies: list[Any] = [
        {},
        {"move": move},
        {"move": move, "version": "0", "client_move_id": "x"},
        {"move": move, "version": -1, "client_move_id": "x"},
        {"move": move, "version": 0, "client_move_id": ""},
        {"move": move, "version": 0, "client_move_id": "x" * 65},
        {"move": move, "version": 0, "client_move_id": "x", "extra": 1},
    ]
    for body in bodies:
        assert client.post(path, json=body, headers=headers).status_code == 422, body
    assert client.post(path, content=b"{not json", headers=headers).status_code == 422
    assert room_state(client, room)["version"] == 0


def test_spectators_strangers_and_the_player_not_to_move_get_403_and_no_token_401(
    client: TestClient,
) -> None:
    room, other = new_room(client), new_room(client)
    move, _ = first_action(client, room["room"], room["tokens"][0])
    for token in (room["spectator"], other["tokens"][0], room["tokens"][1], "z" * 43):
        assert post_move(client, room["room"], token, move, 0, "x").status_code == 403
    no_token = client.post(
        f"/api/rooms/{room['room']}/moves",
        json={"move": move, "version": 0, "client_move_id": "x"},
    )
    assert no_token.status_code == 401
    assert no_token.headers["www-authenticate"] == "Bearer"
    assert room_state(client, room)["version"] == 0


def test_a_refusal_answers_its_code_and_params_with_an_english_detail(client: TestClient) -> None:
    room, other = new_room(client), new_room(client)
    move, _ = first_action(client, room["room"], room["tokens"][0])
    cases = {
        room["spectator"]: ("not_a_player", "Only a player of this room can do that."),
        other["tokens"][0]: ("wrong_token", "This token does not open this room."),
        room["tokens"][1]: ("not_your_turn", "It is not your turn."),
    }
    for token, (code, detail) in cases.items():
        answer = post_move(client, room["room"], token, move, 0, "x").json()
        assert answer == {"detail": detail, "code": code, "params": {}}
    no_token = client.post(
        f"/api/rooms/{room['room']}/moves",
        json={"move": move, "version": 0, "client_move_id": "x"},
    ).json()
    assert no_token["code"] == "needs_token"
    unpaid = {"type": "build", "building": "hardware_store", "payment": {}}
    refused = post_move(client, room["room"], room["tokens"][0], unpaid, 0, "y").json()
    assert refused["code"] == "payment_too_little"
    assert refused["params"] == {
        "building": "hardware_store",
        "cost": {"clay": 2, "wood": 1},
        "good": "clay",
        "paid": 0,
        "needed": 2,
    }
    assert refused["detail"].startswith("that payment cannot pay for Hardware Store")


def test_unknown_room_is_403_for_a_foreign_token(client: TestClient) -> None:
    room = new_room(client)
    response = client.get("/api/rooms/nosuchroom", headers=bearer(room["tokens"][0]))
    assert response.status_code == 403


def test_the_move_log_is_a_replay_file_for_the_engine(client: TestClient, tmp_path: Path) -> None:
    room = new_room(client)
    version = play(client, room, 15, seed=3)
    log = client.get(f"/api/rooms/{room['room']}/moves", headers=bearer(room["spectator"]))
    moves = log.json()["moves"]
    assert [m["seq"] for m in moves] == list(range(version))
    assert all(
        m["move"] == json.loads(engine.canonical(engine.parse_move(m["move"]))) for m in moves
    )
    replay_file = tmp_path / "game.json"
    assert log.json()["catalog"] == room["catalog"] == "provisional-3"
    replay_file.write_text(
        json.dumps({"moves": [m["move"] for m in moves], "catalog": log.json()["catalog"]})
    )
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(replay_file)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert json.loads(done.stdout) == room_state(client, room)["summary"]


def test_a_full_game_ends_with_scores_and_a_rematch_with_seats_swapped(
    client: TestClient,
) -> None:
    room = new_room(client, host_seat=1, catalog="provisional-1")
    play(client, room, 400, seed=7)
    final = room_state(client, room)
    assert final["finished"] is True and final["summary"]["to_move"] is None
    result = final["result"]
    scores = final["summary"]["scores"]
    assert result["scores"] == scores
    assert result["winner"] == (None if scores[0] == scores[1] else int(scores[1] > scores[0]))
    for seat in (0, 1):
        breakdown = result["breakdown"][seat]
        assert breakdown["total"] == scores[seat]
        assert breakdown["francs"] + sum(breakdown["buildings"].values()) == scores[seat]
    late = post_move(
        client, room["room"], room["tokens"][0], {"type": "pass"}, final["version"], "late"
    )
    assert late.status_code == 403

    path = f"/api/rooms/{room['room']}/rematch"
    assert client.post(path, headers=bearer(room["spectator"])).status_code == 403
    offer = client.post(path, headers=bearer(room["tokens"][0])).json()
    assert offer == {"offered_by": [True, False], "room": None, "seat_link": None}
    accepted = client.post(path, headers=bearer(room["tokens"][1])).json()
    assert accepted["offered_by"] == [True, True] and accepted["room"]
    new_room_id = accepted["room"]
    again = client.post(path, headers=bearer(room["tokens"][0])).json()
    assert again["room"] == new_room_id
    with client.app.state.sessionmaker() as session:  # type: ignore[attr-defined]
        rematch_room = session.get(Room, new_room_id)
        assert rematch_room is not None and rematch_room.catalog_id == "provisional-1"
    # Each player's personal link into the new room holds the other seat.
    for old_seat, link in ((1, accepted["seat_link"]), (0, again["seat_link"])):
        new_token = link.rsplit("/", 1)[1]
        state = client.get(f"/api/rooms/{new_room_id}/legal", headers=bearer(new_token)).json()
        assert state["version"] == 0
        assert bool(state["moves"]) == (1 - old_seat == 0)


def test_a_rematch_needs_a_finished_game(client: TestClient) -> None:
    room = new_room(client)
    response = client.post(f"/api/rooms/{room['room']}/rematch", headers=bearer(room["tokens"][0]))
    assert response.status_code == 409


def test_a_client_move_id_with_a_nul_character_is_refused_and_changes_nothing(
    client: TestClient,
) -> None:
    room = new_room(client)
    move, _ = first_action(client, room["room"], room["tokens"][0])
    response = post_move(client, room["room"], room["tokens"][0], move, 0, "a\x00b")
    assert response.status_code == 422, response.text
    assert "control characters" in response.json()["detail"]
    assert response.json()["code"] == "bad_client_move_id"
    assert response.json()["params"] == {"max_length": 64}
    assert room_state(client, room)["version"] == 0
