"""The table's small pages: the invalid-link page dressed like the rest in the viewer's
language, the favicon, the sell buttons asking first, the help panel that claims no turn."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_an_invalid_link_gets_the_styled_error_page_in_the_viewers_language(
    client: TestClient,
) -> None:
    for path in ("/s/not-a-token", "/w/not-a-token", "/i/not-a-token"):
        answer = client.get(path, headers={"Accept-Language": "cs"}, follow_redirects=False)
        assert answer.status_code == 404
        assert '<link rel="stylesheet" href="/static/css/base.css">' in answer.text
        assert 'class="error-page"' in answer.text
        assert '<html lang="cs">' in answer.text


def test_the_favicon_is_served(client: TestClient) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in answer.content


def test_the_help_panel_never_says_whose_move_it_is(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"host_seat": 0}).json()
    page = client.get(created["seat_link"])
    assert page.status_code == 200
    assert "How a turn goes" in page.text
    assert "Your move" not in page.text
