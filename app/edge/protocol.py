"""uvicorn's HTTP protocol with a deadline for request headers (slow-header attacks).

uvicorn waits for a request's headers for as long as the client cares to send them: a client
that opens connections and trickles a byte now and then ("slowloris") holds them all. Here a
connection whose request line and headers are not complete `HEADER_TIMEOUT` seconds after the
connection opened (or, on a kept-alive connection, after the next request's first byte) is
closed. Bodies and WebSockets are not concerned: the timer stops once the headers are in.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_TIMEOUT = 10.0


class HeaderDeadlineProtocol(HttpToolsProtocol):
    """`HttpToolsProtocol` that drops a connection whose headers are too slow to arrive."""

    header_timeout = HEADER_TIMEOUT
    _header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_deadline()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm_header_deadline()

    def on_headers_complete(self) -> None:
        self._disarm_header_deadline()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_deadline()
        super().connection_lost(exc)

    def _arm_header_deadline(self) -> None:
        if self._header_deadline is None:
            self._header_deadline = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm_header_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _headers_late(self) -> None:
        self._header_deadline = None
        if not self.transport.is_closing():
            self.transport.close()
