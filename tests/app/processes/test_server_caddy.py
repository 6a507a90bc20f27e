"""HTTPS behind a proxy: Debian's Caddy terminates TLS (`tls internal`) in front of `python -m app`.

Over HTTPS: the pages with HSTS, Secure cookies, the Origin check against the public origin, and
a whole move whose board reaches the other player over a `wss://` socket. Without `caddy` the
test is skipped, and fails under CI=true (.ci/run installs it).
"""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from support.boards import board_version, is_board
from support.rooms import bearer, token_of
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from bench.appserver import AppServer, free_port

pytestmark = pytest.mark.slow

CADDYFILE = """{{
	admin off
	auto_https disable_redirects
	skip_install_trust
}}
https://localhost:{port} {{
	tls internal
	reverse_proxy 127.0.0.1:{app_port}
}}
"""


@dataclass
class Proxied:
    url: str
    app: AppServer


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[Proxied]:
    caddy = shutil.which("caddy")
    if caddy is None:
        if os.environ.get("CI") == "true":
            pytest.fail("caddy is required in CI (apt-get install caddy)")
        pytest.skip("caddy is not installed")
    port = free_port()
    public = f"https://localhost:{port}"
    app = AppServer(
        tmp_path,
        env={"PUBLIC_URL": public, "FORWARDED_ALLOW_IPS": "127.0.0.1"},
    )
    app.start()
    config = tmp_path / "Caddyfile"
    config.write_text(CADDYFILE.format(port=port, app_port=app.port))
    home = tmp_path / "caddy"
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
    log = (tmp_path / "caddy.log").open("wb")
    process = subprocess.Popen(
        [caddy, "run", "--config", str(config), "--adapter", "caddyfile"],
        env=env,
        stdout=log,
        stderr=log,
    )
    try:
        _wait_for(public, process, tmp_path / "caddy.log")
        yield Proxied(url=public, app=app)
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()
        app.stop()


def _wait_for(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"caddy exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(url + "/healthz", verify=False, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError(f"caddy did not serve {url} in time: {log.read_text()[-2000:]}")


def _socket(url: str, room: str, token: str, origin: str) -> ClientConnection:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    wss = url.replace("https://", "wss://") + f"/ws/rooms/{room}?token={token}"
    return connect(wss, ssl=context, origin=origin, open_timeout=10)


def test_https_through_caddy(proxied: Proxied) -> None:
    url = proxied.url
    own = {"origin": url}
    with httpx.Client(base_url=url, verify=False, timeout=10) as http:
        home = http.get("/")
        assert home.status_code == 200
        assert home.headers["strict-transport-security"] == "max-age=31536000"
        assert "frame-ancestors 'none'" in home.headers["content-security-policy"]

        # The home page's form: the seat link's cookie is Secure, the table opens over https.
        form = {"host_seat": "0", "computer": ""}
        created = http.post("/rooms", data=form, headers=own, follow_redirects=False)
        assert created.status_code == 303, created.text
        seat = http.get(created.headers["location"], follow_redirects=False)
        cookie = seat.headers["set-cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie, cookie
        table = http.get(seat.headers["location"])
        assert table.status_code == 200 and 'id="board"' in table.text
        assert f'value="{url}/i/' in table.text  # links name the public https address

        # The Origin check holds against the public origin.
        evil = {"origin": "https://evil.example"}
        assert http.post("/rooms", data=form, headers=evil).status_code == 403

        # A whole move: the host plays over HTTPS, the guest's wss:// socket gets the board.
        room = http.post("/api/rooms", json={"host_seat": 0}, headers=own).json()
        assert room["invite_link"].startswith(f"{url}/i/")
        guest = http.post(f"/api/invites/{token_of(room['invite_link'])}", headers=own).json()
        with _socket(url, room["room"], guest["token"], url) as ws:
            assert board_version(str(ws.recv(timeout=10))) == 0
            headers = {**bearer(room["token"]), **own}
            legal = http.get(f"/api/rooms/{room['room']}/legal", headers=headers).json()
            move = next(m for m in legal["moves"] if m["type"] != "sell")
            body = {"move": move, "version": 0, "client_move_id": "through-caddy"}
            moved = http.post(f"/api/rooms/{room['room']}/moves", json=body, headers=headers)
            assert moved.status_code == 200, moved.text
            versions = []
            while 1 not in versions:
                html = str(ws.recv(timeout=10))
                if is_board(html):
                    versions.append(board_version(html))

        # A socket from a page of another site is refused at the handshake.
        with pytest.raises(InvalidStatus) as refused:
            _socket(url, room["room"], guest["token"], "https://evil.example")
        assert refused.value.response.status_code == 403
