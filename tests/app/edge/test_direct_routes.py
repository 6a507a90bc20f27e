"""`DirectRoutes`: a page's move post goes to its handler past the router, and what the handler
raises is answered by the app's exception handlers as the router's way would answer it."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from app.routes import direct


class Refused(Exception):
    pass


class Narrower(Refused):
    pass


def test_a_move_post_goes_to_its_handler_and_what_it_raises_to_the_app_s_handlers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    raised: dict[str, Exception] = {
        "narrower": Narrower(),
        "teapot": HTTPException(418),
        "broken": ValueError("a bug"),
    }

    async def endpoint(request: Request) -> Response:
        room_id = request.path_params["room_id"]
        if room_id in raised:
            raise raised[room_id]
        return PlainTextResponse(f"played in {room_id}")

    async def refused(_request: Request, exc: Exception) -> Response:
        return PlainTextResponse(f"refused: {type(exc).__name__}", status_code=409)

    def teapot(_request: Request, _exc: Exception) -> Response:  # a handler that is not async
        return PlainTextResponse("teapot", status_code=418)

    monkeypatch.setattr(direct, "post_move", endpoint)
    app = FastAPI()  # no routes: whatever answers a move's post is the middleware
    app.add_middleware(direct.DirectRoutes)
    app.add_exception_handler(Refused, refused)
    app.add_exception_handler(418, teapot)
    client = TestClient(app, raise_server_exceptions=False)

    played = client.post("/rooms/r1/moves")
    assert (played.status_code, played.text) == (200, "played in r1")
    narrower = client.post("/rooms/narrower/moves")
    assert (narrower.status_code, narrower.text) == (409, "refused: Narrower")
    assert client.post("/rooms/teapot/moves").text == "teapot"
    assert client.post("/rooms/broken/moves").status_code == 500
    # Any other method or path goes the framework's way (here: no such route).
    assert client.get("/rooms/r1/moves").status_code == 404
    assert client.post("/rooms/r1/moves/more").status_code == 404
