"""The chat as a viewer sees it: the page's chat section and the socket's updates of it.

The page draws the whole section (`templates/chat.html`: both channels, the forms, the host's
setting); a socket sends `render_chat_update`, out-of-band swaps of the message lists and of the
players' chat's note on who may read it, so a message being typed is never touched. Every
message is text: Jinja escapes it, so ``<script>`` shows as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC
from typing import Any

from markupsafe import Markup
from sqlalchemy.orm import Session, sessionmaker

from app.reads.chatview import CHANNELS, ChatGroup, ChatLine, ChatView, load_chat
from app.services.chat import MAX_LENGTH
from app.services.errors import RoomNotFound
from app.ui.templates import environment_for
from app.ui.words import words_for


def line_context(line: ChatLine, view: ChatView, lang: str) -> dict[str, Any]:
    """One message as shown: who wrote it (in the viewer's words), the text, the time (UTC)."""
    t = words_for(lang).lang
    if line.seat is None:
        author = t.gettext("Spectator %(tag)s", tag=line.author)
    elif line.seat == view.seat:
        author = t.gettext("You")
    else:
        author = words_for(lang).seat_name(line.seat)
    stamp = line.created_at.astimezone(UTC)
    return {
        "id": line.id,
        "seat": line.seat,
        "mine": line.seat is not None and line.seat == view.seat,
        "author": author,
        "text": line.text,
        "iso": stamp.isoformat(),
        "clock": stamp.strftime("%H:%M"),
    }


def chat_context(view: ChatView, lang: str) -> dict[str, Any]:
    """What `templates/chat.html` and `templates/chat_update.html` need."""
    return {
        "chat": view,
        "chat_room": view.facts.room_id,
        "chat_lines": {
            channel: [line_context(line, view, lang) for line in view.lines(channel)]
            for channel in CHANNELS
        },
        "chat_max_length": MAX_LENGTH,
    }


def render_chat_update(view: ChatView, lang: str, *, channels: tuple[str, ...] = CHANNELS) -> str:
    """The socket's chat frame (or a post's answer): the lists of `channels`, swapped by id."""
    template = environment_for(lang).get_template("chat_update.html")
    return template.render(chat_context(view, lang), channels=channels)


class ChatPainter:
    """The hub's `ChatMaker` (see `app.live.hub`), run in a worker thread: reads a room's chat
    once and draws it for every group; nothing while the chat is empty (the page drew that)."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._sessions = sessions

    def __call__(self, room_id: str, groups: frozenset[ChatGroup]) -> Mapping[ChatGroup, str]:
        try:
            with self._sessions() as session:
                facts = load_chat(session, room_id=room_id)
        except RoomNotFound:  # removed meanwhile: its sockets have nothing to show
            return {}
        if facts.empty:
            return {}
        return {
            group: render_chat_update(ChatView(facts, group.seat), group.lang) for group in groups
        }


def render_chat_error(channel: str, message: str) -> str:
    """The out-of-band swap of a channel's error line (`message` "" clears it)."""
    return str(
        Markup(
            '<p id="chat-{}-error" class="chat-error" role="alert" hx-swap-oob="true">{}</p>'
        ).format(channel, message)
    )


def chat_page_context(
    session: Session, *, room_id: str, seat: int | None, lang: str
) -> dict[str, Any]:
    """The chat section's context for the room page of a viewer (`seat` None: a spectator)."""
    return chat_context(ChatView(load_chat(session, room_id=room_id), seat), lang)
