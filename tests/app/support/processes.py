"""Server processes started from a test: two on one database, as in production."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.appserver import AppServer


@contextmanager
def two_processes(
    database_url: str, data_dir: Path, env: dict[str, str] | None = None
) -> Iterator[list[AppServer]]:
    """Two server processes on one database (rooms opened without the per-address limit),
    stopped when the block ends."""
    settings = {"ROOMS_PER_MINUTE": "0", **(env or {})}
    servers = [AppServer(data_dir, database_url=database_url, env=settings) for _ in range(2)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()
