"""Catalogs on the server, on SQLite and PostgreSQL: each room pinned to the numbers it was
created with (and the migration that pinned the rooms made before), the choice of catalog in the
JSON API and on the home page, extra catalogs from CATALOG_DIR, and refusals that are 4xx."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text, update
from starlette.websockets import WebSocketDisconnect
from support.rooms import bearer, new_room, play

import engine
from app.db import make_engine, make_sessionmaker
from app.main import create_app
from app.migrate import downgrade, upgrade
from app.models import Room
from app.reads import catalogs, positions
from app.settings import Settings
from engine.catalogs import BUILT_IN_FILES, built_in_registry

PROVISIONAL_1_SHA256 = "9493fd45a591aaf5841a28a13e12497628180d0e366b3f65dac96af97b801456"
BEFORE_CATALOGS = "0004_chat"
"""The revision before the one that added the rooms' catalogs (migrations/versions/)."""


@pytest.fixture(autouse=True)
def built_in_catalogs() -> Iterator[None]:
    """Each test starts, and leaves the server, with the built-in catalogs only."""
    catalogs.configure(None)
    yield
    catalogs.configure(None)


def room_row(client: TestClient, room_id: str) -> Room:
    with client.app.state.sessionmaker() as session:  # type: ignore[attr-defined]
        room = session.get(Room, room_id)
        assert room is not None
        session.expunge(room)
        return room


def logged_moves(client: TestClient, room: dict[str, Any]) -> list[dict[str, Any]]:
    log = client.get(f"/api/rooms/{room['room']}/moves", headers=bearer(room["spectator"]))
    return [entry["move"] for entry in log.json()["moves"]]


def state_of(client: TestClient, room: dict[str, Any]) -> dict[str, Any]:
    found = client.get(f"/api/rooms/{room['room']}", headers=bearer(room["tokens"][0]))
    assert found.status_code == 200, found.text
    data: dict[str, Any] = found.json()
    return data


def test_new_rooms_are_played_with_provisional_3_and_say_so(client: TestClient) -> None:
    room = new_room(client)
    fair = built_in_registry().entry("provisional-3")
    assert (room["catalog"], room["catalog_sha256"]) == ("provisional-3", fair.hash)
    row = room_row(client, room["room"])
    assert (row.catalog_id, row.catalog_sha256) == ("provisional-3", fair.hash)


def test_a_room_replays_with_its_own_catalog_after_another_becomes_the_default(
    client: TestClient,
) -> None:
    # While provisional-1 is the default for new rooms, a room opens with it.
    built_in = built_in_registry()
    catalogs.configure(None, default_id="provisional-1")
    room = new_room(client)
    assert room["catalog"] == "provisional-1"
    version = play(client, room, 400, seed=7)
    before = state_of(client, room)
    assert before["finished"] is True

    # provisional-3 becomes the default; the process forgets every replayed position.
    catalogs.configure(None)
    positions.positions.clear()
    after = state_of(client, room)
    assert after == before
    moves = logged_moves(client, room)
    assert len(moves) == version
    assert after["summary"] == engine.summary(engine.replay(moves, built_in.get("provisional-1")))
    # The same moves with the new default's numbers are another game (or none at all).
    try:
        other: Any = engine.summary(engine.replay(moves, built_in.get("provisional-3")))
    except ValueError:
        other = None
    assert other != after["summary"]
    # A new room now gets provisional-3.
    assert new_room(client)["catalog"] == "provisional-3"


def test_the_api_takes_a_catalog_and_refuses_an_unknown_one(client: TestClient) -> None:
    room = new_room(client, catalog="provisional-1")
    assert (room["catalog"], room["catalog_sha256"]) == ("provisional-1", PROVISIONAL_1_SHA256)
    refused = client.post("/api/rooms", json={"host_seat": 0, "catalog": "printed"})
    assert refused.status_code == 422
    body = refused.json()
    assert (body["code"], body["params"]) == ("unknown_catalog", {"catalog": "printed"})
    assert body["detail"] == "This server has no catalog named “printed”."
    assert client.post("/api/rooms", json={"catalog": 5}).status_code == 422
    spec = client.get("/openapi.json").json()
    assert "catalog" in spec["components"]["schemas"]["InlandPortRoomIn"]["properties"]


def test_the_home_page_offers_the_catalogs_and_the_table_names_its_own(client: TestClient) -> None:
    home = client.get("/")
    assert '<select id="catalog" name="catalog">' in home.text
    assert '<option value="provisional-3" selected>' in home.text
    assert '<option value="provisional-2">' in home.text
    assert '<option value="provisional-1">' in home.text
    created = client.post(
        "/rooms", data={"host_seat": "0", "computer": "", "catalog": "provisional-1"}
    )
    assert created.status_code == 200  # followed to the table
    assert "Numbers: provisional-1" in created.text
    assert "provisional numbers" in created.text
    client.cookies.set("lang", "cs")
    refused = client.post("/rooms", data={"host_seat": "0", "computer": "", "catalog": "nope"})
    assert refused.status_code == 422
    assert "Tento server nemá katalog s názvem „nope“." in refused.text


