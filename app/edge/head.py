"""HEAD wherever GET: FastAPI's `@router.get` routes answer only GET, but HTTP says a server that
answers GET answers HEAD too (RFC 9110 §9.3.2), with the same status and headers and no body.

`HeadAsGet` runs a HEAD request as a GET and drops the body on the way out, so every GET route,
and any added later, answers HEAD without declaring it; the API docs list GET alone.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    """ASGI middleware: a HEAD request is served as GET, without the response body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        # A copy: the server still sees HEAD in its own scope.
        await self.app({**scope, "method": "GET"}, receive, without_body)
