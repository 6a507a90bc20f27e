"""The deployment files: docker-compose.yml with its two-processes profile, and deploy/Caddyfile.

Docker cannot run where the tests run, so these check the files themselves: the compose file is
parsed (PyYAML resolves its anchors and merges as compose does) and the Caddyfile is adapted to
Caddy's JSON by Debian's `caddy` (skipped without it, failed under CI=true).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


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


def test_caddy_spreads_the_requests_over_every_address_of_app() -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        if os.environ.get("CI") == "true":
            pytest.fail("caddy is required in CI (apt-get install caddy)")
        pytest.skip("caddy is not installed")
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
    proxy = route["handle"][0]["routes"][0]["handle"][0]
    assert proxy["handler"] == "reverse_proxy"
    assert proxy["dynamic_upstreams"] == {
        "source": "a",
        "name": "app",
        "port": "8000",
        "refresh": 5_000_000_000,
    }
    assert proxy["load_balancing"]["selection_policy"] == {"policy": "least_conn"}
    # The proxy lets go of an idle connection to the app before the app would close it, so it
    # never sends a request on a connection the app is closing.
    idle = proxy["transport"]["keep_alive"]["idle_timeout"] / 1e9
    assert idle == 30
    assert idle < Settings().keep_alive_timeout
