"""The servers under test of bench/load.py: started on free loopback ports with a database of
their own, their CPU time and memory read from /proc, stopped."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent

#: How each kind of server is started (in the project's root, settings in the environment).
COMMANDS = {
    "app": [sys.executable, "-m", "app"],
    "baseline": [sys.executable, "bench/baseline.py"],
}


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes] | None = None

    def cpu_seconds(self) -> float:
        if not self.process:
            return float("nan")
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def memory_kib(self, key: str) -> int:
        if not self.process:
            return 0
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
        return 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_servers(
    database_url: str, processes: int, data_dir: Path, kind: str = "app"
) -> list[Server]:
    servers = []
    for _ in range(processes):
        port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DATA_DIR": str(data_dir),
            "HOST": "127.0.0.1",
            "PORT": str(port),
            # One client address opens every room and socket: lift the per-address limits.
            "ROOMS_PER_MINUTE": "0",
            "SOCKETS_PER_ADDRESS": "0",
        }
        process = subprocess.Popen(
            COMMANDS[kind],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(data_dir / f"server-{port}.log", "wb"),  # noqa: SIM115
        )
        server = Server(url=f"http://127.0.0.1:{port}", process=process)
        wait_healthy(server)
        servers.append(server)
    return servers


def wait_healthy(server: Server, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process and server.process.poll() is not None:
            raise RuntimeError(
                f"the server on {server.url} exited with {server.process.returncode}"
            )
        try:
            if httpx.get(server.url + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server on {server.url} did not become healthy")


def stop_servers(servers: list[Server]) -> None:
    for server in servers:
        if server.process and server.process.poll() is None:
            server.process.send_signal(signal.SIGINT)
    for server in servers:
        if server.process:
            try:
                server.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.process.kill()
