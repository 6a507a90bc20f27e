"""Request guards the frameworks do not give us: body size limits and Origin checks.

- Request bodies are limited to 16 KiB (413 otherwise), whether or not they declare a length;
  an imported game record (`POST /import`) to 256 KiB.
- A POST (any unsafe method) from a browser page of another site is refused (403): when the
  `Origin` header is present it must be the server's own origin or an allowed one (or "null"
  with `Sec-Fetch-Site: same-origin`: a form of this site under `Referrer-Policy: no-referrer`).
  WebSocket handshakes get the same check in `app.routes.ws` (neither uvicorn nor Starlette
  checks the Origin of a WebSocket).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 16 * 1024
MAX_RECORD_BODY_BYTES = 256 * 1024
"""An imported record: a whole Le Havre game of five is ~17 KB, and a record of the most moves
the engine reads (`engine.lehavre.record.MAX_MOVES`) fits."""
BODY_LIMITS = {"/import": MAX_RECORD_BODY_BYTES}
"""The paths allowed a larger body than `MAX_BODY_BYTES`."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def too_large(limit: int) -> str:
    return f"Request bodies are limited to {limit} bytes."


def origin_allowed(headers: Iterable[tuple[bytes, bytes]], extra_origins: frozenset[str]) -> bool:
    """True when there is no Origin (not a browser page) or it names this very host.

    The comparison is on host and port, so that a TLS proxy in front (https outside, http
    inside) still matches; other sites must be listed in ALLOWED_ORIGINS.
    """
    origin = host = fetch_site = None
    for name, value in headers:
        if name == b"origin":
            origin = value.decode("latin-1").strip()
        elif name == b"host":
            host = value.decode("latin-1").strip().lower()
        elif name == b"sec-fetch-site":
            fetch_site = value.decode("latin-1").strip().lower()
    if origin is None:
        return True
    if origin.rstrip("/") in extra_origins:
        return True
    if origin == "null":
        # Under `Referrer-Policy: no-referrer` a browser's own form posts say "null"; the
        # browser still tells (in a header no page can set) whether the page was of this site.
        return fetch_site == "same-origin"
    if host is None:
        return False
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
        return False
    return _with_port(parts.netloc.lower(), parts.scheme) == _with_port(host, parts.scheme)


def _with_port(netloc: str, scheme: str) -> str:
    if netloc.rsplit(":", 1)[-1].isdigit() and not netloc.endswith("]"):
        return netloc
    return f"{netloc}:{443 if scheme in ('https', 'wss') else 80}"


class RequestGuard:
    """ASGI middleware: the body size limit and the Origin check for unsafe HTTP methods."""

    def __init__(self, app: ASGIApp, *, extra_origins: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.extra_origins = extra_origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS and not origin_allowed(
            scope["headers"], self.extra_origins
        ):
            await _reply(send, 403, "Cross-site requests are not accepted.")
            return
        limit = BODY_LIMITS.get(scope["path"], MAX_BODY_BYTES)
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await _reply(send, 400, "Content-Length is not a number.")
                    return
                if declared > limit:
                    await _reply(send, 413, too_large(limit))
                    return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await _reply(send, 413, too_large(limit))


class BodyTooLarge(HTTPException):
    """Raised while reading a body that grew past the limit (FastAPI passes it through)."""

    def __init__(self, limit: int) -> None:
        super().__init__(status_code=413, detail=too_large(limit))


async def _reply(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
