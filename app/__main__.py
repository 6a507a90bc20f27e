"""`python -m app`: apply the migrations, read the languages' locale data, compile the templates
and work out the wheels' geometry ahead, then serve on HOST:PORT with uvicorn.

uvicorn believes the X-Forwarded-For/-Proto headers of the proxies in FORWARDED_ALLOW_IPS only,
keeps an idle connection open KEEP_ALIVE_TIMEOUT seconds (65) for its next request, and drops
connections whose request headers take longer than 10 s (`app.edge.protocol`). The sockets'
permessage-deflate is set by WS_DEFLATE, WS_DEFLATE_WINDOW_BITS, WS_DEFLATE_MEM_LEVEL and
WS_DEFLATE_KEEP_CONTEXT (`app.edge.wsdeflate`).

The server is imported inside `main()`: the computer's bot processes are started with "spawn",
and a spawned child imports its parent's main module — this one — before it can think. So this
module's own imports stay light, and a bot process starts without loading the web server.
"""

from __future__ import annotations

import gc
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio

    from app.settings import Settings


def main() -> None:
    import uvicorn

    from app.edge.protocol import HeaderDeadlineProtocol
    from app.main import create_app
    from app.migrate import upgrade
    from app.routes.ws import MAX_MESSAGE_BYTES
    from app.settings import Settings

    settings = Settings()
    if not settings.is_postgres and settings.database_url is None:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    try:
        app = create_app(settings)
    except ValueError as err:  # a catalog file of CATALOG_DIR that cannot be played
        sys.exit(f"Inland Port cannot start: CATALOG_DIR: {err}")
    try:
        websocket_protocol = websocket_protocol_for(settings)
    except ValueError as err:
        sys.exit(f"Inland Port cannot start: {err}")
    upgrade(settings.resolved_database_url)
    warm_up_pages()
    warm_up_wheels()
    print(f"Inland Port is running at http://{settings.host}:{settings.port}", flush=True)
    tune_garbage_collector()
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        timeout_keep_alive=settings.keep_alive_timeout,
        ws_max_size=MAX_MESSAGE_BYTES,
        ws_ping_interval=settings.ws_ping_interval,
        ws_ping_timeout=settings.ws_ping_timeout,
        log_level="warning",
        proxy_headers=True,
        forwarded_allow_ips=settings.forwarded_allow_ips,
        http=HeaderDeadlineProtocol,
        ws=websocket_protocol,
    )


def websocket_protocol_for(settings: Settings) -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol with the permessage-deflate settings of `settings`."""
    from app.edge.wsdeflate import protocol_class

    return protocol_class(
        enabled=settings.ws_deflate,
        window_bits=settings.ws_deflate_window_bits,
        mem_level=settings.ws_deflate_mem_level,
        keep_context=settings.ws_deflate_keep_context,
    )


def warm_up_pages() -> None:
    """Compile every template in every language (`app.ui.templates.compile_all`) and read their
    locale data (`app.i18n.load_locale_data`): done later, while rooms are played, either would
    hold up the requests and boards behind it, and what it made would stay in the collector's
    full passes, which what is made here does not (`tune_garbage_collector`)."""
    from app.i18n import load_locale_data
    from app.ui.templates import compile_all

    load_locale_data()
    compile_all()


def warm_up_wheels() -> None:
    """Work out the wheels' geometry for every tile any catalog's building can make, in every
    language (`app.ui.wheel_layout.warm_up`; ~0.3 s of CPU and ~9 MB, which later games would
    fill anyway): without it, a wheel sector packed cold after a start costs ~6-10 ms against
    ~0.1 ms warm (bench/wheel_layout.py)."""
    from app.i18n import LANGUAGES
    from app.reads import catalogs
    from app.ui.warehouse import every_tile_text
    from app.ui.wheel_layout import warm_up

    warm_up(every_tile_text((entry.catalog for entry in catalogs.registry().all()), LANGUAGES))


def tune_garbage_collector() -> None:
    """Take everything loaded at start out of the collector's full passes.

    A full pass walks every tracked object, and most of them are the modules, the catalog and
    the templates, which live as long as the process. Frozen, they are skipped: measured under
    load, the longest full pass went from ~140 ms to ~70 ms (docs/performance.md).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


#: Python's defaults are (700, 10, 10): a full pass after every 100 young ones (and only when the
#: old generation grew by a quarter since). Full passes are the long ones (~250 ms with 1,200
#: sockets open), so they are made ten times rarer; young passes are unchanged.
GC_THRESHOLDS = (700, 10, 100)


if __name__ == "__main__":
    main()
