"""The review routes on SQLite and PostgreSQL (app/routes/review.py): the review page at any
position, export and import of records in both formats, forks, the analysis, and odd input that
is always a 4xx, never a 500."""

from __future__ import annotations

import random
import re
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert
from support.review import open_link, review_summary
from support.rooms import import_record, new_room, play

from app.edge.guards import MAX_RECORD_BODY_BYTES
from app.models import Analysis, Move, Room
from app.reads import catalogs
from app.services import analyses as analyses_service
from app.services.lock import now
from engine import replay, summary
from engine.cli import random_game
from engine.notation import record_text
from engine.record import GameRecord, read_record, record_json

pytestmark = pytest.mark.timeout(120)

FAIR = catalogs.registry().default()
"""The catalog of new rooms (provisional-3); the records made here with `GameRecord.of` are
provisional-1's, and an imported record keeps its catalog."""


def _imported(client: TestClient, text: str) -> str:
    """Import `text` as a browser's text/plain form does; returns the review room id."""
    return import_record(client, text)[0]


def test_review_shows_every_position_of_the_game(client: TestClient) -> None:
    room = new_room(client)
    version = play(client, room, 12)
    open_link(client, room["tokens"][0])
    record = read_record(client.get(f"/rooms/{room['room']}/record.json").text, catalogs.find)
    assert len(record.moves) == version
    for at in (0, 5, version):
        page = client.get(f"/rooms/{room['room']}/review?at={at}")
        assert page.status_code == 200
        assert review_summary(page.text) == summary(replay(record.moves[:at], FAIR))
        part = client.get(f"/rooms/{room['room']}/review/position?at={at}")
        assert part.text.lstrip().startswith('<div id="review-body"')
    assert review_summary(client.get(f"/rooms/{room['room']}/review").text)["turn"] == (
        replay(record.moves, FAIR).turn
    )


@pytest.mark.parametrize("at", ["-1", "abc", "13", "1e3", "9999999", "0x1", " 1", "²", "١"])
def test_an_odd_position_is_refused(client: TestClient, at: str) -> None:
    room = new_room(client)
    play(client, room, 12)
    open_link(client, room["tokens"][0])
    for path in ("review", "review/position"):
        response = client.get(f"/rooms/{room['room']}/{path}", params={"at": at})
        assert response.status_code == 422, (path, at)


def test_the_review_needs_a_link_of_the_room(client: TestClient) -> None:
    room = new_room(client)
    for path in ("review", "review/position", "graph", "analysis", "record.json", "record.txt"):
        assert client.get(f"/rooms/{room['room']}/{path}").status_code == 403, path
    assert client.post(f"/rooms/{room['room']}/analysis").status_code == 403
    assert client.post(f"/rooms/{room['room']}/fork", data={"at": "0"}).status_code == 403
    assert client.get("/r/not-a-token").status_code == 404
    open_link(client, room["tokens"][0])
    assert client.get(f"/rooms/{room['room']}/record.xml").status_code == 404
    assert client.get("/rooms/nosuchroom/review").status_code == 403


def test_export_then_import_gives_the_same_game(client: TestClient) -> None:
    room = new_room(client)
    play(client, room, 500, seed=3)
    open_link(client, room["tokens"][1])
    exported = client.get(f"/rooms/{room['room']}/record.json")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["content-disposition"]
    text = client.get(f"/rooms/{room['room']}/record.txt").text
    original = read_record(exported.text, catalogs.find)
    assert read_record(text, catalogs.find) == original
    assert original.positions(FAIR)[-1].finished
    for body in (exported.text, text):
        room_id = _imported(client, body)
        again = read_record(client.get(f"/rooms/{room_id}/record.json").text, catalogs.find)
        assert again.moves == original.moves
        page = client.get(f"/rooms/{room_id}/review")
        assert review_summary(page.text) == summary(replay(original.moves, FAIR))
        # Read-only: nobody holds a seat.
        assert "fork-button" not in page.text


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("catalog x sha256=00\n1. pass\n", 1),
        ('{\n  "format": "inland-port-record/1",\n  oops\n}', 3),
        ("1. pass\n", 1),
    ],
)
def test_a_malformed_record_is_refused_with_its_line(
    client: TestClient, database_url: str, body: str, line: int
) -> None:
    response = client.post(
        "/import", content=f"record={body}".encode(), headers={"Content-Type": "text/plain"}
    )
    assert response.status_code == 422
    assert f"Line {line}:" in response.text


