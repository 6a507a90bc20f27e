"""The servers under test of bench/load.py: started on free loopback ports with a database of
their own, their CPU time and memory read from /proc, stopped; and the CPU time of the
PostgreSQL backends that serve them."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent

#: How each kind of server is started (in the project's root, settings in the environment).
COMMANDS = {
    "app": [sys.executable, "-m", "app"],
    "baseline": [sys.executable, "bench/baseline.py"],
    "baseline_lehavre": [sys.executable, "bench/baseline_lehavre.py"],
}


def process_cpu_seconds(pid: int) -> float | None:
    """User and system CPU time of process `pid` so far (None once it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes] | None = None

    def cpu_seconds(self) -> float:
        seconds = process_cpu_seconds(self.process.pid) if self.process else None
        return float("nan") if seconds is None else seconds

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


class BackendCpu:
    """The CPU time PostgreSQL's backends spend for one database's connections, from `start` to
    `stop`: their pids read from ``pg_stat_activity`` and their CPU from /proc (the cluster runs
    on this machine) once a second, so a backend that ends between two reads loses at most its
    last second. The cluster's shared processes (WAL writer, checkpointer) are not counted: other
    databases share them."""

    INTERVAL = 1.0

    def __init__(self, conninfo: str, database: str) -> None:
        self.conninfo, self.database = conninfo, database
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._sample_until_done, daemon=True)

    def start(self) -> None:
        with psycopg.connect(self.conninfo, autocommit=True) as connection:
            self._sample(connection, first=True)
        self.thread.start()

    def stop(self) -> float:
        """Seconds of CPU the database's backends used since `start`."""
        self.done.set()
        self.thread.join()
        return sum(self.last[pid] - self.first.get(pid, 0.0) for pid in self.last)

    def _sample_until_done(self) -> None:
        with psycopg.connect(self.conninfo, autocommit=True) as connection:
            while not self.done.wait(self.INTERVAL):
                self._sample(connection)
            self._sample(connection)

    def _sample(self, connection: psycopg.Connection, first: bool = False) -> None:
        pids = connection.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", (self.database,)
        ).fetchall()
        for (pid,) in pids:
            seconds = process_cpu_seconds(pid)
            if seconds is None:
                continue
            if first:
                self.first[pid] = seconds
            self.last[pid] = seconds
