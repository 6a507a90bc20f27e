"""How a refused request is answered: the one map from a `ServiceError` to an HTTP status.

The JSON API answers with `status_of` and the service's message (`problem`). A page's action
panel is an htmx swap, and the pages swap in only 409 and 422 answers (`responseHandling` in
templates/base.html), so `panel_status_of` turns the API's 403 into 409: the refusal is shown
in the panel, with the board. What a page says is in the viewer's language (`app.routes.pages`).
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from app.services.errors import (
    InvalidLink,
    MoveRefused,
    NotAnalysable,
    NotYourTurn,
    RematchRefused,
    RoomNotFound,
    SeatTaken,
    ServiceError,
    StaleVersion,
)

STATUS: dict[type[ServiceError], int] = {
    RoomNotFound: 404,
    InvalidLink: 404,
    SeatTaken: 409,
    StaleVersion: 409,
    RematchRefused: 409,
    NotAnalysable: 409,
    NotYourTurn: 403,
    MoveRefused: 422,
}


def status_of(error: ServiceError) -> int:
    """The HTTP status of a refusal."""
    return STATUS[type(error)]


def panel_status_of(error: ServiceError) -> int:
    """The status of a refusal answered into a page's action panel (403 comes as 409)."""
    status = status_of(error)
    return 409 if status == 403 else status


def problem(error: ServiceError, **extra: Any) -> JSONResponse:
    """The JSON answer to a refusal: `{"detail": message, **extra}` with its status."""
    return JSONResponse({"detail": str(error), **extra}, status_code=status_of(error))
