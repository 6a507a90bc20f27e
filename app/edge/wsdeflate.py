"""uvicorn's WebSocket protocol with permessage-deflate settings of the server's choosing.

uvicorn's protocol (`websockets-sansio`, what uvicorn's "auto" picks) offers a 4 KiB window both
ways and memLevel 5 with context takeover: every socket keeps a zlib compressor for its life
and a decompressor for what the browser sends, ~49 KiB allocated per socket once its first
board went out, idle or not. Here they are settings: `WS_DEFLATE_WINDOW_BITS` (9–15: a window
of 2**bits bytes, both directions), `WS_DEFLATE_MEM_LEVEL` (1–9: the compressor's hash
tables), `WS_DEFLATE_KEEP_CONTEXT` and `WS_DEFLATE=false` (no compression).

By default the server asks for no context takeover both ways (RFC 7692 7.1.1: a server may, even
when the client did not offer it): each message is compressed alone, `websockets` drops its zlib
objects when a message is done, and an idle socket holds no compression state. With a window of
4 KiB and boards of tens of KB the context from the previous message saved little;
docs/performance.md ("Memory per open socket") has what each setting costs in memory and in
bytes per update.

Once a socket is open the protocol lets go of its handshake's request and answer, which uvicorn
reads no more: the answer with its headers, ~11 objects a socket (`bench/socket_memory.py`) that
every full collector pass would walk (the request stays held by `websockets`' parser).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.base import ServerExtensionFactory
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

if TYPE_CHECKING:
    from uvicorn._types import ASGISendEvent

#: zlib's bounds for a raw deflate stream's window (as a power of two) and its memLevel.
WINDOW_BITS_RANGE = range(9, 16)
MEM_LEVEL_RANGE = range(1, 10)


def deflate_factory(
    window_bits: int, mem_level: int, *, keep_context: bool = False
) -> ServerPerMessageDeflateFactory:
    """The permessage-deflate offer: `window_bits` for both directions, `mem_level` for the
    server's compressor, context takeover both ways only with `keep_context`."""
    if window_bits not in WINDOW_BITS_RANGE:
        raise ValueError(f"WS_DEFLATE_WINDOW_BITS must be 9 to 15, not {window_bits}")
    if mem_level not in MEM_LEVEL_RANGE:
        raise ValueError(f"WS_DEFLATE_MEM_LEVEL must be 1 to 9, not {mem_level}")
    return ServerPerMessageDeflateFactory(
        server_no_context_takeover=not keep_context,
        client_no_context_takeover=not keep_context,
        server_max_window_bits=window_bits,
        client_max_window_bits=window_bits,
        compress_settings={"memLevel": mem_level},
    )


def protocol_class(
    *, enabled: bool, window_bits: int, mem_level: int, keep_context: bool = False
) -> type[WebSocketsSansIOProtocol]:
    """uvicorn's WebSocket protocol offering the given permessage-deflate settings (or none),
    keeping nothing of a handshake once its socket is open."""
    offer: list[ServerExtensionFactory] = (
        [deflate_factory(window_bits, mem_level, keep_context=keep_context)] if enabled else []
    )

    class DeflateSettingsProtocol(WebSocketsSansIOProtocol):
        offered_extensions = offer

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # uvicorn builds the connection with its own fixed offer; ours replaces it before
            # the handshake reads it.
            self.conn.available_extensions = list(self.offered_extensions)

        async def send(self, message: ASGISendEvent) -> None:
            await super().send(message)
            if message["type"] == "websocket.accept" and self.handshake_complete:
                # uvicorn reads the handshake's request and answer only until the socket is
                # open: let go of them (module docstring).
                del self.request, self.response

    return DeflateSettingsProtocol
