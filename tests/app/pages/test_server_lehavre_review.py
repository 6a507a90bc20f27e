"""Le Havre's review through the review routes on SQLite and PostgreSQL (app/routes/review.py): the
review page at any position with one score line per seat, the JSON record exported, imported and
refused, forks with the same seats, and odd input that is always a 4xx."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select
from support.review import open_link, review_summary
from support.rooms import bearer, token_of

from app.edge.guards import MAX_BODY_BYTES
from app.models import Room
from engine.games import game
from engine.lehavre import apply, new_game, random_setup
from engine.lehavre.ai import choose
from engine.lehavre.record import LeHavreRecord, read_record, record_json

pytestmark = pytest.mark.timeout(180)

RULES = game("lehavre")


def played_room(client: TestClient, players: int, moves: int | None = None) -> dict[str, Any]:
    """A short Le Havre room of friends, played through the API to the end (or `moves` moves)."""
    body = {"game": "lehavre", "others": ["friend"] * (players - 1), "variant": "short"}
    created = client.post("/api/rooms", json={**body, "host_seat": 0}).json()
    tokens = {created["seat"]: created["token"]}
    for link in created["invite_links"]:
        claimed = client.post(f"/api/invites/{token_of(link)}").json()
        tokens[claimed["seat"]] = claimed["token"]
    room = {**created, "tokens": tokens}
    rng, version = random.Random(players), 0
    got = client.get(f"/api/rooms/{room['room']}", headers=bearer(tokens[0])).json()
    while got["summary"]["current"] is not None and (moves is None or version < moves):
        seat = got["summary"]["current"]
        legal = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(tokens[seat]))
        move = {"move": rng.choice(legal.json()["moves"]), "version": version}
        got = client.post(
            f"/api/rooms/{room['room']}/moves",
            json={**move, "client_move_id": f"m{version}"},
            headers=bearer(tokens[seat]),
        ).json()
        version = got["version"]
    return {**room, "version": version}


def _imported(client: TestClient, text: str, **headers: str) -> Any:
    return client.post(
        "/import",
        content=f"record={text}\r\n".encode(),
        headers={"Content-Type": "text/plain", **headers},
        follow_redirects=False,
    )


def laid_out(data: dict[str, Any]) -> str:
    """A record's JSON as the export lays it out: a key a line, a move a line."""
    parts = [
        f"  {json.dumps(key)}: "
        + (
            "[\n" + ",\n".join(f"    {json.dumps(m)}" for m in value) + "\n  ]"
            if key == "moves"
            else json.dumps(value)
        )
        for key, value in data.items()
    ]
    return "{\n" + ",\n".join(parts) + "\n}\n"


@pytest.fixture
def finished(client: TestClient) -> dict[str, Any]:
    room = played_room(client, 3)
    open_link(client, room["tokens"][1])
    return room


