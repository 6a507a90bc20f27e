"""The JSON API: a stable contract for bots, tools and the load test (documented at /docs).

Tokens are the secrets inside the room links, sent as `Authorization: Bearer <token>`. A request
a room refuses is answered with the status `app.refusals.answers` gives its code and
`{"detail": English sentence, "code": ..., "params": {...}}`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator

from app.deps import (
    BaseUrlDep,
    HubDep,
    SessionDep,
    SettingsDep,
    TokenSeatDep,
    TokenViewerDep,
)
from app.reads import gamelog, queries
from app.refusals.answers import problem
from app.services import moves, rematch, rooms, seats
from app.services.errors import (
    ClientMoveIdReused,
    InvalidLink,
    InviteClosed,
    MoveRefused,
    NotYourTurn,
    RematchRefused,
    SeatTaken,
    StaleVersion,
)

router = APIRouter(prefix="/api", tags=["api"])

RoomId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]
Token = Annotated[str, Path(min_length=1, max_length=128)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateRoomIn(Strict):
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


class RoomCreatedOut(BaseModel):
    room: str
    seat: int
    token: str = Field(description="the host's seat token (the secret of the seat link)")
    seat_link: str
    invite_link: str | None = Field(description="null when the computer holds the other seat")
    spectator_link: str
    version: int
    catalog: str = Field(description="the id of the catalog the room is played with")
    catalog_sha256: str = Field(description="the SHA-256 of that catalog's numbers")


class SeatOut(BaseModel):
    room: str
    seat: int
    token: str
    seat_link: str


class RoomOut(BaseModel):
    version: int
    summary: dict[str, Any] = Field(description="the rules summary (SPEC §8)")
    online: tuple[bool, bool]
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
    version: StrictInt = Field(ge=0, description="the version of the board the move was chosen on")
    client_move_id: str = Field(
        min_length=1,
        max_length=moves.MAX_CLIENT_MOVE_ID,
        description="the client's id for this move: a retry with the same id applies it once",
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
    offered_by: tuple[bool, bool]
    room: str | None = Field(description="the new room once both players accepted")
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


@router.post(
    "/rooms",
    status_code=201,
    response_model=RoomCreatedOut,
    responses={422: {"description": "bad host_seat, computer or catalog (code unknown_catalog)"}},
)
def create_room(
    body: CreateRoomIn, session: SessionDep, base: BaseUrlDep, hub: HubDep
) -> RoomCreatedOut:
    """Open a private room. The host gets a seat token, the spectator link and, unless the
    computer takes the other seat, the invite link. The room is played with the chosen catalog
    for good: its replay never changes when another catalog becomes the default."""
    created = rooms.create_room(
        session,
        host_seat=body.host_seat,
        base_url=base,
        computer=body.computer,
        catalog_id=body.catalog,
        publisher=hub,
    )
    return RoomCreatedOut(
        room=created.room_id,
        seat=created.seat,
        token=created.token,
        seat_link=created.seat_link,
        invite_link=created.invite_link,
        spectator_link=created.spectator_link,
        version=created.version,
        catalog=created.catalog_id,
        catalog_sha256=created.catalog_sha256,
    )


@router.post(
    "/invites/{invite_token}",
    response_model=SeatOut,
    responses={404: {"model": Problem}, 409: {"model": SeatTakenProblem}},
)
def claim_invite(
    invite_token: Token, session: SessionDep, base: BaseUrlDep, hub: HubDep
) -> SeatOut | JSONResponse:
    """Claim the other seat with an invite token (once; a second claim, or one after the game
    ended, gets 409)."""
    try:
        claimed = seats.claim_invite(
            session, invite_token=invite_token, base_url=base, publisher=hub
        )
    except (SeatTaken, InviteClosed) as refused:
        return problem(refused, room=refused.room_id)
    except InvalidLink as refused:
        return problem(refused)
    return SeatOut(
        room=claimed.room_id, seat=claimed.seat, token=claimed.token, seat_link=claimed.seat_link
    )


@router.get("/rooms/{room_id}", response_model=RoomOut, responses={403: {"model": Problem}})
def get_room(
    room_id: RoomId, viewer: TokenViewerDep, session: SessionDep, settings: SettingsDep
) -> RoomOut:
    """The room's version, rules summary, who is online, and the result once finished."""
    room = queries.room_summary(
        session, room_id=room_id, presence_timeout=settings.presence_timeout
    )
    return RoomOut(
        version=room.version,
        summary=room.summary,
        online=room.online,
        spectators=room.spectators,
        finished=room.finished,
        result=room.result,
        catalog=room.catalog,
        catalog_sha256=room.catalog_sha256,
    )


