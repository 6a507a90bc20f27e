"""Migrations, the move lock under concurrent submissions, and presence of dead processes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import httpx
import pytest
from sqlalchemy import create_engine, inspect, update
from sqlalchemy.orm import Session, sessionmaker

import engine
from app.db import close_engine, make_engine, make_sessionmaker
from app.migrate import downgrade, upgrade
from app.models import ServerProcess
from app.reads import gamelog, queries
from app.reads.roomview import Viewer
from app.services import moves, presence, rooms, seats
from app.services.errors import InvalidLink, RoomNotFound, StaleVersion
from bench.appserver import ROOT, free_port


@pytest.fixture
def sessions(database_url: str) -> Iterator[sessionmaker[Session]]:
    """Sessions on the test database through the app's own engine (disposed after the test)."""
    db = make_engine(database_url)
    try:
        yield make_sessionmaker(db)
    finally:
        db.dispose()


def started_room(session: Session, host_seat: Literal[0, 1]) -> rooms.CreatedRoom:
    """A new room whose guest took the other seat: the game has started."""
    created = rooms.create_room(session, host_seat=host_seat, base_url="http://x")
    assert created.invite_link is not None
    seats.claim_invite(
        session, invite_token=created.invite_link.rsplit("/", 1)[1], base_url="http://x"
    )
    return created


def test_migrations_go_down_and_up_again(database_url: str) -> None:
    db = create_engine(database_url)
    try:
        tables = {"rooms", "seats", "links", "moves", "rematch_offers", "connections"}
        assert tables <= set(inspect(db).get_table_names())
        downgrade(database_url, "base")
        assert not tables & set(inspect(db).get_table_names())
        upgrade(database_url)
        assert tables <= set(inspect(db).get_table_names())
    finally:
        db.dispose()


def test_python_m_app_creates_data_dir_migrates_and_prints_its_address(tmp_path: Path) -> None:
    data_dir = tmp_path / "fresh" / "data"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update({"DATA_DIR": str(data_dir), "PORT": str(port), "HOST": "127.0.0.1"})
    process = subprocess.Popen(
        [sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip().endswith(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 20
        while True:
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/healthz").json() == {"status": "ok"}
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert (data_dir / "inland-port.sqlite3").exists()
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()
    assert process.returncode in (0, -signal.SIGTERM)  # uvicorn re-raises the signal it handled


def test_concurrent_submissions_apply_exactly_one_move(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        created = started_room(session, host_seat=0)
    move = engine.legal_moves(engine.new_game())[0].to_json()
    outcomes: list[str] = []
    barrier = threading.Barrier(8)

    def attempt(index: int) -> None:
        barrier.wait()
        with sessions() as session:
            try:
                moves.submit_move(
                    session,
                    room_id=created.room_id,
                    seat=0,
                    move=move,
                    version=0,
                    client_move_id=f"racer-{index}",
                )
                outcomes.append("applied")
            except StaleVersion:
                outcomes.append("stale")

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["applied"] + ["stale"] * 7
    with sessions() as session:
        assert len(gamelog.move_log(session, room_id=created.room_id)) == 1


def test_sockets_of_a_silent_process_stop_counting_as_online(
    sessions: sessionmaker[Session],
) -> None:
    with sessions() as session:
        created = started_room(session, host_seat=1)
        presence.register_process(session, process_id="p1")
        viewer = Viewer(room_id=created.room_id, seat=1, kind="seat", token=created.token)
        presence.connection_opened(session, connection_id="c1", process_id="p1", viewer=viewer)
        summary = queries.room_summary(session, room_id=created.room_id)
        assert summary.online == (False, True)
        session.execute(update(ServerProcess).values(heartbeat_at=time.time() - 120))
        session.commit()
        assert queries.room_summary(session, room_id=created.room_id).online == (
            False,
            False,
        )
        presence.heartbeat(session, process_id="p1")
        assert queries.room_summary(session, room_id=created.room_id).online == (
            False,
            True,
        )
        presence.unregister_process(session, process_id="p1")
        assert queries.room_summary(session, room_id=created.room_id).online == (
            False,
            False,
        )


def test_a_process_gone_silent_is_reported_once_for_its_rooms(
    sessions: sessionmaker[Session],
) -> None:
    with sessions() as session:
        created = started_room(session, host_seat=0)
        presence.register_process(session, process_id="gone")
        viewer = Viewer(room_id=created.room_id, seat=0, kind="seat", token=created.token)
        presence.connection_opened(
            session, connection_id="c-gone", process_id="gone", viewer=viewer
        )

        def silent() -> list[str]:
            return presence.rooms_gone_silent(session, timeout=30, window=15)

        assert silent() == []  # still beating
        session.execute(update(ServerProcess).values(heartbeat_at=time.time() - 35))
        session.commit()
        assert silent() == [created.room_id]  # just went silent
        session.execute(update(ServerProcess).values(heartbeat_at=time.time() - 120))
        session.commit()
        assert silent() == []  # reported when it happened, not again


def test_service_refusals_name_the_problem(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        with pytest.raises(ValueError, match="host_seat"):
            rooms.create_room(session, host_seat=2, base_url="http://x")  # type: ignore[arg-type]
        with pytest.raises(RoomNotFound):
            moves.submit_move(
                session, room_id="nope", seat=0, move={}, version=0, client_move_id="a"
            )
        with pytest.raises(InvalidLink):
            seats.claim_invite(session, invite_token="a" * 43, base_url="http://x")
        assert seats.resolve_token(session, token="a" * 43) is None
        assert seats.resolve_token(session, token="../../etc") is None


def test_closing_the_engine_waits_for_a_connection_still_in_use(database_url: str) -> None:
    """Shutting down closes a connection that a worker thread gives back a moment later, instead
    of leaving it open in a discarded pool."""
    db = make_engine(database_url)
    checked_out = threading.Event()
    raw: list[object] = []

    def late_work() -> None:
        with db.connect() as connection:
            raw.append(connection.connection.dbapi_connection)
            checked_out.set()
            time.sleep(0.3)

    worker = threading.Thread(target=late_work)
    worker.start()
    checked_out.wait(10)
    close_engine(db)
    worker.join()
    assert db.pool.checkedout() == 0
    connection = raw[0]
    if database_url.startswith("sqlite"):
        with pytest.raises(sqlite3.ProgrammingError):  # a closed sqlite3 connection refuses work
            connection.execute("SELECT 1")  # type: ignore[attr-defined]
    else:
        assert connection.closed  # type: ignore[attr-defined]
