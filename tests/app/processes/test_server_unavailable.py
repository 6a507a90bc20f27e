"""A database that refuses connections (overload, a restart): 503 with Retry-After, never a 500,
nothing done, and the room plays on once the database is back."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, make_url, text
from sqlalchemy.engine import Engine
from support.rooms import bearer, new_room

from app.edge.cookies import cookie_name
from app.i18n import COOKIE


@contextmanager
def connections_refused(client: TestClient, database_url: str) -> Iterator[None]:
    """The app's database takes no new connection, and the app's pool holds none."""
    url = make_url(database_url)
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    name = url.database
    app_engine: Engine = client.app.state.sessionmaker.kw["bind"]  # type: ignore[attr-defined]
    try:
        with admin.connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
        app_engine.dispose()
        yield
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        admin.dispose()


@pytest.mark.postgres_only  # a PostgreSQL server can refuse new connections; an SQLite file cannot
def test_a_database_that_refuses_connections_gets_503_and_nothing_changes(
    client: TestClient, database_url: str
) -> None:
    room = new_room(client)
    headers = bearer(room["tokens"][0])
    path = f"/api/rooms/{room['room']}"
    legal = client.get(f"{path}/legal", headers=headers).json()["moves"]
    move = {"move": legal[0], "version": 0, "client_move_id": "first"}

    with connections_refused(client, database_url):
        refused = client.post(f"{path}/moves", json=move, headers=headers)
        assert refused.status_code == 503, refused.text
        assert refused.headers["retry-after"] == "2"
        assert refused.json()["code"] == "busy"
        assert "too busy" in refused.json()["detail"]

        client.cookies.set(COOKIE, "cs")
        client.cookies.set(cookie_name(room["room"]), room["tokens"][0])
        page = client.get(f"/rooms/{room['room']}")
        assert page.status_code == 503
        assert page.headers["retry-after"] == "2"
        assert "Server je právě příliš vytížený" in page.text
        assert room["tokens"][0] not in page.text

    # The database is back: the same move, sent again, is the first one the room records.
    client.cookies.clear()
    again = client.post(f"{path}/moves", json=move, headers=headers)
    assert again.status_code == 200, again.text
    assert again.json()["version"] == 1
    log = client.get(f"{path}/moves", headers=headers).json()["moves"]
    assert [entry["move"] for entry in log] == [legal[0]]
