"""Security headers on every response (docs/security.md).

- `Content-Security-Policy`: scripts, styles, images, fonts and connections from this origin
  only (`connect-src 'self'` covers the WebSocket of the same host); no inline script, no inline
  style, no `eval` (htmx is configured with `allowEval: false` and `includeIndicatorStyles:
  false` in templates/base.html); no frames, no plugins, forms post to this origin only.
- `X-Frame-Options: DENY` for browsers older than `frame-ancestors`, `X-Content-Type-Options:
  nosniff`, `Referrer-Policy: no-referrer` (a room's address must never leak in a Referer: the
  links are capabilities), a `Permissions-Policy` that turns off what the game never uses.
- `Cache-Control: no-store` on everything but the static files: pages, fragments and API
  answers may carry a link token and must not stay in a shared or a browser cache.
- `Strict-Transport-Security` when the public address is https (`PUBLIC_URL=https://...`).
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
HSTS = "max-age=31536000"
"""One year: what browsers remember once they have seen the site over HTTPS."""
CACHED_PREFIX = "/static/"

HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "permissions-policy": PERMISSIONS_POLICY,
}


class SecurityHeaders:
    """ASGI middleware adding the headers above to every HTTP response."""

    def __init__(self, app: ASGIApp, *, https: bool = False) -> None:
        self.app = app
        self.headers = dict(HEADERS)
        if https:
            self.headers["strict-transport-security"] = HSTS

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cached = scope["path"].startswith(CACHED_PREFIX)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.headers.items():
                    headers.setdefault(name, value)
                if not cached:
                    headers["cache-control"] = "no-store"
            await send(message)

        await self.app(scope, receive, send_with_headers)