def test_a_room_whose_numbers_the_server_lacks_is_refused_not_replayed(
    client: TestClient,
) -> None:
    room = new_room(client)
    play(client, room, 6)
    with client.app.state.sessionmaker() as session:  # type: ignore[attr-defined]
        session.execute(update(Room).where(Room.id == room["room"]).values(catalog_sha256="0" * 64))
        session.commit()
    positions.positions.clear()
    refused = client.get(f"/api/rooms/{room['room']}/legal", headers=bearer(room["tokens"][0]))
    assert refused.status_code == 409
    assert refused.json()["code"] == "catalog_missing"
    assert client.get(f"/s/{room['tokens'][0]}", follow_redirects=False).status_code == 303
    page = client.get(f"/rooms/{room['room']}")
    assert page.status_code == 409
    assert "provisional-3" in page.text and "does not have" in page.text
    assert client.get(f"/rooms/{room['room']}/record.json").status_code == 409
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"/ws/rooms/{room['room']}?token={room['spectator']}") as socket,
    ):
        socket.receive_text()
    assert closed.value.code == 1008


def printed_catalog(folder: Path, name: str = "printed") -> dict[str, Any]:
    """A catalog file in `folder`: provisional-3's numbers with another name and start money."""
    data: dict[str, Any] = json.loads(BUILT_IN_FILES[2].read_text(encoding="utf-8"))
    data["name"] = name
    data["start_francs"] = data["start_francs"] + 1
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
    return data


def test_catalogs_installed_in_catalog_dir_can_be_chosen(
    settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "catalogs"
    data = printed_catalog(folder)
    with TestClient(create_app(settings.model_copy(update={"catalog_dir": folder}))) as client:
        assert '<option value="printed">printed</option>' in client.get("/").text
        room = new_room(client, catalog="printed")
        assert room["catalog"] == "printed"
        assert state_of(client, room)["summary"]["players"][0]["francs"] == data["start_francs"]


def test_a_bad_catalog_file_stops_the_server_naming_the_file(
    settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "catalogs"
    data = printed_catalog(folder)
    del data["rounds"]
    (folder / "broken.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.json: catalog: missing or malformed entry"):
        create_app(settings.model_copy(update={"catalog_dir": folder}))
    data = json.loads(BUILT_IN_FILES[1].read_text(encoding="utf-8"))
    data["name"] = "odd-wheel"
    data["wheel"]["multiplier_by_age"][2] = 5
    (folder / "broken.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.json: catalog: the table draws a wheel"):
        create_app(settings.model_copy(update={"catalog_dir": folder}))
    (folder / "broken.json").write_text("{", encoding="utf-8")
    env = {**os.environ, "CATALOG_DIR": str(folder), "DATA_DIR": str(tmp_path / "data")}
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "app"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0
    assert "CATALOG_DIR" in done.stderr and "broken.json: cannot read the catalog" in done.stderr
    assert "running at" not in done.stdout


def test_the_migration_pins_every_older_room_to_provisional_1(database_url: str) -> None:
    db = create_engine(database_url)
    stamp = datetime(2026, 12, 1, tzinfo=UTC)
    first = engine.legal_moves(engine.new_game())[0]
    after = engine.apply(engine.new_game(), first)
    try:
        downgrade(database_url, BEFORE_CATALOGS)
        with db.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO rooms (id, version, snapshot, finished, created_at, updated_at, "
                    "start_moves) VALUES ('old', 1, :snapshot, false, :at, :at, 0)"
                ),
                {"snapshot": engine.summary_json(after), "at": stamp},
            )
            connection.execute(
                text(
                    "INSERT INTO moves (room_id, seq, seat, move, client_move_id, created_at) "
                    "VALUES ('old', 0, 0, :move, 'm0', :at)"
                ),
                {"move": first.canonical, "at": stamp},
            )
        upgrade(database_url)
        with db.connect() as connection:
            pinned = connection.execute(
                text("SELECT catalog_id, catalog_sha256 FROM rooms WHERE id = 'old'")
            ).one()
        assert tuple(pinned) == ("provisional-1", PROVISIONAL_1_SHA256)
        assert catalogs.find(*pinned) is engine.default_catalog()
        with db.connect() as connection:
            rows = connection.execute(text("SELECT move FROM moves WHERE room_id = 'old'")).all()
        assert [row[0] for row in rows] == [first.canonical]
        positions.positions.clear()
        app_db = make_engine(database_url)
        with make_sessionmaker(app_db)() as session:
            replayed = positions.position(session, "old", 1).state
        app_db.dispose()
        assert replayed.catalog is engine.default_catalog()
        assert engine.summary(replayed) == engine.summary(after)
    finally:
        db.dispose()
