"""The chat's routes: a message and the host's setting from the room page (htmx, HTML answers)
and the same through the JSON API (`/api/rooms/{room}/chat`, documented at /docs).

A page's message is answered with the fresh list of its channel (out-of-band), so the writer
sees it even before the socket brings it; a refusal with the channel's error line, in the
viewer's language, with the status the API gives the same refusal (429: too many messages).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field

from app.deps import FormDep, HubDep, LangDep, PageViewerDep, SessionDep, TokenViewerDep
from app.reads.chatview import CHANNELS, ChatLine, ChatView, load_chat, read_lines
from app.reads.roomview import Viewer
from app.refusals.answers import problem, sentence, status
from app.routes.api_bodies import INVALID_REQUEST, TOKEN_REFUSALS, Problem, RoomId, Strict
from app.services import chat
from app.services.errors import NoAccess, ServiceError
from app.ui.chat import render_chat_error, render_chat_update

router = APIRouter(include_in_schema=False)
MAX_ID = 2**31 - 1
"""The greatest id a chat message can have (its column is a signed 32-bit integer)."""
api_router = APIRouter(
    prefix="/api", tags=["chat"], responses={**INVALID_REQUEST, **TOKEN_REFUSALS}
)


def client_address(request: Request) -> str:
    """The writer's address as uvicorn reports it (a trusted proxy's X-Forwarded-For)."""
    return request.client.host if request.client is not None else ""


def _retry_after(refused: ServiceError) -> dict[str, str]:
    seconds = refused.params.get("retry_after")
    return {"Retry-After": str(seconds)} if seconds is not None else {}


# --- the room page -------------------------------------------------------------------------


@router.post("/rooms/{room_id}/chat", response_class=HTMLResponse)
def post_chat(
    request: Request,
    room_id: str,
    viewer: PageViewerDep,
    form: FormDep,
    session: SessionDep,
    hub: HubDep,
    lang: LangDep,
) -> HTMLResponse:
    """Write in the players' or the spectators' chat from the room page."""
    channel = form.get("channel", "")
    own = "players" if viewer.kind == "seat" else "spectators"
    shown = channel if channel in CHANNELS else own
    try:
        chat.post_message(
            session,
            viewer=viewer,
            channel=channel,
            text=form.get("text", ""),
            address=client_address(request),
            publisher=hub,
        )
    except ServiceError as refused:
        reason = sentence(refused.code, refused.params, lang)
        return HTMLResponse(
            render_chat_error(shown, reason),
            status_code=status(refused.code),
            headers=_retry_after(refused),
        )
    view = ChatView(load_chat(session, room_id=room_id), _seat(viewer))
    return HTMLResponse(
        render_chat_update(view, lang, channels=(shown,)) + render_chat_error(shown, "")
    )


@router.post("/rooms/{room_id}/chat/settings", response_class=HTMLResponse)
def post_chat_settings(
    room_id: str,
    viewer: PageViewerDep,
    form: FormDep,
    session: SessionDep,
    hub: HubDep,
    lang: LangDep,
) -> HTMLResponse:
    """The host's checkbox: may spectators read the players' chat?"""
    try:
        chat.set_spectators_read(
            session, viewer=viewer, allowed=form.get("spectators_read") == "1", publisher=hub
        )
    except ServiceError as refused:
        reason = sentence(refused.code, refused.params, lang)
        return HTMLResponse(render_chat_error("players", reason), status(refused.code))
    view = ChatView(load_chat(session, room_id=room_id), _seat(viewer))
    return HTMLResponse(render_chat_update(view, lang, channels=()))


def _seat(viewer: Viewer) -> int | None:
    return viewer.seat if viewer.kind == "seat" else None


# --- the JSON API --------------------------------------------------------------------------


class ChatMessageIn(Strict):
    channel: Literal["players", "spectators"] = Field(
        description="players: only a seat token writes here; spectators: only a spectator token"
    )
    text: str = Field(
        # Declared, not enforced here: the service refuses with its own codes (chat_empty,
        # chat_too_long). The pattern: a character that is neither a space nor a control.
        json_schema_extra={"maxLength": chat.MAX_LENGTH, "pattern": r"[^\s\x00-\x1f\x7f-\x9f]"},
        description=f"plain text, 1 to {chat.MAX_LENGTH} characters once line breaks became "
        "spaces and the ends were trimmed; always shown as text, never as HTML",
    )


class ChatLineOut(BaseModel):
    id: int = Field(description="rising; pass the last one seen as `after` to read what is new")
    channel: Literal["players", "spectators"]
    seat: int | None = Field(description="the player's seat; null for a spectator")
    author: str = Field(description="a spectator's tag in this room; empty for a player")
    text: str
    created_at: datetime


class ChatOut(BaseModel):
    host_seat: int | None = Field(description="the seat of the player who opened the room")
    spectators_read: bool = Field(description="whether spectators may read the players' chat")
    players: list[ChatLineOut] | None = Field(
        description="the players' chat; null for a spectator while the host keeps it private"
    )
    spectators: list[ChatLineOut]


class ChatSettingsIn(Strict):
    spectators_read: bool = Field(description="let spectators read the players' chat")


class ChatSettingsOut(BaseModel):
    spectators_read: bool


def _out(line: ChatLine) -> ChatLineOut:
    return ChatLineOut(
        id=line.id,
        channel=line.channel,
        seat=line.seat,
        author=line.author,
        text=line.text,
        created_at=line.created_at,
    )


def _reader(viewer: Viewer) -> Viewer:
    """Seat and spectator tokens read and write the chat; an invite token does not."""
    if viewer.kind == "invite":
        raise NoAccess("wrong_token")
    return viewer


@api_router.get("/rooms/{room_id}/chat", response_model=ChatOut)
def get_chat(
    room_id: RoomId,
    viewer: TokenViewerDep,
    session: SessionDep,
    after: Annotated[
        int, Query(ge=0, le=MAX_ID, description="only messages with a greater id")
    ] = 0,
) -> ChatOut:
    """Both chats as this token may read them: the newest 100 messages of each, oldest first."""
    _reader(viewer)
    facts = load_chat(session, room_id=room_id)
    view = ChatView(facts, _seat(viewer))
    try:
        players = read_lines(session, room_id, "players", after=after)
        spectators = read_lines(session, room_id, "spectators", after=after)
    finally:
        session.rollback()
    return ChatOut(
        host_seat=facts.host_seat,
        spectators_read=facts.spectators_read,
        players=[_out(line) for line in players] if view.players_visible else None,
        spectators=[_out(line) for line in spectators],
    )


@api_router.post(
    "/rooms/{room_id}/chat",
    response_model=ChatLineOut,
    status_code=201,
    responses={
        403: {"model": Problem, "description": "the other group's chat (chat_not_yours)"},
        422: {"model": Problem, "description": "an empty message, or one too long"},
        429: {
            "model": Problem,
            "description": f"more than {chat.RATE_LIMIT} messages in {chat.RATE_WINDOW:g} s "
            "from this person; Retry-After says when to try again",
        },
    },
)
def post_chat_message(
    room_id: RoomId,
    body: ChatMessageIn,
    request: Request,
    viewer: TokenViewerDep,
    session: SessionDep,
    hub: HubDep,
) -> ChatLineOut | JSONResponse:
    """Write in the players' chat (a seat token) or the spectators' chat (a spectator token)."""
    _reader(viewer)
    try:
        line = chat.post_message(
            session,
            viewer=viewer,
            channel=body.channel,
            text=body.text,
            address=client_address(request),
            publisher=hub,
        )
    except ServiceError as refused:
        response = problem(refused)
        response.headers.update(_retry_after(refused))
        return response
    return _out(line)


@api_router.put(
    "/rooms/{room_id}/chat/settings",
    response_model=ChatSettingsOut,
    responses={403: {"model": Problem, "description": "not the host (chat_host_only)"}},
)
def put_chat_settings(
    room_id: RoomId, body: ChatSettingsIn, viewer: TokenViewerDep, session: SessionDep, hub: HubDep
) -> ChatSettingsOut:
    """The host lets spectators read the players' chat, or keeps it between the players."""
    allowed = chat.set_spectators_read(
        session, viewer=viewer, allowed=body.spectators_read, publisher=hub
    )
    return ChatSettingsOut(spectators_read=allowed)
