"""The deployment files: docker-compose.yml with its two-processes profile, and deploy/Caddyfile.

Docker cannot run where the tests run, so these check the files themselves: the compose file is
parsed (PyYAML resolves its anchors and merges as compose does) and the Caddyfile is adapted to
Caddy's JSON by Debian's `caddy` (skipped without it, failed under CI=true).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from app.settings import Settings
from bench.appserver import free_port

ROOT = Path(__file__).resolve().parents[3]


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def test_by_default_compose_runs_one_app_process_behind_caddy() -> None:
    services = compose()["services"]
    default = {name for name, service in services.items() if "profiles" not in service}
    assert default == {"postgres", "app", "caddy"}
    assert services["app"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in services["caddy"]["volumes"]
    assert services["caddy"]["depends_on"] == ["app"]


def test_the_two_processes_profile_adds_a_second_app_process_on_the_same_database() -> None:
    services = compose()["services"]
    in_profile = {n for n, s in services.items() if "two-processes" in s.get("profiles", [])}
    assert in_profile == {"app-2"}
    first, second = services["app"], services["app-2"]
    # The same image and settings: one database, one public address, the proxy believed.
    for key in ("build", "image", "environment", "expose", "restart"):
        assert second[key] == first[key], key
    assert first["environment"]["DATABASE_URL"].startswith("postgresql+psycopg://")
    # Caddy finds it under the name "app", and it starts after the first one has migrated.
    assert second["networks"]["default"]["aliases"] == ["app"]
    assert second["depends_on"] == {"app": {"condition": "service_healthy"}}


def caddy_or_skip() -> str:
    caddy = shutil.which("caddy")
    if caddy is None:
        if os.environ.get("CI") == "true":
            pytest.fail("caddy is required in CI (apt-get install caddy)")
        pytest.skip("caddy is not installed")
    return caddy


def test_caddy_hashes_the_requests_over_every_address_of_app() -> None:
    caddy = caddy_or_skip()
    adapted = subprocess.run(
        [caddy, "adapt", "--config", str(ROOT / "deploy" / "Caddyfile"), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SITE_ADDRESS": "port.example"},
    )
    assert adapted.returncode == 0, adapted.stderr
    server = json.loads(adapted.stdout)["apps"]["http"]["servers"]["srv0"]
    route = server["routes"][0]
    assert route["match"] == [{"host": ["port.example"]}]
    handlers = [h for r in route["handle"][0]["routes"] for h in r["handle"]]
    (proxy,) = [h for h in handlers if h["handler"] == "reverse_proxy"]
    assert proxy["dynamic_upstreams"] == {
        "source": "a",
        "name": "app",
        "port": "8000",
        "refresh": 5_000_000_000,
    }
    assert proxy["load_balancing"]["selection_policy"] == {
        "policy": "header",
        "field": "X-Inland-Room",
    }
    # The proxy lets go of an idle connection to the app before the app would close it, so it
    # never sends a request on a connection the app is closing.
    idle = proxy["transport"]["keep_alive"]["idle_timeout"] / 1e9
    assert idle == 30
    assert idle < Settings().keep_alive_timeout


#: The header deploy/Caddyfile sets to a room's id and picks the room's process by.
ROOM_HEADER = "X-Inland-Room"


class _Upstream(BaseHTTPRequestHandler):
    """Answers every request with its own port and the room header it was given."""

    def do_GET(self) -> None:
        body = json.dumps(
            {"port": self.server.server_address[1], "room": self.headers.get(ROOM_HEADER)}
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_caddy_sends_every_request_of_a_room_to_one_process(tmp_path: Path) -> None:
    """deploy/Caddyfile with two processes (its upstreams given as addresses): a room's page, its
    moves through the page and the API and its socket's address all reach the process its id
    hashes to; the rooms are spread over both; a room header a client sends is not believed."""
    caddy = caddy_or_skip()
    upstreams = [ThreadingHTTPServer(("127.0.0.1", 0), _Upstream) for _ in range(2)]
    for upstream in upstreams:
        threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port = free_port()
    config = re.sub(
        r"dynamic a app 8000 \{[^}]*\}",
        "to " + " ".join(f"127.0.0.1:{u.server_address[1]}" for u in upstreams),
        (ROOT / "deploy" / "Caddyfile").read_text(),
    )
    config = "{\n\tadmin off\n}\n" + config.replace(
        "{$SITE_ADDRESS:localhost}", f"http://127.0.0.1:{port}"
    )
    assert "127.0.0.1:" in config and "dynamic" not in config
    (tmp_path / "Caddyfile").write_text(config)
    proxy = subprocess.Popen(
        [caddy, "run", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as client:
            deadline = time.monotonic() + 30
            while True:
                try:
                    client.get("/healthz")
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline, "caddy did not start"
                    time.sleep(0.1)
            process_of = {}
            for index in range(24):
                room = f"room{index:02d}Xy_-"
                answers = [
                    client.get(path).json()
                    for path in (
                        f"/rooms/{room}",
                        f"/rooms/{room}/moves",
                        f"/api/rooms/{room}/moves",
                        f"/ws/rooms/{room}?token=t",
                    )
                ]
                assert {a["room"] for a in answers} == {room}
                assert len({a["port"] for a in answers}) == 1, answers
                process_of[room] = answers[0]["port"]
            assert set(process_of.values()) == {u.server_address[1] for u in upstreams}
            for path in ("/", "/s/token", "/static/x.css"):
                answer = client.get(path, headers={ROOM_HEADER: "room00Xy_-"}).json()
                assert answer["room"] is None
    finally:
        proxy.terminate()
        proxy.wait(timeout=10)
        for upstream in upstreams:
            upstream.shutdown()
            upstream.server_close()