def test_a_refused_record_stores_nothing(client: TestClient, database_url: str) -> None:
    from sqlalchemy import create_engine, func, select

    moves = random_game(random.Random(1))
    lines = record_text(GameRecord.of(moves)).splitlines()
    lines[9] = lines[9].split(".")[0] + ". build castle"
    response = client.post(
        "/import",
        content=("record=" + "\n".join(lines)).encode(),
        headers={"Content-Type": "text/plain"},
    )
    assert response.status_code == 422
    assert "Line 10:" in response.text
    db = create_engine(database_url)
    with db.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(Room)) == 0
        assert connection.scalar(select(func.count()).select_from(Move)) == 0
    db.dispose()
    too_big = client.post(
        "/import",
        content=b"record=" + b"#" * MAX_RECORD_BODY_BYTES,
        headers={"Content-Type": "text/plain"},
    )
    assert too_big.status_code == 413


def test_fork_starts_a_room_at_that_position(client: TestClient) -> None:
    room = new_room(client)
    play(client, room, 10_000, seed=2)  # to the end: a game is played on from once it is over
    open_link(client, room["tokens"][0])
    source = read_record(client.get(f"/rooms/{room['room']}/record.json").text, catalogs.find)
    response = client.post(
        f"/rooms/{room['room']}/fork",
        data={"at": "9", "seat": "1", "computer": "easy"},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert response.headers["location"].startswith("/s/")
    table = client.get(response.headers["location"], follow_redirects=False)
    new_id = table.headers["location"].rsplit("/", 1)[1]
    forked = read_record(client.get(f"/rooms/{new_id}/record.json").text, catalogs.find)
    assert forked.moves[:9] == source.moves[:9]
    assert summary(replay(forked.moves[:9], FAIR)) == summary(replay(source.moves[:9], FAIR))
    page = client.get(f"/rooms/{new_id}/review")
    assert "This game started from position 9" in page.text


@pytest.mark.parametrize(
    "form",
    [
        {"at": "99", "seat": "0"},
        {"at": "x", "seat": "0"},
        {"at": "²", "seat": "0"},
        {"at": "3", "seat": "²"},
        {"at": "3", "seat": "2"},
        {"at": "3", "seat": "0", "computer": "god"},
        {},
    ],
)
def test_an_odd_fork_is_refused(client: TestClient, form: dict[str, str]) -> None:
    room = new_room(client)
    play(client, room, 10_000)
    open_link(client, room["tokens"][0])
    response = client.post(f"/rooms/{room['room']}/fork", data=form, follow_redirects=False)
    assert 400 <= response.status_code < 500


def test_analysis_of_an_imported_record(client: TestClient) -> None:
    moves = random_game(random.Random(7))[:6]
    room_id = _imported(client, record_json(GameRecord.of(moves)))
    assert client.get(f"/rooms/{room_id}/analysis").status_code == 200
    started = client.post(f"/rooms/{room_id}/analysis?at=2", headers={"HX-Request": "true"})
    assert started.status_code == 200 and started.text.startswith('<section id="analysis"')
    assert "analysis-progress" in started.text or "analysis-done" in started.text
    # The same form posted before the page's scripts ran: back to the review, which shows it.
    plain = client.post(f"/rooms/{room_id}/analysis?at=2", follow_redirects=False)
    assert plain.status_code == 303
    assert plain.headers["location"] == f"/rooms/{room_id}/review?at=2"
    deadline = time.monotonic() + 60
    while "analysis-done" not in (page := client.get(f"/rooms/{room_id}/analysis").text):
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert 'id="score-graph"' in page
    again = client.post(f"/rooms/{room_id}/analysis")
    assert "analysis-done" in again.text
    graph = client.get(f"/rooms/{room_id}/graph").text
    assert "graph-margin" in graph


def test_analyses_wait_in_a_bounded_queue(
    client: TestClient, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With `MAX_RUNNING` analyses under way, one more is refused with "busy, try later" and
    nothing is stored for it; the ones under way go on."""
    monkeypatch.setattr(analyses_service, "MAX_RUNNING", 1)
    moves = random_game(random.Random(7))[:6]
    first = _imported(client, record_json(GameRecord.of(moves)))
    second = _imported(client, record_json(GameRecord.of(moves[:4])))
    db = create_engine(database_url)
    with db.begin() as connection:  # the first game's analysis under way elsewhere
        connection.execute(
            insert(Analysis).values(
                room_id=first, version=6, status="running", done=0, total=6, updated_at=now()
            )
        )
    db.dispose()
    refused = client.post(f"/rooms/{second}/analysis")
    assert refused.status_code == 503 and "try again" in refused.text.lower()
    assert "analysis-progress" not in client.get(f"/rooms/{second}/analysis").text


def test_an_ongoing_game_is_not_analysed(client: TestClient) -> None:
    room = new_room(client)
    play(client, room, 4)
    open_link(client, room["tokens"][0])
    assert client.post(f"/rooms/{room['room']}/analysis").status_code == 409


def test_the_graph_ends_at_the_final_scores(client: TestClient) -> None:
    room = new_room(client)
    play(client, room, 500, seed=5)
    open_link(client, room["tokens"][0])
    record = read_record(client.get(f"/rooms/{room['room']}/record.json").text, catalogs.find)
    final = summary(replay(record.moves, FAIR))["scores"]
    graph = client.get(f"/rooms/{room['room']}/graph").text
    ends = re.findall(r'data-seat="(\d)" data-position="(\d+)" data-score="(-?\d+)"', graph)
    assert [(int(s), int(p), int(v)) for s, p, v in ends] == [
        (0, len(record.moves), final[0]),
        (1, len(record.moves), final[1]),
    ]
    assert "review-link" in client.get(f"/rooms/{room['room']}").text


def test_an_imported_record_shows_its_review_link_to_share(client: TestClient) -> None:
    """An imported record never had players: its one link, the review link, is what its room
    page and its review offer to share (once opened, the address bar shows the room's page)."""
    moves = random_game(random.Random(7))[:6]
    response = client.post(
        "/import",
        content=f"record={record_json(GameRecord.of(moves))}\r\n".encode(),
        headers={"Content-Type": "text/plain"},
        follow_redirects=False,
    )
    link = response.headers["location"]
    room_id = client.get(link, follow_redirects=False).headers["location"].split("/")[2]
    shared = f'id="review-share-link" class="link-field" type="text" readonly value="http://testserver{link}"'
    review = client.get(f"/rooms/{room_id}/review").text
    assert shared in review
    table = client.get(f"/rooms/{room_id}").text
    assert 'class="links"' in table and shared in table
    assert "/w/" not in table and "/s/" not in table
    # a played room's pages show no review link, and its spectators no link at all
    room = new_room(client)
    open_link(client, room["tokens"][0])
    assert "review-share-link" not in client.get(f"/rooms/{room['room']}").text
    client.cookies.clear()
    assert client.get(f"/w/{room['spectator']}").status_code == 200
    watched = client.get(f"/rooms/{room['room']}").text
    assert 'class="links"' not in watched and "review-share-link" not in watched


def test_a_game_still_being_played_is_not_played_on_from(client: TestClient) -> None:
    """No one (a spectator, the player to move) gets the computer's answer to a live position by
    forking it: a position is played on from once the game is over."""
    room = new_room(client)
    play(client, room, 20, seed=2)
    assert client.get(f"/w/{room['spectator']}").status_code == 200  # a spectator's browser
    response = client.post(
        f"/rooms/{room['room']}/fork",
        data={"at": "20", "seat": "0", "computer": "strong"},
        follow_redirects=False,
    )
    assert response.status_code == 409
    assert 'id="fork-button"' not in client.get(f"/rooms/{room['room']}/review?at=5").text
