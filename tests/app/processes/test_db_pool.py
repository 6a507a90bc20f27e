"""The PostgreSQL pool: a connection that broke while idle in the pool is replaced before use."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from app import db


@pytest.mark.postgres_only
def test_a_connection_cut_while_idle_is_replaced_before_use(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = db.make_engine(postgres_url)
    try:
        with engine.connect() as first, engine.connect() as second:
            pid = first.execute(text("SELECT pg_backend_pid()")).scalar_one()
        with engine.connect() as killer:  # a connection of the pool cuts another, idle there
            assert killer.execute(text("SELECT pg_backend_pid()")).scalar_one() != pid
            killer.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            killer.commit()
        monkeypatch.setattr(db, "PING_AFTER_IDLE", 0.0)
        with engine.connect() as first, engine.connect() as second:  # both, the cut one too
            pids = {
                c.execute(text("SELECT pg_backend_pid()")).scalar_one() for c in (first, second)
            }
        assert pid not in pids and len(pids) == 2
    finally:
        engine.dispose()


@pytest.mark.postgres_only
def test_a_connection_back_in_the_pool_a_moment_ago_is_not_tried(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = db.make_engine(postgres_url)
    pings: list[object] = []
    monkeypatch.setattr(engine.dialect, "do_ping", lambda connection: pings.append(connection))
    try:
        for _ in range(3):
            with engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        assert pings == []
        monkeypatch.setattr(db, "PING_AFTER_IDLE", 0.0)
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        assert len(pings) == 1
    finally:
        engine.dispose()
