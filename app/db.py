"""The SQLAlchemy engine and sessions, for SQLite (embedded) and PostgreSQL."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import Session, sessionmaker

from app.settings import Settings

#: A pooled PostgreSQL connection idle for longer than this (seconds) is tried before it is
#: handed out; one back in the pool more recently was working a moment ago.
PING_AFTER_IDLE = 2.0


def make_engine(url: str) -> Engine:
    """An engine tuned for the backend: WAL and a busy timeout on SQLite, a pool on PostgreSQL."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    engine = create_engine(url, pool_size=20, max_overflow=20)
    _ping_when_idle(engine)
    return engine


def _ping_when_idle(engine: Engine) -> None:
    """Try a pooled connection before handing it out when it has been idle for longer than
    `PING_AFTER_IDLE`: a database restarted or a connection cut while it sat in the pool is
    then replaced before use. SQLAlchemy's ``pool_pre_ping`` tries every checkout, a round trip
    per transaction; under load a connection comes back to the pool and out again within
    milliseconds. A connection that broke since its last use anyway fails that request with
    503 (`app.main`), and the pool then replaces every connection it held."""

    @event.listens_for(engine, "checkin")
    def _returned(_dbapi_connection: Any, record: Any) -> None:
        record.info["returned_at"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _taken(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        returned = record.info.get("returned_at")
        if returned is None or time.monotonic() - returned < PING_AFTER_IDLE:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as broken:
            raise DisconnectionError() from broken  # the pool retries with a new connection


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def engine_for(settings: Settings) -> Engine:
    """The engine for these settings; creates DATA_DIR when the database is the embedded one."""
    if not settings.is_postgres and settings.database_url is None:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    return make_engine(settings.resolved_database_url)


def close_engine(engine: Engine, *, wait: float = 5.0) -> None:
    """Close every connection of `engine`, after waiting up to `wait` seconds for those still
    checked out (work finishing in a worker thread at shutdown) to come back to the pool.

    `Engine.dispose` closes only the connections in the pool: one returned afterwards would go
    back to the discarded pool and stay open until the garbage collector finds it.
    """
    checked_out = getattr(engine.pool, "checkedout", lambda: 0)
    deadline = time.monotonic() + wait
    while checked_out() and time.monotonic() < deadline:
        time.sleep(0.02)
    engine.dispose()