def test_the_review_walks_every_position_with_a_line_per_seat(
    client: TestClient, finished: dict[str, Any]
) -> None:
    room_id, last = finished["room"], finished["version"]
    record = read_record(client.get(f"/rooms/{room_id}/record.json").text)
    positions = record.positions()
    assert len(positions) == last + 1 and RULES.finished(positions[-1])
    for at in (0, 1, last // 2, last):
        page = client.get(f"/rooms/{room_id}/review?at={at}")
        assert page.status_code == 200
        assert review_summary(page.text) == RULES.summary(positions[at])
        assert 'id="lh-harbour"' in page.text and 'id="lh-move"></div>' in page.text
        part = client.get(f"/rooms/{room_id}/review/position?at={at}")
        assert part.text.lstrip().startswith('<div id="review-body"')
    page = client.get(f"/rooms/{room_id}/review").text
    assert page.count('class="review-move lh-seat-') == last
    assert len(re.findall(r'<polyline class="graph-line lh-seat-\d"', page)) == 3
    assert "record.txt" not in page and 'id="export-json"' in page
    graph = client.get(f"/rooms/{room_id}/graph").text
    scores = [int(s) for s in re.findall(r'data-score="(-?\d+)"', graph)]
    assert scores == RULES.scores(positions[-1])


def test_the_move_list_speaks_the_viewers_language(
    client: TestClient, finished: dict[str, Any]
) -> None:
    english = client.get(f"/rooms/{finished['room']}/review?at=0").text
    czech = client.get(
        f"/rooms/{finished['room']}/review?at=0", headers={"Accept-Language": "cs"}
    ).text
    assert "End the turn" in english and "End the turn" not in czech
    assert "Ukončit tah" in czech


@pytest.mark.parametrize("at", ["-1", "abc", "100000", "1e3", "0x1", " 1", "²"])
def test_an_odd_position_is_refused(client: TestClient, finished: dict[str, Any], at: str) -> None:
    for path in ("review", "review/position"):
        response = client.get(f"/rooms/{finished['room']}/{path}", params={"at": at})
        assert response.status_code == 422, (path, at)


def test_the_review_needs_a_link_of_the_room(client: TestClient) -> None:
    room = played_room(client, 1, moves=3)
    for path in ("review", "review/position", "graph", "record.json"):
        assert client.get(f"/rooms/{room['room']}/{path}").status_code == 403, path
    assert client.post(f"/rooms/{room['room']}/fork", data={"at": "0"}).status_code == 403


def test_a_game_under_way_is_reviewed_but_its_record_kept_until_the_end(
    client: TestClient,
) -> None:
    room = played_room(client, 2, moves=6)
    open_link(client, room["tokens"][0])
    page = client.get(f"/rooms/{room['room']}/review")
    assert page.status_code == 200 and "export-json" not in page.text
    assert "fork-button" not in page.text
    refused = client.get(f"/rooms/{room['room']}/record.json")
    assert refused.status_code == 409 and "supply_tiles" not in refused.text
    forked = client.post(f"/rooms/{room['room']}/fork", data={"at": "2", "seat": "0"})
    assert forked.status_code == 409


def test_export_then_import_gives_the_same_review(
    client: TestClient, finished: dict[str, Any]
) -> None:
    room_id = finished["room"]
    exported = client.get(f"/rooms/{room_id}/record.json")
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    assert client.get(f"/rooms/{room_id}/record.txt").status_code == 404
    original = read_record(exported.text)
    assert len(original.seats) == 3 and len(original.moves) == finished["version"]
    response = _imported(client, exported.text)
    assert response.status_code == 303, response.text
    anyone = TestClient(client.app)
    opened = anyone.get(response.headers["location"], follow_redirects=False)
    imported = opened.headers["location"].split("/")[2]
    assert read_record(anyone.get(f"/rooms/{imported}/record.json").text) == original
    for at in (0, finished["version"]):
        mine = client.get(f"/rooms/{room_id}/review/position?at={at}")
        theirs = anyone.get(f"/rooms/{imported}/review/position?at={at}")
        assert review_summary(theirs.text) == review_summary(mine.text)
    page = anyone.get(f"/rooms/{imported}/review").text
    assert "An imported record" in page and "fork-button" not in page


def test_a_whole_full_game_of_five_imports(client: TestClient) -> None:
    """A full game's record (~17 KB, over the 16 KiB other requests may send) is read whole."""
    rng, state, moves = random.Random(5), new_game(random_setup(5, seed=5)), []
    while state.phase != "over":
        move = choose(state, "heuristic", rng)
        moves.append(move)
        state = apply(state, move)
    text = record_json(LeHavreRecord(state.setup, tuple(f"P{n}" for n in range(5)), tuple(moves)))
    assert len(text.encode()) > MAX_BODY_BYTES
    response = _imported(client, text)
    assert response.status_code == 303, response.text
    opened = client.get(response.headers["location"], follow_redirects=False)
    room_id = opened.headers["location"].split("/")[2]
    assert read_record(client.get(f"/rooms/{room_id}/record.json").text).moves == tuple(moves)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["setup"].update(players=9), "Nastavení hry"),
        (lambda d: d["moves"].insert(0, {"type": "end"}), "Řádek 6"),
        (lambda d: d.update(result={"scores": [1, 2, 3]}), "Výsledek"),
        (lambda d: d.update(seats=["A"]), "Řádek 3"),
    ],
)
def test_a_malformed_record_is_refused_in_the_viewers_language_storing_nothing(
    client: TestClient, finished: dict[str, Any], database_url: str, change: Any, words: str
) -> None:
    data = json.loads(client.get(f"/rooms/{finished['room']}/record.json").text)
    change(data)
    text = laid_out(data)
    db = create_engine(database_url)
    with db.connect() as connection:
        before = connection.scalar(select(func.count()).select_from(Room))
    response = _imported(client, text, **{"Accept-Language": "cs"})
    assert response.status_code == 422
    assert words in response.text
    with db.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(Room)) == before
    db.dispose()


