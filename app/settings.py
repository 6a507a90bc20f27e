"""Server settings, read from the environment.

`DATABASE_URL` defaults to an embedded SQLite file under `DATA_DIR` (./data, created on demand);
`postgresql+psycopg://...` switches to PostgreSQL. `HOST`/`PORT` set the listening address.
`CATALOG_DIR` names a directory of extra catalog files (every `*.json` in it; `app.reads.catalogs`).
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from urllib.parse import urlsplit

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(extra="ignore", frozen=True)

    data_dir: Path = Path("data")
    database_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    #: Public address used in links ("https://port.example"); by default the request's own.
    public_url: str | None = None
    #: Extra origins (comma-separated) allowed to post and open sockets besides the server's own.
    allowed_origins: str = ""
    #: Seconds an idle HTTP connection stays open for its next request. Longer than the proxy
    #: keeps its idle connections to the app (deploy/Caddyfile: 30 s), so the proxy never sends
    #: a request on a connection the app is closing; and a page's next move arrives on the
    #: connection of its last one instead of opening another (docs/performance.md).
    keep_alive_timeout: int = 65
    ws_ping_interval: float = 20.0
    ws_ping_timeout: float = 20.0
    #: permessage-deflate on the sockets, and its window (2**bits bytes, both directions) and
    #: the compressor's memLevel; whether each socket keeps its compression context from
    #: message to message (off: each message is compressed alone and an idle socket holds no
    #: zlib state; app.edge.wsdeflate).
    ws_deflate: bool = True
    ws_deflate_window_bits: int = 15
    ws_deflate_mem_level: int = 5
    ws_deflate_keep_context: bool = False
    #: Seconds after which a server process that stopped sending heartbeats counts as gone.
    presence_timeout: float = 30.0
    #: Proxies (comma-separated IPs, or "*") whose X-Forwarded-For/-Proto headers are believed.
    forwarded_allow_ips: str = "127.0.0.1"
    #: Rooms one client address may open per minute, and at once (0: no limit; app.edge.limits).
    rooms_per_minute: int = 20
    room_burst: int = 5
    #: New analyses one client address may ask for per hour, and at once (0: no limit;
    #: asking again for one under way or done is free).
    analyses_per_hour: int = 10
    analysis_burst: int = 3
    #: Sockets one client address may hold open at once (0: no limit).
    sockets_per_address: int = 32
    #: Seconds without an open page after which the player to move counts as gone: the other
    #: player may then let the computer stand in, or claim the game.
    absent_after: float = 180.0
    #: Days after which a room that never started (a seat still free) is removed, and days after
    #: its last change that a finished room is kept (app/services/lifetime.py).
    unstarted_room_days: float = 7.0
    finished_room_days: float = 90.0
    #: Seconds between two sweeps for rooms past their lifetime.
    room_sweep_interval: float = 3600.0
    #: Start the computer's bot processes at server start, so its first move does not wait for
    #: them (app.computer.player); the tests turn it off, their many short-lived servers play no bots.
    computer_warm_up: bool = True
    #: A directory of extra catalog files (the printed numbers, say), read when the server starts.
    catalog_dir: Path | None = None

    @cached_property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'inland-port.sqlite3').resolve()}"

    @property
    def https(self) -> bool:
        """Whether the public address is https: cookies are then Secure and HSTS is sent."""
        return (self.public_url or "").lower().startswith("https://")

    @property
    def is_postgres(self) -> bool:
        return self.resolved_database_url.startswith("postgresql")

    @property
    def extra_origins(self) -> frozenset[str]:
        """ALLOWED_ORIGINS, and the origin of PUBLIC_URL (a proxy may rewrite the Host)."""
        origins = [o.strip().rstrip("/") for o in self.allowed_origins.split(",") if o.strip()]
        if self.public_url:
            parts = urlsplit(self.public_url)
            origins.append(f"{parts.scheme}://{parts.netloc}".lower())
        return frozenset(origins)
