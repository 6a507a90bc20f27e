"""Security headers on every response, Secure cookies and HSTS behind an https PUBLIC_URL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from support.rooms import new_room, token_of

from app.edge.guards import origin_allowed
from app.edge.headers import CONTENT_SECURITY_POLICY
from app.main import create_app
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[3]


def test_every_page_and_fragment_carries_the_headers(client: TestClient) -> None:
    room = new_room(client)
    link = f"/s/{room['tokens'][0]}"
    answers = {
        "home": client.get("/"),
        "rules": client.get("/rules"),
        "docs": client.get("/docs"),
        "table": client.get(link),
        "panel": client.get(f"/rooms/{room['room']}/panel?building=nope"),
        "api": client.get("/api/rooms/" + room["room"], headers={"Authorization": "Bearer x"}),
        "missing": client.get("/no/such/page"),
        "link redirect": client.get(link, follow_redirects=False),
    }
    for name, response in answers.items():
        headers = response.headers
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY, name
        assert headers["x-frame-options"] == "DENY", name
        assert headers["x-content-type-options"] == "nosniff", name
        assert headers["referrer-policy"] == "no-referrer", name
        assert "camera=()" in headers["permissions-policy"], name
        assert headers["cache-control"] == "no-store", name
        assert "strict-transport-security" not in headers, name
    static = client.get("/static/css/base.css")
    assert static.headers["x-content-type-options"] == "nosniff"
    assert "no-store" not in static.headers.get("cache-control", "")


def test_the_policy_forbids_inline_code_and_other_origins() -> None:
    directives = dict(d.split(" ", 1) for d in CONTENT_SECURITY_POLICY.split("; "))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY
    assert "http" not in CONTENT_SECURITY_POLICY


def test_no_page_template_has_inline_script_or_style() -> None:
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        assert not re.search(r"\sstyle=", text), template
        assert not re.search(r"<style", text), template
        assert not re.search(r"\son[a-z]+=", text), template
        assert not re.search(r"hx-on", text), template
        for script in re.findall(r"<script[^>]*>", text):
            # A JSON data block is never run, so the policy has nothing to allow for it.
            data = 'type="application/json"' in script
            assert "src=" in script or data, (template, script)


def test_the_docs_page_loads_swagger_ui_from_this_origin(client: TestClient) -> None:
    page = client.get("/docs").text
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources and all(source.startswith("/") for source in sources), sources
    for source in sources:
        assert client.get(source).status_code == 200, source
    assert "<script>" not in page


@pytest.fixture
def https_client(settings: Settings) -> Iterator[TestClient]:
    public = settings.model_copy(update={"public_url": "https://port.example"})
    # The proxy talks plain http to the app: the cookies must be Secure all the same.
    with TestClient(create_app(public), base_url="http://port.example") as test_client:
        yield test_client


def test_https_public_url_makes_cookies_secure_and_sends_hsts(https_client: TestClient) -> None:
    origin = {"origin": "https://port.example"}
    created = https_client.post(
        "/rooms", data={"host_seat": "0", "computer": ""}, headers=origin, follow_redirects=False
    )
    assert created.status_code == 303
    assert created.headers["strict-transport-security"] == "max-age=31536000"
    seat = https_client.get(created.headers["location"], follow_redirects=False)
    cookie = seat.headers["set-cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    chosen = https_client.post(
        "/language", data={"lang": "cs", "next": "/"}, headers=origin, follow_redirects=False
    )
    assert "Secure" in chosen.headers["set-cookie"]
    assert https_client.get("/").headers["strict-transport-security"] == "max-age=31536000"
    room = new_room(https_client)
    assert room["invite_link"].startswith("https://port.example/i/")
    assert token_of(room["invite_link"])


def test_plain_http_cookies_are_not_secure(client: TestClient) -> None:
    created = client.post("/rooms", data={"host_seat": "0", "computer": ""}, follow_redirects=False)
    seat = client.get(created.headers["location"], follow_redirects=False)
    assert "Secure" not in seat.headers["set-cookie"]


def test_a_form_of_this_site_under_no_referrer_passes_the_origin_check() -> None:
    """Under `Referrer-Policy: no-referrer` Chromium sends `Origin: null` with a form post."""

    def check(fetch_site: str | None) -> bool:
        headers = [(b"host", b"port.example"), (b"origin", b"null")]
        if fetch_site is not None:
            headers.append((b"sec-fetch-site", fetch_site.encode()))
        return origin_allowed(headers, frozenset())

    assert check("same-origin")
    assert not check("same-site")
    assert not check("cross-site")
    assert not check(None)


def test_the_public_origin_is_allowed_even_when_a_proxy_rewrites_the_host() -> None:
    settings = Settings(public_url="https://port.example/")
    headers = [(b"host", b"127.0.0.1:8000"), (b"origin", b"https://port.example")]
    assert origin_allowed(headers, settings.extra_origins)
    evil = [(b"host", b"127.0.0.1:8000"), (b"origin", b"https://evil.example")]
    assert not origin_allowed(evil, settings.extra_origins)
