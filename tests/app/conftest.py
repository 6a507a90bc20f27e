"""Fixtures for the server tests: every database test runs on SQLite and on PostgreSQL.

PostgreSQL comes from TEST_DATABASE_URL (CI sets it); without it a fresh database is created on
127.0.0.1 with `createdb` when the server answers. Missing PostgreSQL fails the run when CI=true
and skips those tests otherwise; a test marked `postgres_only` runs on PostgreSQL alone. Tables
are emptied between tests; before that, every room in the database is checked: replaying its
move log must reproduce its stored snapshot.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import Engine
from support.processes import two_processes

import engine
from app.main import create_app
from app.migrate import upgrade
from app.models import Move, Room
from app.reads import catalogs
from app.reads.positions import effective_of
from app.settings import Settings
from bench.appserver import AppServer
from engine import games

IN_CI = os.environ.get("CI") == "true"
TABLES = (
    "chat_messages",
    "chat_settings",
    "analyses",
    "room_events",
    "connections",
    "server_processes",
    "rematch_offers",
    "moves",
    "links",
    "seats",
    "rooms",
)


def _postgres_unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"PostgreSQL is required in CI: {reason}")
    pytest.skip(f"PostgreSQL not available: {reason}")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    url = os.environ.get("TEST_DATABASE_URL")
    created = None
    if not url:
        if shutil.which("createdb") is None:
            _postgres_unavailable("TEST_DATABASE_URL is unset and createdb is missing")
        name = f"inlandport_test_{os.getpid()}_{uuid.uuid4().hex[:6]}"
        done = subprocess.run(
            ["createdb", "-h", "127.0.0.1", "-U", "postgres", name], capture_output=True, text=True
        )
        if done.returncode != 0:
            _postgres_unavailable(done.stderr.strip())
        created, url = name, f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    try:
        upgrade(url)
    except Exception as exc:
        _postgres_unavailable(str(exc))
    yield url
    if created:
        subprocess.run(
            ["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--force", "--if-exists", created],
            capture_output=True,
        )


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    upgrade(f"sqlite:///{path}")
    return path


def check_snapshots(db: Engine) -> None:
    """Replaying each room's log with the room's catalog (another game's: from its setup)
    reproduces its stored snapshot and version."""
    with db.connect() as connection:
        rooms = connection.execute(
            select(
                Room.id,
                Room.version,
                Room.snapshot,
                Room.catalog_id,
                Room.catalog_sha256,
                Room.game,
                Room.setup,
            )
        ).all()
        for room_id, version, snapshot, catalog_id, catalog_sha256, game_id, setup in rooms:
            rows = connection.execute(
                select(Move.seq, Move.seat, Move.move)
                .where(Move.room_id == room_id)
                .order_by(Move.seq)
            ).all()
            assert len(rows) == version, room_id
            if game_id != "inland_port":
                rules = games.game(game_id)
                position = rules.start(json.loads(setup))
                for _, _, text in effective_of((seq, seat, m) for seq, seat, m in rows):
                    position = rules.apply(position, rules.parse(text))
                assert rules.summary(position) == json.loads(snapshot), room_id
                continue
            catalog = catalogs.find(catalog_id, catalog_sha256)
            if catalog is None:  # a test of a room whose numbers the server lacks
                continue
            # a takeback row undoes the last moves in force (app.reads.positions)
            played = effective_of((seq, seat, m) for seq, seat, m in rows)
            state = engine.replay([json.loads(m) for _, _, m in played], catalog)
            assert engine.summary(state) == json.loads(snapshot), room_id


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test marked `postgres_only` runs on PostgreSQL alone: its SQLite case is left out, and
    it counts among the `postgres` tests."""
    on_sqlite = []
    for item in items:
        if item.get_closest_marker("postgres_only") is None:
            continue
        item.add_marker(pytest.mark.postgres)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("database_url") == "sqlite":
            on_sqlite.append(item)
    if on_sqlite:
        config.hook.pytest_deselected(items=on_sqlite)
        left_out = set(on_sqlite)
        items[:] = [item for item in items if item not in left_out]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A migrated, empty database on each backend."""
    if request.param == "sqlite":
        path = tmp_path / "test.sqlite3"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        url = f"sqlite:///{path}"
    else:
        url = request.getfixturevalue("postgres_url")
        _truncate(url)
    yield url
    db = create_engine(url)
    try:
        check_snapshots(db)
    finally:
        db.dispose()


def _truncate(url: str) -> None:
    db = create_engine(url)
    with db.begin() as connection:
        connection.execute(text(f"TRUNCATE {', '.join(TABLES)} CASCADE"))
    db.dispose()


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    """The server's settings; tests open rooms faster than the per-address limit allows
    (tests/app/edge/test_server_limits.py checks the limit)."""
    return Settings(database_url=database_url, data_dir=tmp_path, rooms_per_minute=0)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
def two_servers(database_url: str, tmp_path: Path) -> Iterator[list[AppServer]]:
    """Two server processes on the test's database (`support.processes.two_processes`)."""
    with two_processes(database_url, tmp_path) as servers:
        yield servers
