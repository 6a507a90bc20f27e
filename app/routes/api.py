"""The JSON API: a stable contract for bots, tools and the load test (documented at /docs).

Tokens are the secrets inside the room links, sent as `Authorization: Bearer <token>`. A request
a room refuses is answered with the status `app.refusals.answers` gives its code and
`{"detail": English sentence, "code": ..., "params": {...}}`.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.deps import (
    BaseUrlDep,
    HubDep,
    SessionDep,
    SettingsDep,
    TokenMoverDep,
    TokenSeatDep,
    TokenViewerDep,
)
from app.reads import gamelog, queries
from app.refusals.answers import problem
from app.routes.api_bodies import (
    INVALID_REQUEST,
    TOKEN_REFUSALS,
    CreateRoomIn,
    InlandPortRoomIn,
    LegalOut,
    LogMove,
    LogOut,
    MoveIn,
    MoveOut,
    Problem,
    RematchOut,
    RoomCreatedOut,
    RoomId,
    RoomOut,
    SeatOut,
    SeatTakenProblem,
    StaleProblem,
    Token,
)
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

router = APIRouter(prefix="/api", tags=["api"], responses=INVALID_REQUEST)


@router.post(
    "/rooms",
    status_code=201,
    response_model=RoomCreatedOut,
    responses={
        422: {
            "model": Problem,
            "description": "bad host_seat, computer or catalog (code invalid_request or "
            "unknown_catalog)",
        },
        429: {
            "model": Problem,
            "description": "too many new rooms from this address (code too_many_rooms; "
            "Retry-After says when to try again)",
        },
    },
)
def create_room(
    body: CreateRoomIn, session: SessionDep, base: BaseUrlDep, hub: HubDep
) -> RoomCreatedOut:
    """Open a private room of a game. The host gets a seat token, the spectator link and an
    invite link for every other seat (none for a seat the computer takes). An Inland Port room
    is played with the chosen catalog for good: its replay never changes when another catalog
    becomes the default; a Le Havre room with a random setup of its player count and variant."""
    if isinstance(body, InlandPortRoomIn):
        created = rooms.create_room(
            session,
            host_seat=body.host_seat,
            base_url=base,
            computer=body.computer,
            catalog_id=body.catalog,
            publisher=hub,
        )
    else:
        others = {seat: who for seat, who in enumerate(body.others, start=1)}
        created = rooms.create_game_room(
            session,
            game_id=body.game,
            players=1 + len(body.others),
            variant=body.variant,
            host_seat=body.host_seat,
            base_url=base,
            computers={seat: who for seat, who in others.items() if who != "friend"},
            publisher=hub,
        )
    return RoomCreatedOut(
        room=created.room_id,
        seat=created.seat,
        token=created.token,
        seat_link=created.seat_link,
        invite_link=created.invite_link,
        invite_links=list(created.invite_links),
        spectator_link=created.spectator_link,
        version=created.version,
        catalog=created.catalog_id,
        catalog_sha256=created.catalog_sha256,
        game=created.game,
        players=created.players,
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


@router.get("/rooms/{room_id}", response_model=RoomOut, responses=TOKEN_REFUSALS)
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
        online=list(room.online),
        spectators=room.spectators,
        finished=room.finished,
        result=room.result,
        catalog=room.catalog,
        catalog_sha256=room.catalog_sha256,
    )


@router.get("/rooms/{room_id}/legal", response_model=LegalOut, responses=TOKEN_REFUSALS)
def get_legal_moves(room_id: RoomId, viewer: TokenSeatDep, session: SessionDep) -> LegalOut:
    """Every legal move of this seat, canonical and sorted ([] when it is not its turn)."""
    assert viewer.seat is not None
    version, moves = queries.legal_moves_for(session, room_id=room_id, seat=viewer.seat)
    return LegalOut(version=version, moves=moves)


@router.post(
    "/rooms/{room_id}/moves",
    response_model=MoveOut,
    responses={
        **TOKEN_REFUSALS,
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
    mover: TokenMoverDep,
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
            seat=mover.viewer.seat,
            move=body.move,
            version=body.version,
            client_move_id=body.client_move_id,
            publisher=hub,
            seen=mover.seen_due,
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


@router.get("/rooms/{room_id}/moves", response_model=LogOut, responses=TOKEN_REFUSALS)
def get_moves(room_id: RoomId, viewer: TokenViewerDep, session: SessionDep) -> LogOut:
    """The move log, oldest first, and the room's catalog: `{"moves": [m["move"] ...], "catalog":
    ...}` is a replay file for the engine (for a catalog built into it)."""
    moves = [LogMove(**m) for m in gamelog.move_log(session, room_id=room_id)]
    catalog = gamelog.room_catalog_id(session, room_id=room_id)
    return LogOut(moves=moves, catalog=catalog)


@router.post(
    "/rooms/{room_id}/rematch",
    response_model=RematchOut,
    responses={**TOKEN_REFUSALS, 409: {"model": Problem}},
)
def post_rematch(
    room_id: RoomId, viewer: TokenSeatDep, session: SessionDep, base: BaseUrlDep, hub: HubDep
) -> RematchOut | JSONResponse:
    """Ask for (or accept) a rematch: Inland Port's with the seats swapped, another game's with
    each player in their seat, the same seats, variant and computer seats; every player must
    ask (the computer agrees at once)."""
    try:
        info = rematch.offer_rematch(session, viewer=viewer, base_url=base, publisher=hub)
    except RematchRefused as refused:
        return problem(refused)
    return RematchOut(offered_by=list(info.offered_by), room=info.room_id, seat_link=info.seat_link)
