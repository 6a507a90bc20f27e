"""Setting the browser's cookies: the room links' tokens and the language choice.

A cookie is `Secure` when the request came over https or when the public address is https
(`PUBLIC_URL=https://...`): behind a TLS proxy the request may reach the server as plain http,
but the browser talks https and must never send the cookie over anything else.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from app.settings import Settings


def set_cookie(
    response: Response,
    request: Request,
    name: str,
    value: str,
    *,
    max_age: int,
    httponly: bool,
) -> None:
    """Remember `value` under `name` for the whole site, SameSite=Lax."""
    settings: Settings = request.app.state.settings
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path="/",
        httponly=httponly,
        samesite="lax",
        secure=settings.https or request.url.scheme == "https",
    )