def test_a_fork_keeps_the_seats_and_the_forker_picks_theirs(
    client: TestClient, finished: dict[str, Any]
) -> None:
    at = finished["version"] // 2
    forked = client.post(
        f"/rooms/{finished['room']}/fork",
        data={"at": str(at), "seat": "2", "computer": ""},
        follow_redirects=False,
    )
    assert forked.status_code == 303, forked.text
    token = forked.headers["location"].removeprefix("/s/")
    got = client.get("/api/rooms/" + _room_of(client, token), headers=bearer(token)).json()
    assert got["version"] == at and len(got["online"]) == 3 and not got["finished"]
    record = read_record(client.get(f"/rooms/{finished['room']}/record.json").text)
    assert got["summary"] == RULES.summary(record.positions()[at])
    page = client.get(forked.headers["location"], follow_redirects=True).text
    assert page.count("/i/") >= 2  # the invite links of the two other seats


def test_a_fork_against_the_computer_plays_the_other_seats(
    client: TestClient, finished: dict[str, Any]
) -> None:
    forked = client.post(
        f"/rooms/{finished['room']}/fork",
        data={"at": "4", "seat": "0", "computer": "heuristic"},
        follow_redirects=False,
    )
    assert forked.status_code == 303, forked.text
    token = forked.headers["location"].removeprefix("/s/")
    page = client.get(forked.headers["location"], follow_redirects=True).text
    assert "/i/" not in page and "the computer, steady" in page
    assert client.get(f"/rooms/{_room_of(client, token)}/review?at=4").status_code == 200


@pytest.mark.parametrize(
    "form",
    [
        {"at": "3", "seat": "3"},
        {"at": "3", "seat": "-1"},
        {"at": "3", "seat": "0", "computer": "easy"},
        {"at": "x", "seat": "0"},
        {"seat": "0", "at": "99999"},
    ],
)
def test_an_odd_fork_is_refused(
    client: TestClient, finished: dict[str, Any], form: dict[str, str]
) -> None:
    assert client.post(f"/rooms/{finished['room']}/fork", data=form).status_code == 422


def test_no_fork_from_the_last_position_of_a_finished_game(
    client: TestClient, finished: dict[str, Any]
) -> None:
    at = str(finished["version"])
    refused = client.post(f"/rooms/{finished['room']}/fork", data={"at": at, "seat": "0"})
    assert refused.status_code == 409


def _room_of(client: TestClient, token: str) -> str:
    """The room of a seat link's token (opening it remembers the token in this browser)."""
    opened = client.get(f"/s/{token}", follow_redirects=False)
    return str(opened.headers["location"]).split("/")[2]


def test_the_analysis_weighs_every_turn_and_names_each_seats_turning_points(
    client: TestClient, finished: dict[str, Any]
) -> None:
    exported = client.get(f"/rooms/{finished['room']}/record.json").text
    record = read_record(exported)
    start = laid_out({**json.loads(exported), "result": None})
    short = json.loads(start)
    short["moves"] = short["moves"][:30]
    response = _imported(client, laid_out(short))
    assert response.status_code == 303, response.text
    room_id = (
        client.get(response.headers["location"], follow_redirects=False)
        .headers["location"]
        .split("/")[2]
    )
    started = client.post(f"/rooms/{room_id}/analysis?at=3", headers={"HX-Request": "true"})
    assert started.status_code == 200 and started.text.startswith('<section id="analysis"')
    deadline = time.monotonic() + 120
    while "analysis-done" not in (page := client.get(f"/rooms/{room_id}/analysis").text):
        assert time.monotonic() < deadline and "analysis-" in page
        time.sleep(0.2)
    assert page.count('class="lh-seat-') >= 3  # a heading per seat
    seats = {int(s) for s in re.findall(r'data-seat="(\d)"', page)}
    assert seats <= {0, 1, 2}
    positions = [int(p) for p in re.findall(r'data-position="(\d+)"', page)]
    assert all(0 <= p < 30 and record.positions()[p].phase in ("main", "final") for p in positions)
    review = client.get(f"/rooms/{room_id}/review").text
    assert "analysis-done" in review


def test_a_game_under_way_is_not_analysed(client: TestClient) -> None:
    room = played_room(client, 2, moves=4)
    open_link(client, room["tokens"][0])
    assert client.post(f"/rooms/{room['room']}/analysis").status_code == 409


def test_a_spectator_looks_back_as_a_player_does(
    client: TestClient, finished: dict[str, Any]
) -> None:
    watcher = TestClient(client.app)
    spectator = str(finished["spectator_link"]).replace("http://testserver", "")
    assert watcher.get(spectator).status_code == 200
    assert watcher.get(f"/rooms/{finished['room']}/review?at=5").status_code == 200
    exported = watcher.get(f"/rooms/{finished['room']}/record.json")
    assert exported.status_code == 200
    assert exported.text == client.get(f"/rooms/{finished['room']}/record.json").text
    assert "fork-button" in watcher.get(f"/rooms/{finished['room']}/review?at=5").text
