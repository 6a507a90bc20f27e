"""`DirectRoutes`: the two requests every move makes, sent past the framework's routing.

A move is one `POST /rooms/{room_id}/moves` (the page's form, `app.routes.panel.post_move`) and
reaches every open page as a frame on its `/ws/rooms/{room_id}` socket (`app.routes.ws`). Both
go from the innermost middleware, inside the Origin check, the body limit and the per-address
limits, straight to their handler: past the exception, exit-stack and routing layers of the
framework, which a move's post went through in and its answer out (more Python than the route's
own part of the request, docs/performance.md) and which every open socket held for its lifetime.
Every other request goes the framework's way; the move's route stays registered there too (its
schema, its answer to other methods).

What the move's handler raises is answered as through the router: by the app's exception
handlers, looked up as Starlette's `ExceptionMiddleware` does (by status for an `HTTPException`,
else by the exception's classes, nearest first); anything unhandled is the server error it
would be there.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from app.routes.panel import post_move
from app.routes.ws import room_socket

SOCKET_PATH = re.compile(r"/ws/rooms/([^/]+)")
MOVE_PATH = re.compile(r"/rooms/([^/]+)/moves")

Handler = Callable[[Request, Exception], Any]


class DirectRoutes:
    """ASGI middleware: a room socket's handshake to `room_socket`, a page's move post to
    `post_move` (the room's token comes from the socket's query, `?token=`, the last one if
    repeated, or the room's cookie)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and (match := SOCKET_PATH.fullmatch(scope["path"])):
            websocket = WebSocket(scope, receive, send)
            await room_socket(websocket, match[1], websocket.query_params.get("token"))
        elif (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and (match := MOVE_PATH.fullmatch(scope["path"]))
        ):
            scope["path_params"] = {"room_id": match[1]}
            request = Request(scope, receive, send)
            response = await _answered(request, post_move)
            await response(scope, receive, send)
        else:
            await self.app(scope, receive, send)


async def _answered(
    request: Request, endpoint: Callable[[Request], Awaitable[Response]]
) -> Response:
    """The endpoint's answer, or the app's exception handler's to what it raised."""
    try:
        return await endpoint(request)
    except Exception as exc:
        handler = _handler_for(request.app.exception_handlers, exc)
        if handler is None:
            raise
        answer: Response
        if asyncio.iscoroutinefunction(handler):
            answer = await handler(request, exc)
        else:
            answer = await run_in_threadpool(handler, request, exc)
        return answer


def _handler_for(handlers: dict[Any, Handler], exc: Exception) -> Handler | None:
    """The handler Starlette's `ExceptionMiddleware` would pick for `exc` (one for status 500 or
    any `Exception` is the server error middleware's, outside this one, as FastAPI splits them)."""
    own = {key: handler for key, handler in handlers.items() if key not in (500, Exception)}
    if isinstance(exc, HTTPException) and exc.status_code in own:
        return own[exc.status_code]
    return next((own[cls] for cls in type(exc).__mro__ if cls in own), None)
