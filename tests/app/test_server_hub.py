"""The room hub: wake-ups, de-duplication of versions, dropping a socket that falls behind."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocket

from app.realtime import WAKE_QUEUE_SIZE, Hub, RoomSocket
from app.roomview import Viewer
from app.services import NOTIFY_CHANNEL

VIEWER = Viewer(room_id="r1", seat=0, kind="seat", token="t" * 43)


def fake_socket() -> RoomSocket:
    return RoomSocket(cast(WebSocket, object()), VIEWER)


def test_a_version_is_delivered_once_and_other_changes_always() -> None:
    async def scenario() -> list[int]:
        hub = Hub(asyncio.get_running_loop())
        socket = fake_socket()
        hub.join("r1", socket)
        sizes = []
        for version in (1, 1, 2, None, 2, None):
            hub.deliver("r1", version)
            sizes.append(socket.wakeups.qsize())
        hub.deliver("elsewhere", 5)
        return sizes

    assert asyncio.run(scenario()) == [1, 1, 2, 3, 3, 4]


def test_a_socket_that_falls_behind_is_dropped_not_waited_for() -> None:
    async def scenario() -> tuple[bool, bool]:
        hub = Hub(asyncio.get_running_loop())
        slow, fast = fake_socket(), fake_socket()
        hub.join("r1", slow)
        hub.join("r1", fast)
        for _ in range(WAKE_QUEUE_SIZE):
            hub.deliver("r1", None)
            await fast.next_wakeup()
        before = slow.dropped.is_set()
        hub.deliver("r1", None)
        return before, slow.dropped.is_set() and not fast.dropped.is_set()

    assert asyncio.run(scenario()) == (False, True)


def test_a_wakeup_swallows_the_ones_already_queued() -> None:
    async def scenario() -> int:
        socket = fake_socket()
        for _ in range(5):
            socket.wake()
        await socket.next_wakeup()
        return socket.wakeups.qsize()

    assert asyncio.run(scenario()) == 0


def test_room_changed_from_a_worker_thread_reaches_the_loop() -> None:
    async def scenario() -> int:
        hub = Hub(asyncio.get_running_loop())
        socket = fake_socket()
        hub.join("r1", socket)
        await asyncio.to_thread(hub.room_changed, "r1", 3)
        await asyncio.wait_for(socket.next_wakeup(), 5)
        hub.leave("r1", socket)
        hub.deliver("r1", 4)
        return socket.wakeups.qsize()

    assert asyncio.run(scenario()) == 0


def test_the_api_is_documented_in_openapi(client: TestClient) -> None:
    schema: dict[str, Any] = client.get("/openapi.json").json()
    paths = set(schema["paths"])
    assert {
        "/api/rooms",
        "/api/invites/{invite_token}",
        "/api/rooms/{room_id}",
        "/api/rooms/{room_id}/legal",
        "/api/rooms/{room_id}/moves",
        "/api/rooms/{room_id}/rematch",
    } <= paths
    assert client.get("/docs").status_code == 200


@pytest.mark.postgres
def test_the_listener_comes_back_after_its_connection_is_cut(postgres_url: str) -> None:
    db = create_engine(postgres_url)

    def sql(statement: str) -> None:
        with db.begin() as connection:
            connection.execute(text(statement))

    async def scenario() -> None:
        hub = Hub(asyncio.get_running_loop())
        socket = fake_socket()
        hub.join("r1", socket)
        listener = asyncio.create_task(hub.listen_postgres(postgres_url, retry_delay=0.1))
        try:
            await asyncio.wait_for(hub.listening.wait(), 10)
            await asyncio.wait_for(socket.next_wakeup(), 5)  # catch-up after (re)connecting
            await asyncio.to_thread(sql, f"NOTIFY {NOTIFY_CHANNEL}, 'r1 1'")
            await asyncio.wait_for(socket.next_wakeup(), 5)
            await asyncio.to_thread(
                sql,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE query = 'LISTEN {NOTIFY_CHANNEL}' AND pid <> pg_backend_pid()",
            )
            await asyncio.wait_for(socket.next_wakeup(), 10)  # the catch-up after reconnecting
            await asyncio.to_thread(sql, f"NOTIFY {NOTIFY_CHANNEL}, 'r1 2'")
            await asyncio.wait_for(socket.next_wakeup(), 5)
        finally:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener

    try:
        asyncio.run(scenario())
    finally:
        db.dispose()
