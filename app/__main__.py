"""`python -m app`: apply the migrations, then serve on HOST:PORT with uvicorn."""

from __future__ import annotations

import uvicorn

from app.main import create_app
from app.migrate import upgrade
from app.routes.ws import MAX_MESSAGE_BYTES
from app.settings import Settings


def main() -> None:
    settings = Settings()
    if not settings.is_postgres and settings.database_url is None:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    upgrade(settings.resolved_database_url)
    print(f"Inland Port is running at http://{settings.host}:{settings.port}", flush=True)
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        ws_max_size=MAX_MESSAGE_BYTES,
        ws_ping_interval=settings.ws_ping_interval,
        ws_ping_timeout=settings.ws_ping_timeout,
        log_level="warning",
        proxy_headers=True,
    )


if __name__ == "__main__":
    main()
