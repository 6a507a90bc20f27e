"""The chat's writes: a message in a room's players' or spectators' chat, and the host's choice
whether spectators may read the players' chat.

A message is plain text of 1 to `MAX_LENGTH` characters (line breaks and tabs become spaces,
other control characters are dropped, spaces at the ends trimmed); it is stored as written and
always shown as text. One person writes at most `RATE_LIMIT` messages in `RATE_WINDOW` seconds:
a player is their seat, a spectator their address in the room (spectators have no seat; the
tag that signs their messages is an HMAC of the address with the room's own salt, so it tells
spectators apart without telling anyone the address). The count is read from the stored
messages under the room's lock, so it holds across server processes.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import unicodedata
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.live.notify import ChatPublisher, queue_chat_notify
from app.models import ChatMessage, ChatSettings
from app.reads.chatview import CHANNELS, ChatLine, host_seat
from app.reads.roomview import Viewer
from app.services.errors import ServiceError
from app.services.lock import now, room_lock

MAX_LENGTH = 300
RATE_LIMIT = 5
RATE_WINDOW = 10.0
TAG_LENGTH = 4
MAX_MESSAGES = 1000
"""The messages a room keeps: past them the oldest is deleted, from view and from the record."""


class ChatRefused(ServiceError):
    """A message the chat does not take: ``chat_not_yours`` (the other group's channel),
    ``unknown_chat``, ``chat_empty``, ``chat_too_long`` ``{"max_length"}``, ``chat_too_fast``
    ``{"limit", "seconds", "retry_after"}``, ``chat_closed`` (an imported record's review room);
    or a setting only the host may change (``chat_host_only``)."""

    code = "chat_not_yours"


def clean_text(text: str) -> str:
    """The message as stored: whitespace controls become spaces, other controls go, ends trimmed."""
    kept = []
    for char in text:
        if char in "\n\r\t":
            kept.append(" ")
        elif unicodedata.category(char) not in ("Cc", "Cs"):
            kept.append(char)
    return "".join(kept).strip()


def spectator_tag(salt: str, address: str) -> str:
    """The short tag that signs a spectator's messages in one room."""
    digest = hmac.new(salt.encode(), address.encode(), hashlib.sha256).hexdigest()
    return digest[:TAG_LENGTH].upper()


def _settings(session: Session, room_id: str) -> ChatSettings:
    settings = session.get(ChatSettings, room_id)
    if settings is None:
        settings = ChatSettings(room_id=room_id, spectators_read=True, salt=secrets.token_hex(16))
        session.add(settings)
        session.flush()
    return settings


def post_message(
    session: Session,
    *,
    viewer: Viewer,
    channel: str,
    text: str,
    address: str,
    publisher: ChatPublisher | None = None,
) -> ChatLine:
    """Add a message to the room's `channel` ("players" for a player, "spectators" for a
    spectator) and tell everyone watching the room.

    1. The channel must be the viewer's own; the text 1 to `MAX_LENGTH` characters once cleaned.
    2. Under the room's lock, the writer's messages of the last `RATE_WINDOW` seconds are
       counted: `RATE_LIMIT` of them already, and this one is refused with the wait.
    3. The message is stored, the commit queues the cross-process notice, then the publisher
       hears of it.
    """
    is_player = viewer.kind == "seat" and viewer.seat is not None
    cleaned = _checked_text(channel, text, is_player=is_player)
    with room_lock(session, viewer.room_id) as room:
        if room.origin == "import":
            raise ChatRefused("chat_closed")
        author = ""
        if not is_player:
            author = spectator_tag(_settings(session, room.id).salt, address)
        stamp = now()
        writer = (
            ChatMessage.seat == viewer.seat
            if is_player
            else (ChatMessage.seat.is_(None) & (ChatMessage.author == author))
        )
        _check_rate(session, room.id, channel, writer, stamp)
        row = ChatMessage(
            room_id=room.id,
            channel=channel,
            seat=viewer.seat if is_player else None,
            author=author,
            text=cleaned,
            created_at=stamp,
        )
        session.add(row)
        session.flush()
        line = ChatLine(
            id=row.id,
            channel="players" if channel == "players" else "spectators",
            seat=row.seat,
            author=author,
            text=cleaned,
            created_at=stamp,
        )
        _forget_oldest(session, room.id)
        queue_chat_notify(session, room.id)
        session.commit()
    if publisher is not None:
        publisher.chat_changed(viewer.room_id)
    return line


def _checked_text(channel: str, text: str, *, is_player: bool) -> str:
    """Step 1: the channel is the viewer's own, and the text once cleaned is 1 to `MAX_LENGTH`
    characters."""
    if channel not in CHANNELS:
        raise ChatRefused("unknown_chat")
    if (channel == "players") != is_player:
        raise ChatRefused("chat_not_yours")
    cleaned = clean_text(text)
    if not cleaned:
        raise ChatRefused("chat_empty")
    if len(text) > MAX_LENGTH:
        raise ChatRefused("chat_too_long", {"max_length": MAX_LENGTH})
    return cleaned


def _forget_oldest(session: Session, room_id: str) -> None:
    """Keep the room's newest `MAX_MESSAGES` messages, both chats together."""
    oldest_kept = session.scalar(
        select(ChatMessage.id)
        .where(ChatMessage.room_id == room_id)
        .order_by(ChatMessage.id.desc())
        .offset(MAX_MESSAGES - 1)
        .limit(1)
    )
    if oldest_kept is not None:
        session.execute(
            delete(ChatMessage).where(ChatMessage.room_id == room_id, ChatMessage.id < oldest_kept)
        )


def _check_rate(session: Session, room_id: str, channel: str, writer: Any, stamp: datetime) -> None:
    """Step 2: `RATE_LIMIT` messages by this writer in the last `RATE_WINDOW` seconds already,
    and this one is refused with the wait."""
    recent = session.scalars(
        select(ChatMessage.created_at)
        .where(
            ChatMessage.room_id == room_id,
            ChatMessage.channel == channel,
            writer,
            ChatMessage.created_at > stamp - timedelta(seconds=RATE_WINDOW),
        )
        .order_by(ChatMessage.created_at.desc())
        .limit(RATE_LIMIT)
    ).all()
    if len(recent) >= RATE_LIMIT:
        oldest = recent[-1] if recent[-1].tzinfo else recent[-1].replace(tzinfo=stamp.tzinfo)
        wait = RATE_WINDOW - (stamp - oldest).total_seconds()
        seconds = max(1, math.ceil(wait))
        raise ChatRefused(
            "chat_too_fast",
            {"limit": RATE_LIMIT, "seconds": int(RATE_WINDOW), "retry_after": seconds},
        )


def set_spectators_read(
    session: Session, *, viewer: Viewer, allowed: bool, publisher: ChatPublisher | None = None
) -> bool:
    """The host lets spectators read the players' chat (`allowed`), or stops them."""
    if viewer.kind != "seat" or viewer.seat is None:
        raise ChatRefused("chat_host_only")
    with room_lock(session, viewer.room_id) as room:
        if host_seat(session, room) != viewer.seat:
            raise ChatRefused("chat_host_only")
        _settings(session, room.id).spectators_read = allowed
        queue_chat_notify(session, room.id)
        session.commit()
    if publisher is not None:
        publisher.chat_changed(viewer.room_id)
    return allowed
