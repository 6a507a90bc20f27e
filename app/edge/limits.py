"""Abuse limits per client address (docs/security.md): new rooms and open sockets.

- **New rooms** (`POST /rooms` from the home page, `POST /api/rooms`): a token bucket per
  address that holds `ROOM_BURST` rooms (5) and refills at `ROOMS_PER_MINUTE` (20 a minute, one
  every 3 s). Beyond it the answer is 429 with `Retry-After` (whole seconds): the home page again
  with a message in the viewer's language, or JSON for the API.
- **Open sockets**: at most `SOCKETS_PER_ADDRESS` (32) WebSockets per address at once; one more
  is accepted and closed at once with 1013 (Try Again Later) and the reason "too many sockets".

The address is the one uvicorn reports: the peer, or the `X-Forwarded-For` of a proxy listed in
`FORWARDED_ALLOW_IPS`. The counts live in the memory of one server process: with several
processes each one counts on its own.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from starlette import status
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from app.i18n import language, language_of
from app.refusals.answers import problem
from app.services.errors import ServiceError
from app.ui.templates import templates_for

ROOM_PATHS = frozenset({"/rooms", "/rooms/lehavre", "/api/rooms", "/import"})
"""Where a POST opens a room; and every `/rooms/{id}/fork` (`opens_a_room`)."""
TOO_MANY_SOCKETS = "too many sockets from this address"
MAX_TRACKED = 10_000
"""Addresses remembered at most; beyond that, the ones whose bucket is full again are dropped."""


class TokenBucket:
    """Per-key buckets of `burst` tokens refilled at `per_minute` a minute."""

    def __init__(
        self, *, per_minute: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> float:
        """Take one token for `key`: 0.0 when granted, else the seconds until one is free."""
        now = self.clock()
        tokens = self._level(key, now)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > MAX_TRACKED:
                self._forget_full(now)
            return 0.0
        return (1.0 - tokens) / self.rate

    def _level(self, key: str, now: float) -> float:
        tokens, stamp = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - stamp) * self.rate)

    def _forget_full(self, now: float) -> None:
        full = [key for key in self._buckets if self._level(key, now) >= self.burst]
        for key in full:
            del self._buckets[key]


def opens_a_room(path: str) -> bool:
    """A new room, an imported record's or a forked game's: all share one limit per address."""
    if path in ROOM_PATHS:
        return True
    parts = path.split("/")
    return len(parts) == 4 and parts[1] == "rooms" and parts[3] == "fork"


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return client[0] if client else ""


class AbuseLimits:
    """ASGI middleware: the room creation rate and the socket cap per client address."""

    def __init__(
        self, app: ASGIApp, *, rooms_per_minute: int, room_burst: int, sockets_per_address: int
    ) -> None:
        self.app = app
        self.rooms = (
            TokenBucket(per_minute=rooms_per_minute, burst=room_burst)
            if rooms_per_minute > 0
            else None
        )
        self.max_sockets = sockets_per_address
        self.sockets: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and self.max_sockets > 0:
            await self._socket(scope, receive, send)
            return
        if (
            scope["type"] == "http"
            and self.rooms is not None
            and scope["method"] == "POST"
            and opens_a_room(scope["path"])
        ):
            wait = self.rooms.take(client_address(scope))
            if wait > 0:
                await _too_many_rooms(scope, receive, send, math.ceil(wait))
                return
        await self.app(scope, receive, send)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = client_address(scope)
        if self.sockets.get(address, 0) >= self.max_sockets:
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send(
                {
                    "type": "websocket.close",
                    "code": status.WS_1013_TRY_AGAIN_LATER,
                    "reason": TOO_MANY_SOCKETS,
                }
            )
            return
        self.sockets[address] = self.sockets.get(address, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.sockets[address] - 1
            if left:
                self.sockets[address] = left
            else:
                del self.sockets[address]


async def _too_many_rooms(scope: Scope, receive: Receive, send: Send, retry_after: int) -> None:
    """429: the home page with a message (the browser form), or the JSON problem
    ``too_many_rooms`` (the API)."""
    headers = {"Retry-After": str(retry_after)}
    if not scope["path"].startswith("/api/"):
        request = Request(scope, receive)
        lang = language_of(request)
        message = language(lang).gettext(
            "You have started many rooms in a short time. Wait a moment and try again."
        )
        response = templates_for(lang).TemplateResponse(
            request, "home.html", {"error": message}, status_code=429, headers=headers
        )
        await response(scope, receive, send)
        return
    answer = problem(ServiceError("too_many_rooms", {"retry_after": retry_after}))
    answer.headers["Retry-After"] = str(retry_after)
    await answer(scope, receive, send)
