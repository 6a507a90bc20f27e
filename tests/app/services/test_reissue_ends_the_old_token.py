"""A seat link given anew ends everything of the old token: its open pages (also one that was
let in just before the reissue and joins the room's hub after it), what any process remembers
of it, the spectator link derived from it and the rematch offer made with it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text, update
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect
from support.processes import two_processes
from support.rooms import bearer, new_room, token_of
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.edge.tokens import rematch_token_for, spectator_token_for, token_hash
from app.models import Seat
from app.routes import ws
from app.services import seats
from bench.appserver import AppServer


def _reissue(client: TestClient, room: dict[str, Any]) -> str:
    answer = client.post(f"/api/rooms/{room['room']}/seat-link", headers=bearer(room["tokens"][0]))
    assert answer.status_code == 200, answer.text
    return token_of(answer.json()["seat_link"])


def test_a_socket_let_in_before_a_reissue_that_joins_after_it_is_closed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = new_room(client)
    room_id, guest = room["room"], room["tokens"][1]
    checked = ws._catalog_here

    def reissue_meanwhile(websocket: Any, room_id: str) -> bool:
        _reissue(client, room)  # the guest's token was resolved already
        return checked(websocket, room_id)

    monkeypatch.setattr(ws, "_catalog_here", reissue_meanwhile)
    with client.websocket_connect(f"/ws/rooms/{room_id}?token={guest}") as socket:
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                socket.receive_text()
        assert closed.value.code == 1012


class _ReissuedWhileRead:
    """A session whose seat read is followed at once by a reissue's forgetting (as when the
    reissue commits between the read and the put into the memory of tokens)."""

    def __init__(self, session: Session, room_id: str) -> None:
        self._session, self._room_id = session, room_id

    def scalar(self, statement: Any) -> Any:
        found = self._session.scalar(statement)
        seats.forget_seat_tokens(self._room_id)
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


def test_a_read_of_the_old_seat_row_does_not_put_the_old_token_back(
    client: TestClient, database_url: str
) -> None:
    room = new_room(client)
    guest = room["tokens"][1]
    db = create_engine(database_url)
    try:
        with Session(db) as session:
            reading = _ReissuedWhileRead(session, room["room"])
            viewer = seats.resolve_token(reading, token=guest)  # type: ignore[arg-type]
        assert viewer is not None and viewer.seat == 1  # what the row said when read
        assert seats.known_viewer(guest) is None  # but it is not remembered
    finally:
        db.dispose()


def test_the_old_tokens_spectator_link_ends_with_it(client: TestClient) -> None:
    room = new_room(client)
    room_id, old_spectator = room["room"], spectator_token_for(room["tokens"][1])
    assert client.get(f"/api/rooms/{room_id}", headers=bearer(old_spectator)).status_code == 200
    new_guest = _reissue(client, room)
    assert client.get(f"/api/rooms/{room_id}", headers=bearer(old_spectator)).status_code == 403
    assert client.get(f"/w/{old_spectator}", follow_redirects=False).status_code == 404
    # the new token's spectator link opens the room, and the host's still does
    for spectator in (spectator_token_for(new_guest), room["spectator"]):
        assert client.get(f"/api/rooms/{room_id}", headers=bearer(spectator)).status_code == 200


def test_the_old_tokens_rematch_offer_ends_with_it(client: TestClient) -> None:
    room = new_room(client)
    room_id, host, old_guest = room["room"], room["tokens"][0], room["tokens"][1]
    assert client.post(f"/api/rooms/{room_id}/resign", headers=bearer(host)).status_code == 200
    offered = client.post(f"/api/rooms/{room_id}/rematch", headers=bearer(old_guest))
    assert offered.status_code == 200, offered.text
    new_guest = _reissue(client, room)
    # the host's offer alone opens nothing: the guest's offer went with the old token
    answer = client.post(f"/api/rooms/{room_id}/rematch", headers=bearer(host))
    assert answer.status_code == 200 and answer.json()["room"] is None, answer.text
    opened = client.post(f"/api/rooms/{room_id}/rematch", headers=bearer(new_guest)).json()
    assert opened["room"] is not None
    assert client.get(f"/s/{rematch_token_for(old_guest)}").status_code == 404
    assert client.get(f"/s/{rematch_token_for(new_guest)}").status_code == 200


def _listener_pids(database_url: str) -> list[int]:
    db = create_engine(database_url)
    try:
        with db.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                    " AND query LIKE 'LISTEN %'"
                )
            ).all()
            return [pid for (pid,) in rows]
    finally:
        db.dispose()


@pytest.mark.postgres_only
def test_a_listener_that_reconnects_rereads_the_seats_of_its_rooms(
    client: TestClient, database_url: str
) -> None:
    """A seat's new token written while the listener was away (its NOTIFY lost) still closes
    the old token's pages and ends what the process remembered of it."""
    room = new_room(client)
    room_id, guest = room["room"], room["tokens"][1]
    assert client.get(f"/api/rooms/{room_id}", headers=bearer(guest)).status_code == 200
    with client.websocket_connect(f"/ws/rooms/{room_id}?token={guest}") as socket:
        socket.receive_text()
        db = create_engine(database_url)
        try:
            with db.begin() as connection:  # a new token, and no NOTIFY
                connection.execute(
                    update(Seat)
                    .where(Seat.room_id == room_id, Seat.seat == 1)
                    .values(token_hash=token_hash("a-token-given-while-nobody-listened"))
                )
                for pid in _listener_pids(database_url):
                    connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        finally:
            db.dispose()
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                socket.receive_text()
        assert closed.value.code == 1012
    assert client.get(f"/api/rooms/{room_id}", headers=bearer(guest)).status_code == 403


@pytest.fixture
def two_servers(database_url: str, tmp_path: Path) -> Iterator[list[AppServer]]:
    with two_processes(database_url, tmp_path) as servers:
        yield servers


@pytest.mark.slow
@pytest.mark.postgres_only
def test_a_reissue_in_one_process_closes_the_old_tokens_page_in_the_other(
    two_servers: list[AppServer],
) -> None:
    first, second = two_servers
    with httpx.Client(timeout=10) as http:
        created = http.post(f"{first.url}/api/rooms", json={"host_seat": 0}).json()
        room_id = created["room"]
        guest = http.post(f"{second.url}/api/invites/{token_of(created['invite_link'])}").json()
        old_spectator = spectator_token_for(guest["token"])
        url = f"ws://127.0.0.1:{second.port}/ws/rooms/{room_id}?token="
        with connect(url + guest["token"]) as page, connect(url + old_spectator) as watching:
            page.recv(timeout=10)
            watching.recv(timeout=10)
            answer = http.post(
                f"{first.url}/api/rooms/{room_id}/seat-link", headers=bearer(created["token"])
            )
            assert answer.status_code == 200
            for socket in (page, watching):
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        socket.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        for token in (guest["token"], old_spectator):
            refused = http.get(f"{second.url}/api/rooms/{room_id}", headers=bearer(token))
            assert refused.status_code == 403
