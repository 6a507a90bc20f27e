"""The chat through the JSON API, the room page and the room sockets, on SQLite and PostgreSQL:
who writes and reads where, the limits, the host's setting, and the home page's games."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy.orm import Session
from starlette.testclient import WebSocketTestSession
from support.rooms import bearer, import_record, new_room, play, token_of
from websockets.sync.client import connect

from app.models import Seat
from app.reads import catalogs
from app.reads.chatview import host_seat
from app.services import chat as chat_service
from app.services import rooms
from app.services.chat import MAX_LENGTH, RATE_LIMIT, clean_text
from bench.appserver import AppServer

ORIGIN = {"Origin": "http://testserver"}


def say(client: TestClient, room: dict[str, Any], token: str, channel: str, text: str) -> Any:
    return client.post(
        f"/api/rooms/{room['room']}/chat",
        json={"channel": channel, "text": text},
        headers=bearer(token),
    )


def read(client: TestClient, room: dict[str, Any], token: str, after: int = 0) -> Any:
    response = client.get(f"/api/rooms/{room['room']}/chat?after={after}", headers=bearer(token))
    assert response.status_code == 200, response.text
    return response.json()


def texts(lines: list[dict[str, Any]] | None) -> list[str]:
    assert lines is not None
    return [line["text"] for line in lines]


def next_chat(ws: WebSocketTestSession, needle: str) -> str:
    """Read frames until a chat frame holding `needle` (boards are skipped)."""
    for _ in range(20):
        html = ws.receive_text()
        if 'id="chat-' in html and needle in html:
            return html
    raise AssertionError(f"no chat frame with {needle!r}")


def test_players_write_to_each_other_and_spectators_among_themselves(client: TestClient) -> None:
    room = new_room(client)
    host, guest, spectator = room["tokens"][0], room["tokens"][1], room["spectator"]

    first = say(client, room, host, "players", "Good luck")
    assert first.status_code == 201, first.text
    assert first.json()["seat"] == 0 and first.json()["author"] == ""
    assert say(client, room, guest, "players", "<script>alert(1)</script>").status_code == 201
    watched = say(client, room, spectator, "spectators", "  nice\nopening  ")
    assert watched.status_code == 201
    assert watched.json()["seat"] is None and len(watched.json()["author"]) == 4
    assert watched.json()["text"] == "nice opening"

    # Each group writes only in its own chat.
    for token, channel in ((spectator, "players"), (host, "spectators")):
        refused = say(client, room, token, channel, "hello")
        assert refused.status_code == 403 and refused.json()["code"] == "chat_not_yours"

    # Everyone reads both chats (spectators read the players' by default), oldest first.
    for token in (host, guest, spectator):
        chat = read(client, room, token)
        assert texts(chat["players"]) == ["Good luck", "<script>alert(1)</script>"]
        assert texts(chat["spectators"]) == ["nice opening"]
        assert chat["host_seat"] == 0 and chat["spectators_read"] is True
    newer = read(client, room, guest, after=first.json()["id"])
    assert texts(newer["players"]) == ["<script>alert(1)</script>"]

    # No token, another room's token, an invite token: no chat.
    other = new_room(client)
    assert client.get(f"/api/rooms/{room['room']}/chat").status_code == 401
    assert client.get(f"/api/rooms/{room['room']}/chat", headers=bearer(other["token"])).json()[
        "code"
    ] == ("wrong_token")


def test_the_host_decides_whether_spectators_read_the_players_chat(client: TestClient) -> None:
    room = new_room(client, host_seat=1)  # the host moves second: seat 1
    host, guest, spectator = room["tokens"][1], room["tokens"][0], room["spectator"]
    assert say(client, room, guest, "players", "just between us").status_code == 201
    url = f"/api/rooms/{room['room']}/chat/settings"

    refused = client.put(url, json={"spectators_read": False}, headers=bearer(guest))
    assert refused.status_code == 403 and refused.json()["code"] == "chat_host_only"
    refused = client.put(url, json={"spectators_read": False}, headers=bearer(spectator))
    assert refused.json()["code"] == "chat_host_only"
    assert read(client, room, spectator)["players"] is not None

    done = client.put(url, json={"spectators_read": False}, headers=bearer(host))
    assert done.status_code == 200 and done.json() == {"spectators_read": False}
    assert read(client, room, spectator)["players"] is None
    assert texts(read(client, room, guest)["players"]) == ["just between us"]
    client.put(url, json={"spectators_read": True}, headers=bearer(host))
    assert texts(read(client, room, spectator)["players"]) == ["just between us"]


def test_a_message_has_one_to_300_characters(client: TestClient) -> None:
    room = new_room(client)
    host = room["tokens"][0]
    assert say(client, room, host, "players", "é" * MAX_LENGTH).status_code == 201
    too_long = say(client, room, host, "players", "x" * (MAX_LENGTH + 1))
    assert too_long.status_code == 422
    assert too_long.json()["code"] == "chat_too_long"
    assert too_long.json()["params"] == {"max_length": MAX_LENGTH}
    assert too_long.json()["detail"] == "A message has at most 300 characters."
    for empty in ("", "   ", "\n\t", "\x00\x07"):
        refused = say(client, room, host, "players", empty)
        assert refused.status_code == 422 and refused.json()["code"] == "chat_empty"
    odd = say(client, room, host, "nowhere", "hi")
    assert odd.status_code == 422  # not a channel
    assert texts(read(client, room, host)["players"]) == ["é" * MAX_LENGTH]


def test_clean_text_keeps_text_and_drops_controls() -> None:
    assert clean_text(" a\r\nb\tc\x00d\u200b ") == "a  b cd\u200b"
    assert clean_text("<b>&amp;</b>") == "<b>&amp;</b>"


def test_five_messages_in_ten_seconds_per_person(client: TestClient) -> None:
    room = new_room(client)
    host, guest, spectator = room["tokens"][0], room["tokens"][1], room["spectator"]
    for n in range(RATE_LIMIT):
        assert say(client, room, host, "players", f"m{n}").status_code == 201
    refused = say(client, room, host, "players", "one too many")
    assert refused.status_code == 429
    assert refused.json()["code"] == "chat_too_fast"
    assert 1 <= int(refused.headers["retry-after"]) <= 10
    # The others are persons of their own.
    assert say(client, room, guest, "players", "my turn to talk").status_code == 201
    assert say(client, room, spectator, "spectators", "and mine").status_code == 201
    assert len(read(client, room, guest)["players"]) == RATE_LIMIT + 1

    # The page tells it in the viewer's language, with the same status.
    client.get(f"/s/{host}")
    page = client.post(
        f"/rooms/{room['room']}/chat",
        data={"channel": "players", "text": "again"},
        headers={**ORIGIN, "Accept-Language": "cs"},
    )
    assert page.status_code == 429
    assert 'id="chat-players-error"' in page.text and "Příliš mnoho zpráv" in page.text


def test_the_page_shows_messages_as_text_and_the_socket_pushes_them(client: TestClient) -> None:
    room = new_room(client)
    host, spectator = room["tokens"][0], room["spectator"]
    path = f"/ws/rooms/{room['room']}"
    with client.websocket_connect(f"{path}?token={spectator}") as watcher:
        watcher.receive_text()  # the board
        client.get(f"/s/{host}")  # the host's browser
        answer = client.post(
            f"/rooms/{room['room']}/chat",
            data={"channel": "players", "text": "<script>alert('x')</script>"},
            headers=ORIGIN,
        )
        assert answer.status_code == 200
        assert 'id="chat-players-log"' in answer.text
        assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in answer.text
        assert "<script>" not in answer.text
        pushed = next_chat(watcher, "alert")
        assert "<script>" not in pushed and 'hx-swap-oob="true"' in pushed

        # A bad message does not end the socket: the next chat still arrives.
        watcher.send_text("{not json at all")
        watcher.send_bytes(b"\xff\xfe")
        say(client, room, host, "players", "still here?")
        assert "still here?" in next_chat(watcher, "still here?")

    page = client.get(f"/rooms/{room['room']}")
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page.text
    assert "<script>alert" not in page.text
    assert 'id="chat-players-text"' in page.text  # the host writes in the players' chat
    assert 'name="spectators_read"' in page.text  # and is the host
    with client.websocket_connect(f"{path}?token={host}") as again:
        assert "still here?" in next_chat(again, "still here?")  # on (re)connect too


def test_the_home_page_lists_this_browsers_games_without_tokens(client: TestClient) -> None:
    playing = new_room(client)
    watching = new_room(client)
    computer = client.post("/api/rooms", json={"host_seat": 1, "computer": "easy"}).json()
    client.get(f"/s/{playing['tokens'][1]}")  # the guest's seat
    client.get(f"/w/{watching['spectator']}")  # a spectator only: not a game of ours
    client.get(f"/s/{computer['token']}")
    client.cookies.set("ip_nonsense", "not-a-token")

    home = client.get("/")
    assert home.status_code == 200
    assert f'data-room="{playing["room"]}"' in home.text
    assert f'data-room="{computer["room"]}"' in home.text
    assert f'data-room="{watching["room"]}"' not in home.text
    assert "against a friend" in home.text and "against the computer (easy)" in home.text
    assert f'href="/rooms/{playing["room"]}"' in home.text
    for token in (*playing["tokens"].values(), computer["token"], playing["spectator"]):
        assert token not in home.text
    assert token_of(playing["invite_link"]) not in home.text

    client.cookies.clear()
    assert "your-games" not in client.get("/").text


@pytest.mark.slow
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
def test_a_message_reaches_a_socket_of_another_process(database_url: str, tmp_path: Path) -> None:
    servers = [AppServer(tmp_path / name, database_url=database_url) for name in ("a", "b")]
    try:
        for server in servers:
            server.data_dir.mkdir()
            server.start()
        first, second = servers
        with httpx.Client(timeout=10) as http:
            created = http.post(f"{first.url}/api/rooms", json={"host_seat": 0}).json()
            claimed = http.post(
                f"{second.url}/api/invites/{token_of(created['invite_link'])}"
            ).json()
            url = (
                f"ws://127.0.0.1:{second.port}/ws/rooms/{created['room']}?token={claimed['token']}"
            )
            with connect(url) as guest:
                guest.recv(timeout=10)  # the board
                posted = http.post(
                    f"{first.url}/api/rooms/{created['room']}/chat",
                    json={"channel": "players", "text": "across <processes>"},
                    headers=bearer(created["token"]),
                )
                assert posted.status_code == 201, posted.text
                for _ in range(20):
                    frame = guest.recv(timeout=10)
                    assert isinstance(frame, str)
                    if "across" in frame:
                        assert "across &lt;processes&gt;" in frame
                        break
                else:
                    raise AssertionError("the message never reached the other process")
            again = http.get(
                f"{second.url}/api/rooms/{created['room']}/chat",
                headers=bearer(claimed["token"]),
            ).json()
            assert texts(again["players"]) == ["across <processes>"]
    finally:
        for server in servers:
            server.stop()


def test_the_host_is_the_player_who_opened_the_room_also_in_a_rematch(database_url: str) -> None:
    db = create_engine(database_url)
    with Session(db) as session:
        catalog = catalogs.registry().default()
        first = rooms.new_room(session, computer=None, computer_seat=None, catalog=catalog)
        session.add(Seat(room_id=first.id, seat=1, token_hash="h" * 64, joined_at=first.created_at))
        later = first.created_at + timedelta(minutes=1)
        session.add(Seat(room_id=first.id, seat=0, token_hash="g" * 64, joined_at=later))
        again = rooms.new_room(
            session, computer=None, computer_seat=None, rematch_of=first.id, catalog=catalog
        )
        for seat, digest in ((0, "i"), (1, "j")):
            session.add(
                Seat(
                    room_id=again.id, seat=seat, token_hash=digest * 64, joined_at=again.created_at
                )
            )
        session.commit()
        assert host_seat(session, first) == 1
        assert host_seat(session, again) == 0  # the host of the first game, in the other seat
    db.dispose()


def test_a_setting_changed_back_reaches_the_sockets_of_an_empty_chat(client: TestClient) -> None:
    room = new_room(client)
    url = f"/api/rooms/{room['room']}/chat/settings"
    with client.websocket_connect(f"/ws/rooms/{room['room']}?token={room['spectator']}") as ws:
        ws.receive_text()  # the board
        client.put(url, json={"spectators_read": False}, headers=bearer(room["token"]))
        assert "is-hidden" not in next_chat(ws, "Only the two players can read this chat")
        client.put(url, json={"spectators_read": True}, headers=bearer(room["token"]))
        assert "No messages yet" in next_chat(ws, "Spectators can read this chat")


def imported_room(client: TestClient) -> tuple[str, str]:
    """A played room's record imported again: the review room's id and its link's token, this
    browser holding the link."""
    room = new_room(client)
    play(client, room, 4)
    client.get(f"/s/{room['tokens'][0]}")
    return import_record(client, client.get(f"/rooms/{room['room']}/record.json").text)


def test_the_chat_is_closed_in_an_imported_room(client: TestClient) -> None:
    """An imported record's room is a review anyone with its link may open: no chat there."""
    review_room, token = imported_room(client)
    refused = say(client, {"room": review_room}, token, "spectators", "hello")
    assert refused.status_code == 403 and refused.json()["code"] == "chat_closed"
    assert read(client, {"room": review_room}, token)["spectators"] == []


def test_a_room_keeps_its_newest_messages(client: TestClient, monkeypatch: Any) -> None:
    """A room's chat is bounded: past `MAX_MESSAGES` the oldest message is deleted (not kept in
    the record either)."""
    monkeypatch.setattr(chat_service, "MAX_MESSAGES", 3)
    monkeypatch.setattr(chat_service, "RATE_LIMIT", 100)
    room = new_room(client)
    host = room["tokens"][0]
    for n in range(5):
        assert say(client, room, host, "players", f"message {n}").status_code == 201
    assert texts(read(client, room, host)["players"]) == ["message 2", "message 3", "message 4"]


def test_an_imported_room_s_table_shows_no_chat(client: TestClient) -> None:
    review_room, _ = imported_room(client)
    table = client.get(f"/rooms/{review_room}")
    assert table.status_code == 200
    assert 'id="chat-spectators-text"' not in table.text
    played = new_room(client)
    client.get(f"/s/{played['tokens'][0]}")
    assert 'id="chat-players-text"' in client.get(f"/rooms/{played['room']}").text
