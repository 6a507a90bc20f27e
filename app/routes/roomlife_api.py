"""The JSON API of the room's life: resign, abort, the host's new seat link for the other
seat, the computer standing in for a player who left, taking over again, claiming the game,
and takebacks by agreement (documented with the rest of the API at /docs and in docs/server.md).

Each takes a seat token (`Authorization: Bearer <token>`); a refusal is answered as every
refusal of the API is (`app.refusals.answers.problem`, from the app's ServiceError handler).
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from app.deps import (
    BaseUrlDep,
    HubDep,
    SessionDep,
    SettingsDep,
    TokenSeatDep,
    TokenViewerDep,
)
from app.reads import gamelog
from app.routes.api_bodies import INVALID_REQUEST, TOKEN_REFUSALS, Problem, RoomId
from app.services import ending, seats, standin, takeback

router = APIRouter(prefix="/api", tags=["api"], responses={**INVALID_REQUEST, **TOKEN_REFUSALS})


class RoomEventOut(BaseModel):
    seq: int
    kind: str = Field(
        description='"seat_link_reissued", "resigned", "aborted", "claimed", '
        '"standin_started" or "standin_ended"'
    )
    seat: int | None = Field(description="the seat it concerns")
    at_version: int = Field(description="the number of moves played before it happened")


class EventsOut(BaseModel):
    events: list[RoomEventOut]


class EndedOut(BaseModel):
    ending: str = Field(description='"resigned", "aborted" or "claimed"')
    seat: int = Field(description="the seat whose act ended the game")


class NewSeatLinkOut(BaseModel):
    seat: int = Field(
        description="the seat whose link this is: Inland Port's other seat, else your own"
    )
    seat_link: str = Field(description="its new seat link; the old one no longer opens the seat")


@router.get("/rooms/{room_id}/events", response_model=EventsOut)
def get_events(room_id: RoomId, viewer: TokenViewerDep, session: SessionDep) -> EventsOut:
    """The room's log of happenings that are not moves, oldest first (the moves are at
    `/moves`; an event with `at_version` v came after the first v moves)."""
    return EventsOut(
        events=[RoomEventOut(**e) for e in gamelog.event_log(session, room_id=room_id)]
    )


@router.post(
    "/rooms/{room_id}/resign",
    response_model=EndedOut,
    responses={409: {"model": Problem}},
)
def post_resign(
    room_id: RoomId, viewer: TokenSeatDep, session: SessionDep, hub: HubDep
) -> EndedOut:
    """Resign: the game ends and the opponent wins (403 "game_over" once it ended, 409
    "not_started" before both seats are taken)."""
    ending.resign(session, viewer=viewer, publisher=hub)
    assert viewer.seat is not None
    return EndedOut(ending="resigned", seat=viewer.seat)


@router.post(
    "/rooms/{room_id}/abort",
    response_model=EndedOut,
    responses={409: {"model": Problem}},
)
def post_abort(room_id: RoomId, viewer: TokenSeatDep, session: SessionDep, hub: HubDep) -> EndedOut:
    """Abort the game while nobody has taken an action in it: the room ends without a result
    (409 "cannot_abort" after the first action)."""
    ending.abort(session, viewer=viewer, publisher=hub)
    assert viewer.seat is not None
    return EndedOut(ending="aborted", seat=viewer.seat)


@router.post(
    "/rooms/{room_id}/seat-link",
    response_model=NewSeatLinkOut,
    responses={409: {"model": Problem}},
)
def post_seat_link(
    room_id: RoomId, viewer: TokenSeatDep, session: SessionDep, base: BaseUrlDep, hub: HubDep
) -> NewSeatLinkOut:
    """A new seat link: in Inland Port's room the host's for the other seat (a guest who lost
    theirs; 403 "not_the_host" for anyone else, 409 "no_seat_to_reissue" while the invite is
    unused or the computer holds the seat); in another game's room a player's for their own
    seat (409 "seat_played_by_computer" once the computer took it over). The old link stops
    working at once (this token too, when it was the seat's own) and the room's log records it."""
    claimed = seats.reissue_link(session, viewer=viewer, base_url=base, publisher=hub)
    return NewSeatLinkOut(seat=claimed.seat, seat_link=claimed.seat_link)


class StandinOut(BaseModel):
    standin_seat: int | None = Field(description="the seat the computer plays for; null: none")


@router.post(
    "/rooms/{room_id}/standin",
    response_model=StandinOut,
    responses={409: {"model": Problem}},
)
def post_standin(
    room_id: RoomId, viewer: TokenSeatDep, session: SessionDep, settings: SettingsDep, hub: HubDep
) -> StandinOut:
    """The player to move (another's seat) has had no open page for ABSENT_AFTER seconds: the
    computer (Inland Port: normal strength; another game: its steadier one) plays for them
    until they take over (409 "not_absent" otherwise, "standin_playing" while it stands in
    for a seat already)."""
    seat = standin.start_standin(
        session,
        viewer=viewer,
        absent_after=settings.absent_after,
        presence_timeout=settings.presence_timeout,
        publisher=hub,
    )
    return StandinOut(standin_seat=seat)


@router.post(
    "/rooms/{room_id}/take-over",
    response_model=StandinOut,
    responses={409: {"model": Problem}},
)
def post_take_over(
    room_id: RoomId, viewer: TokenSeatDep, session: SessionDep, hub: HubDep
) -> StandinOut:
    """The absent player is back: the computer stops playing for them (409 "no_standin")."""
    standin.take_over(session, viewer=viewer, publisher=hub)
    return StandinOut(standin_seat=None)


@router.post(
    "/rooms/{room_id}/claim",
    response_model=EndedOut,
    responses={409: {"model": Problem}},
)
def post_claim(
    room_id: RoomId, viewer: TokenSeatDep, session: SessionDep, settings: SettingsDep, hub: HubDep
) -> EndedOut:
    """The opponent to move has had no open page for ABSENT_AFTER seconds: claim the game,
    recorded as won because the opponent left (409 "not_absent" otherwise; "claim_needs_two"
    in a room of more than two seats)."""
    ending.claim(
        session,
        viewer=viewer,
        absent_after=settings.absent_after,
        presence_timeout=settings.presence_timeout,
        publisher=hub,
    )
    assert viewer.seat is not None
    return EndedOut(ending="claimed", seat=viewer.seat)


class TakebackOut(BaseModel):
    status: Literal["asked", "accepted", "declined"] = Field(
        description='"asked": waiting for the other players; against the computer alone its '
        "answer at once"
    )
    waiting_for: list[int] | None = Field(
        default=None,
        description="after an acceptance: the seats whose answer the takeback still waits for",
    )


class TakebackAnswerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    accept: StrictBool = Field(description="true: take the actions back; false: decline")


@router.post(
    "/rooms/{room_id}/takeback",
    response_model=TakebackOut,
    response_model_exclude_none=True,
    responses={409: {"model": Problem}},
)
def post_takeback(
    room_id: RoomId, viewer: TokenSeatDep, session: SessionDep, hub: HubDep
) -> TakebackOut:
    """Ask to take back your own actions since another player last acted (409
    "takeback_pending" while a request is open, "nothing_to_take_back" when another player
    acted last). Every other player a person holds must accept; the computer's seats answer at
    once, and against the computer alone the answer comes at once."""
    accepted = takeback.ask_takeback(session, viewer=viewer, publisher=hub)
    if accepted is None:
        return TakebackOut(status="asked")
    return TakebackOut(status="accepted" if accepted else "declined")


@router.post(
    "/rooms/{room_id}/takeback/answer",
    response_model=TakebackOut,
    response_model_exclude_none=True,
    responses={409: {"model": Problem}},
)
def post_takeback_answer(
    room_id: RoomId,
    body: TakebackAnswerIn,
    viewer: TokenSeatDep,
    session: SessionDep,
    hub: HubDep,
) -> TakebackOut:
    """Accept or decline another player's open takeback request (409 "no_takeback", or
    "takeback_answered" for a player who accepted it already). It happens once every other
    player a person holds accepted (`waiting_for`: the seats it still waits for); one decline
    ends it."""
    waiting = takeback.answer_takeback(session, viewer=viewer, accept=body.accept, publisher=hub)
    if not body.accept:
        return TakebackOut(status="declined")
    return TakebackOut(status="accepted", waiting_for=list(waiting) or None)
