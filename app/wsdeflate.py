"""uvicorn's WebSocket protocol with a smaller permessage-deflate context per socket.

With `websockets` as uvicorn's WebSocket implementation, every socket that negotiates
permessage-deflate keeps a zlib compressor for the socket's life (context takeover), and uvicorn
asks for zlib's largest one: a 32 KiB window and memLevel 8, ~256 KiB allocated per socket for
the compressor alone, plus a 32 KiB window to inflate what the browser sends. The boards the
sockets carry compress nearly as well with a 4 KiB window (docs/performance.md, "Memory per open
socket"), so the server offers a smaller window both ways and a smaller memLevel:
`WS_DEFLATE_WINDOW_BITS` (9–15, default 12: 4 KiB) and `WS_DEFLATE_MEM_LEVEL` (1–9, default 5);
`WS_DEFLATE=false` turns compression off.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_impl import WebSocketProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

#: zlib's bounds for a raw deflate stream's window (as a power of two) and its memLevel.
WINDOW_BITS_RANGE = range(9, 16)
MEM_LEVEL_RANGE = range(1, 10)


def deflate_factory(window_bits: int, mem_level: int) -> ServerPerMessageDeflateFactory:
    """The permessage-deflate offer: `window_bits` for both directions, `mem_level` for the
    server's compressor."""
    if window_bits not in WINDOW_BITS_RANGE:
        raise ValueError(f"WS_DEFLATE_WINDOW_BITS must be 9 to 15, not {window_bits}")
    if mem_level not in MEM_LEVEL_RANGE:
        raise ValueError(f"WS_DEFLATE_MEM_LEVEL must be 1 to 9, not {mem_level}")
    return ServerPerMessageDeflateFactory(
        server_max_window_bits=window_bits,
        client_max_window_bits=window_bits,
        compress_settings={"memLevel": mem_level},
    )


def protocol_class(*, enabled: bool, window_bits: int, mem_level: int) -> type[WebSocketProtocol]:
    """uvicorn's `websockets` protocol offering the given permessage-deflate settings (or none)."""
    extensions = [deflate_factory(window_bits, mem_level)] if enabled else []

    class SmallDeflateProtocol(WebSocketProtocol):
        offered_extensions = extensions

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # uvicorn hands `websockets` its own offer (the largest context); ours replaces it
            # before any handshake reads it.
            self.available_extensions = list(self.offered_extensions)

    return SmallDeflateProtocol