@router.get("/rooms/{room_id}/legal", response_model=LegalOut, responses={403: {"model": Problem}})
def get_legal_moves(room_id: RoomId, viewer: TokenSeatDep, session: SessionDep) -> LegalOut:
    """Every legal move of this seat, canonical and sorted ([] when it is not its turn)."""
    assert viewer.seat is not None
    version, moves = queries.legal_moves_for(session, room_id=room_id, seat=viewer.seat)
    return LegalOut(version=version, moves=moves)


@router.post(
    "/rooms/{room_id}/moves",
    response_model=MoveOut,
    responses={
        403: {
            "model": Problem,
            "description": "not your turn, the game is over, or not a seat token",
        },
        409: {
            "model": StaleProblem,
            "description": "the board changed: current version inside; or the client_move_id was"
            ' used for another move (then `code` is "client_move_id_reused", no version)',
        },
        422: {
            "model": Problem,
            "description": "malformed or illegal move (the engine's code, params and sentence), "
            "or a client_move_id with control characters; a body that does not validate gets "
            "FastAPI's list of bad fields as detail instead",
        },
    },
)
def post_move(
    room_id: RoomId,
    body: MoveIn,
    viewer: TokenSeatDep,
    session: SessionDep,
    settings: SettingsDep,
    hub: HubDep,
) -> MoveOut | JSONResponse:
    """Make a move on the board at `version`. Retrying with the same `client_move_id` is safe;
    sending another move with it is refused (409)."""
    try:
        result = moves.submit_move(
            session,
            room_id=room_id,
            seat=viewer.seat,
            move=body.move,
            version=body.version,
            client_move_id=body.client_move_id,
            publisher=hub,
        )
    except StaleVersion as refused:
        room = queries.room_summary(
            session, room_id=room_id, presence_timeout=settings.presence_timeout
        )
        return problem(refused, version=room.version, summary=room.summary)
    except (NotYourTurn, MoveRefused, ClientMoveIdReused) as refused:
        return problem(refused)
    # The summary is the engine's own JSON: sent as it is, without a second validation pass.
    return JSONResponse({"version": result.version, "summary": result.summary})


@router.get("/rooms/{room_id}/moves", response_model=LogOut, responses={403: {"model": Problem}})
def get_moves(room_id: RoomId, viewer: TokenViewerDep, session: SessionDep) -> LogOut:
    """The move log, oldest first, and the room's catalog: `{"moves": [m["move"] ...], "catalog":
    ...}` is a replay file for the engine (for a catalog built into it)."""
    moves = [LogMove(**m) for m in gamelog.move_log(session, room_id=room_id)]
    catalog = gamelog.room_catalog(session, room_id=room_id)
    return LogOut(moves=moves, catalog=catalog)


@router.post(
    "/rooms/{room_id}/rematch",
    response_model=RematchOut,
    responses={403: {"model": Problem}, 409: {"model": Problem}},
)
def post_rematch(
    room_id: RoomId, viewer: TokenSeatDep, session: SessionDep, base: BaseUrlDep, hub: HubDep
) -> RematchOut | JSONResponse:
    """Ask for (or accept) a rematch with the seats swapped; both players must ask."""
    try:
        info = rematch.offer_rematch(session, viewer=viewer, base_url=base, publisher=hub)
    except RematchRefused as refused:
        return problem(refused)
    return RematchOut(offered_by=info.offered_by, room=info.room_id, seat_link=info.seat_link)
