"""`python -m app` in a child process on a free loopback port: started, stopped, killed and
started again on the same port and database. Used by bench/chaos.py and the browser tests.

Its output goes to `server.log` in its data directory.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class AppServer:
    """One server process. Without `database_url` it uses the embedded SQLite database of its
    data directory; `env` adds settings (e.g. WS_PING_INTERVAL)."""

    def __init__(
        self, data_dir: Path, *, database_url: str | None = None, env: dict[str, str] | None = None
    ) -> None:
        self.data_dir = data_dir
        self.database_url = database_url
        self.extra_env = env or {}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = data_dir / "server.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120.0) -> None:
        """Start the process and wait until /healthz answers (its database is up)."""
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("DATABASE_URL", "PUBLIC_URL")
        }
        env.update(HOST="127.0.0.1", PORT=str(self.port), DATA_DIR=str(self.data_dir))
        if self.database_url:
            env["DATABASE_URL"] = self.database_url
        env.update(self.extra_env)
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=log, stderr=log
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code, self.process = self.process.returncode, None
                raise RuntimeError(f"the server exited ({code}): {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1.0).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not become healthy within {timeout:g} s")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        """A clean shutdown (SIGTERM), killed when it takes over 10 s."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None
