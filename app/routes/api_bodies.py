"""The JSON API's bodies: what each route takes and answers, as its OpenAPI schema says."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
)

from app.services import moves

RoomId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]
Token = Annotated[str, Path(min_length=1, max_length=128)]


def _whole_number(value: Any) -> Any:
    """JSON's whole numbers: ``3`` and ``3.0`` (the same number to JSON Schema), never ``true``,
    ``"3"`` or ``3.5``."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


WholeNumber = Annotated[int, BeforeValidator(_whole_number)]


class Strict(BaseModel):
    """A request body: no unknown fields, no coercion (`0` is not `false`, `"1"` is not `1`)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class InlandPortRoomIn(Strict):
    game: Literal["inland_port"] = Field(
        "inland_port", description="Le Havre: The Inland Port, two seats (the default game)"
    )
    host_seat: Literal[0, 1, "random"] = Field(
        "random", description="the host's seat: 0 moves first, 1 second, or random"
    )
    computer: Literal["easy", "normal", "strong"] | None = Field(
        None, description="play against the computer at this strength; null: a human opponent"
    )
    catalog: str | None = Field(
        None,
        max_length=64,
        description=(
            "the id of the catalog (the game's numbers) the room is played with, one of this "
            'server\'s catalogs (built in: "provisional-1", "provisional-2", "provisional-3"; '
            "more may be installed); null: the default for new rooms, provisional-3. An unknown id "
            "is refused with 422 and the code unknown_catalog"
        ),
    )

    @field_validator("host_seat", mode="before")
    @classmethod
    def _exactly_an_int_or_random(cls, value: object) -> object:
        if isinstance(value, bool | float):
            raise ValueError('host_seat must be 0, 1 or "random"')
        return value


Other = Literal["friend", "heuristic", "strong"]
"""Who takes one of the other seats: a friend (by an invite link) or the computer at a strength."""


class LeHavreRoomIn(Strict):
    game: Literal["lehavre"] = Field(description="Le Havre, one to five seats")
    others: list[Other] = Field(
        default_factory=list,
        max_length=4,
        description='the seats after the host\'s, in order: "friend" (an invite link) or the '
        'computer at a strength ("heuristic", "strong"); [] is the solo game. With host_seat '
        '"random" the host may take a friend\'s seat instead of the first',
    )
    variant: Literal["full", "short"] = Field("full", description="the full or the short game")
    host_seat: Literal[0, "random"] = Field(
        0, description="the host's seat: the first, or random (the setup says who begins)"
    )

    @field_validator("host_seat", mode="before")
    @classmethod
    def _exactly_an_int_or_random(cls, value: object) -> object:
        if isinstance(value, bool | float):
            raise ValueError('host_seat must be 0 or "random"')
        return value


def _game_of(body: Any) -> str:
    """Which game a room's body is for (no "game": Inland Port, as before there were two)."""
    game = body.get("game", "inland_port") if isinstance(body, dict) else None
    return game if isinstance(game, str) else "inland_port"


CreateRoomIn = Annotated[
    Annotated[InlandPortRoomIn, Tag("inland_port")] | Annotated[LeHavreRoomIn, Tag("lehavre")],
    Discriminator(_game_of),
]
"""A new room's body: Inland Port's or Le Havre's, told apart by "game"."""


class RoomCreatedOut(BaseModel):
    room: str
    seat: int
    token: str = Field(description="the host's seat token (the secret of the seat link)")
    seat_link: str
    invite_link: str | None = Field(
        description="the first other seat's invite; null when the computer holds the other seat"
    )
    invite_links: list[str] = Field(description="every other seat's invite link, by seat")
    spectator_link: str
    version: int
    catalog: str = Field(description="the id of the catalog the room is played with")
    catalog_sha256: str = Field(description="the SHA-256 of that catalog's numbers")
    game: str = Field(description="the game the room plays")
    players: int = Field(description="the number of seats")


class SeatOut(BaseModel):
    room: str
    seat: int
    token: str
    seat_link: str


class RoomOut(BaseModel):
    version: int
    summary: dict[str, Any] = Field(description="the rules summary (SPEC §8)")
    online: list[bool] = Field(min_length=1, max_length=5, description="each seat's, by seat")
    spectators: int
    finished: bool
    result: dict[str, Any] | None = Field(
        description="once finished: scores, winner (null for a draw), breakdown per seat"
    )
    catalog: str = Field(description="the id of the catalog the room is played with")
    catalog_sha256: str = Field(description="the SHA-256 of that catalog's numbers")


class LegalOut(BaseModel):
    version: int
    moves: list[dict[str, Any]]


class MoveIn(Strict):
    move: Any = Field(description="a move object (SPEC §5)")
    version: WholeNumber = Field(
        ge=0, description="the version of the board the move was chosen on"
    )
    client_move_id: str = Field(
        min_length=1,
        max_length=moves.MAX_CLIENT_MOVE_ID,
        # Declared, not enforced here: the service refuses it with its own code.
        json_schema_extra={"pattern": moves.CLIENT_MOVE_ID_PATTERN},
        description="the client's id for this move, without control characters: a retry with "
        "the same id applies it once",
    )


class MoveOut(BaseModel):
    version: int
    summary: dict[str, Any]


class LogMove(BaseModel):
    seq: int
    seat: int
    move: dict[str, Any]


class LogOut(BaseModel):
    moves: list[LogMove]
    catalog: str = Field(description="the id of the catalog the room is played with")


class RematchOut(BaseModel):
    offered_by: list[bool] = Field(
        min_length=1, max_length=5, description="whether each seat asked, by seat"
    )
    room: str | None = Field(description="the new room once every player accepted")
    seat_link: str | None = Field(description="this player's link into the new room")


class Problem(BaseModel):
    detail: str = Field(description="the refusal in English")
    code: str = Field(description="the refusal's code (docs/server.md, docs/engine-api.md)")
    params: dict[str, Any] = Field(description="the refusal's details, by name")


class SeatTakenProblem(Problem):
    room: str = Field(description="the room whose seat is taken")


class StaleProblem(Problem):
    version: int = Field(description="the room's current version")
    summary: dict[str, Any]


INVALID_REQUEST: dict[int | str, dict[str, Any]] = {
    422: {
        "model": Problem,
        "description": "a parameter or body that does not validate (code invalid_request, each "
        "bad field in params.errors), or a request the room refuses",
    }
}
"""What every API route may answer."""

TOKEN_REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"model": Problem, "description": "no token (code needs_token)"},
    403: {
        "model": Problem,
        "description": "a token of another room (wrong_token), or not a seat's",
    },
}
"""What a route behind a room's token may answer besides."""
