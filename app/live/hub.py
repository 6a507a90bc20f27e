"""The room hub: who is watching which room in this process, and how their boards are drawn.

What travels between processes is only "room R changed" (with the new version when the move log
grew). Each room watched here has one *feed*: a task that, when the room changes, reads the room
once, draws the board once per group of alike viewers (same seat or spectator, language and
address: `BoardGroup`) and hands every socket its group's HTML as soon as that group's board is
drawn: the player to move first, then the mover (a move's HTTP answer is only the panel's
message: the mover's own board comes this way too), then the spectators. So a move costs one
read and a render per distinct viewer, not a read and a render per socket, and the player
waiting for the move does not wait for the other boards (nor for the answer to the page's
post, which waits until the move's boards went out: `Hub.wait_for_boards`). The read itself is
small: the position comes from the position cache (`app.reads.positions`), and the room's facts
(seats, presence, rematch) are only read again after a change that was not a move. When there is
nothing to read at all (after a move: the facts are current and the move's position is in
memory, the process's own or the one its NOTIFY carried), the boards are drawn on the event loop
itself, else in a worker thread: drawing is Python that holds the interpreter either way, and a
worker thread's hand-offs (waking it, handing each board back to the loop) cost CPU of their
own.

On SQLite one process serves everything and `Hub.room_changed` is the whole story. On PostgreSQL
several processes may serve one room: a write queues a `NOTIFY` inside its transaction
(PostgreSQL delivers it only after the commit; the message format is `app.live.notify`) and every
process runs `Hub.listen_postgres`, which wakes the local feed of that room.

A room's chat travels the same way beside its boards: "the chat of room R changed" wakes the
room's chat feed, which reads the chat once and draws it once per `ChatGroup` (app.reads.chatview);
a socket holds only the newest chat it has not sent, as it does its board.

A board is drawn in parts (`app.live.frames`). The feed keeps, per group, only the digests of
the last board it drew; each socket keeps only the frame of the last board it was sent. A socket
that was sent the group's previous board gets a patch (the parts that changed), any other gets
the whole board: on connect, after it skipped a board, or when its page asked for it
(`RoomSocket.want_whole`). A patch and a whole board are made once per group and shared.

Each socket holds only the newest board it has not sent yet: a slow client skips the boards it
had no time for (and then gets the next one whole), and one whose sends stay stuck for
`SEND_TIMEOUT` is closed (`app.routes.ws`). It resynchronises when it reconnects, because a
(re)connect always starts with the whole board.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Mapping

import psycopg
from sqlalchemy import make_url

from app.live import notify
from app.live.frames import BoardSummary, DrawnBoard, Offer
from app.live.holders import Holders
from app.live.sockets import AtOnce, BoardGroup, BoardMaker, ChatMaker, RoomSocket
from app.reads.games import follow_move
from app.reads.positions import remember_move
from app.reads.roomview import RoomFacts
from app.services.seats import forget_seat_tokens

log = logging.getLogger(__name__)

RETRY_DELAY = 1.0
#: How long the thread drawing a room's boards stands back after handing one out, so that the
#: event loop takes the interpreter at once and sends it (else it waits for the drawing of the
#: next board to be interrupted, up to the interpreter's switch interval, 5 ms, at every step).
HAND_OUT_PAUSE = 0.001


class _Feed:
    """The sockets of one room in this process and what is known of the room."""

    def __init__(self, make_boards: BoardMaker, at_once: AtOnce | None) -> None:
        self._make_boards = make_boards
        self._at_once = at_once
        self.sockets: set[RoomSocket] = set()
        #: The last board drawn for each group watching (its digests only).
        self.drawn: dict[BoardGroup, BoardSummary] = {}
        #: The offers of the boards drawn so far in the current drawing.
        self.offers: dict[BoardGroup, Offer] = {}
        self.version = -1
        self.facts: RoomFacts | None = None
        self.facts_stale = True
        #: Groups with a socket that needs the whole board (drawn whole next time).
        self.whole_wanted: set[BoardGroup] = set()
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.chat_pending = False  # the chat changed since it was last drawn (`draw_chats`)
        self.chat_task: asyncio.Task[None] | None = None
        #: The newest version whose boards went to the sockets (`Hub.wait_for_boards`).
        self.handed_out = -1
        self.handed_out_changed = asyncio.Event()

    async def wait_for(self, version: int, timeout: float) -> None:
        """Until the boards of `version` or later went to the sockets, `timeout` seconds at most."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while self.handed_out < version:
                    await self.handed_out_changed.wait()

    def handed_out_version(self, version: int) -> None:
        """The boards of `version` went to the sockets: wake who waits for them."""
        if version > self.handed_out:
            self.handed_out = version
            self.handed_out_changed.set()
            self.handed_out_changed = asyncio.Event()

    async def draw_boards(self, room_id: str) -> None:
        """Draw and hand out the room's boards after every change, for as long as it is watched.

        Each group's board is offered to its sockets as soon as it is drawn, in the drawing's
        order (`_draw`): the player to move first, then the mover (whose page shows its own move
        once its board arrives: the move's answer carries none), then the spectators
        (`drawing_order` in `app.live.painters`)."""
        while True:
            await self.changed.wait()
            self.changed.clear()
            facts = None if self.facts_stale else self.facts
            self.facts_stale = False
            groups = frozenset(socket.group for socket in self.sockets)
            previous = self._patchable(groups)
            self.whole_wanted.clear()
            self.offers = {}
            try:
                facts, version, boards = await self._draw(room_id, facts, groups, previous)
            except Exception:
                log.exception("drawing the boards of room %s failed; trying again", room_id)
                self.offers = {}
                self.facts_stale = True
                self.changed.set()
                await asyncio.sleep(RETRY_DELAY)
                continue
            if not self.facts_stale:
                self.facts = facts
            self.version = max(self.version, version)
            self.handed_out_version(version)
            # The boards handed out while drawing were offered before this point (the loop runs
            # callbacks in order); every socket is offered its group's board now (again: a
            # socket that has it already takes nothing), sockets that joined meanwhile too.
            for group in boards.keys() - self.offers.keys():
                self._offer_of(group, boards[group])
            offers, self.offers = self.offers, {}
            self.drawn = {group: self.drawn[group] for group in boards}
            for socket in self.sockets:
                if socket.group not in offers:  # joined while the boards were drawn
                    self.changed.set()
                elif not socket.offer_board(offers[socket.group]):
                    self.whole_wanted.add(socket.group)  # its page changed while they were drawn
                    self.changed.set()
            del boards, offers  # while it waits, the feed holds no board of its own

    async def _draw(
        self,
        room_id: str,
        facts: RoomFacts | None,
        groups: frozenset[BoardGroup],
        previous: dict[BoardGroup, BoardSummary],
    ) -> tuple[RoomFacts, int, Mapping[BoardGroup, DrawnBoard]]:
        """The room's boards: drawn here, on the event loop, when there is nothing to read
        (`at_once`; its sockets are sent them once all are drawn), else in a worker thread, which
        hands each board to the loop as soon as it is drawn."""
        if facts is not None and self._at_once and self._at_once(room_id, facts, self.version):
            return self._make_boards(room_id, facts, self.version, groups, self._hand_out, previous)
        loop = asyncio.get_running_loop()

        def hand_out(group: BoardGroup, board: DrawnBoard) -> None:
            loop.call_soon_threadsafe(self._hand_out, group, board)
            time.sleep(HAND_OUT_PAUSE)

        return await asyncio.to_thread(
            self._make_boards, room_id, facts, self.version, groups, hand_out, previous
        )

    def _patchable(self, groups: frozenset[BoardGroup]) -> dict[BoardGroup, BoardSummary]:
        """The groups whose sockets all show the group's previous board (or have it coming), with
        that board: they will be sent a patch, so only the changed parts need drawing."""
        result = {
            group: self.drawn[group]
            for group in groups
            if group in self.drawn and group not in self.whole_wanted
        }
        for socket in self.sockets:
            before = result.get(socket.group)
            if before is not None and not socket.shows(before.frame):
                del result[socket.group]
        return result

    def _offer_of(self, group: BoardGroup, board: DrawnBoard) -> Offer:
        offer = self.offers[group] = Offer(board, self.drawn.get(group))
        self.drawn[group] = board.summary()
        return offer

    def _hand_out(self, group: BoardGroup, board: DrawnBoard) -> None:
        """Offer the group's sockets its board as soon as it is drawn (on the event loop)."""
        offer = self._offer_of(group, board)
        for socket in self.sockets:
            if socket.group == group and not socket.offer_board(offer):
                self.whole_wanted.add(group)  # its page changed while the boards were drawn
                self.changed.set()

    async def draw_chats(self, room_id: str, make_chats: ChatMaker) -> None:
        """Draw and hand out the room's chat until no change is left (started at a change by
        `Hub.deliver_chat`: a room whose chat is quiet keeps no task)."""
        while self.chat_pending:
            self.chat_pending = False
            groups = frozenset(socket.chat_group for socket in self.sockets)
            try:
                chats = await asyncio.to_thread(make_chats, room_id, groups)
            except Exception:
                log.exception("drawing the chat of room %s failed; trying again", room_id)
                self.chat_pending = True
                await asyncio.sleep(RETRY_DELAY)
                continue
            for socket in self.sockets:
                if socket.chat_group not in groups:  # joined while the chat was drawn
                    self.chat_pending = True
                elif socket.chat_group in chats:
                    socket.offer_chat(chats[socket.chat_group])
        self.chat_task = None  # drawn: nothing of the task stays with a quiet room


class Hub:
    """Publish/subscribe for the rooms served by this process."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        make_boards: BoardMaker,
        make_chats: ChatMaker | None = None,
        *,
        at_once: AtOnce | None = None,
    ) -> None:
        self._loop = loop
        self._make_boards = make_boards
        #: Whether a room's boards can be drawn on the event loop (nothing to read); None: never.
        self._at_once = at_once
        self.make_chats = make_chats
        #: Closes the pages whose token no longer opens their room (`recheck`).
        self.holders = Holders(loop)
        self._feeds: dict[str, _Feed] = {}
        self.listening = asyncio.Event()

    def join(self, room_id: str, socket: RoomSocket) -> None:
        """Watch the room; the socket gets a board at the next change (`room_changed`)."""
        feed = self._feeds.get(room_id)
        if feed is None:
            feed = self._feeds[room_id] = _Feed(self._make_boards, self._at_once)
            feed.task = self._loop.create_task(feed.draw_boards(room_id))
        feed.sockets.add(socket)

    def leave(self, room_id: str, socket: RoomSocket) -> None:
        feed = self._feeds.get(room_id)
        if feed is None:
            return
        feed.sockets.discard(socket)
        if not feed.sockets:
            del self._feeds[room_id]
            feed.handed_out_version(2**63)  # nobody waits for a board that will not come
            for task in (feed.task, feed.chat_task):
                if task is not None:
                    task.cancel()

    def has_page(self, room_id: str, seat: int) -> bool:
        """Whether a page of the room's `seat` is open on this process: while it is, its socket
        counts the seat as online, and its closing writes the seat as seen
        (`app.services.presence`)."""
        feed = self._feeds.get(room_id)
        return feed is not None and any(
            socket.viewer.kind == "seat" and socket.viewer.seat == seat for socket in feed.sockets
        )

    def deliver(self, room_id: str, version: int | None) -> None:
        """Wake the room's feed (runs on the event loop); `None`: something besides the moves.

        A version already delivered is skipped: on PostgreSQL a move made in this process is
        delivered at once and then comes back through LISTEN.
        """
        feed = self._feeds.get(room_id)
        if feed is None:
            return
        if version is None:
            feed.facts_stale = True
        elif version <= feed.version:
            return
        else:
            feed.version = version
        feed.changed.set()

    async def wait_for_boards(self, room_id: str, version: int, timeout: float) -> None:
        """Until the room's boards at `version` or later went to the sockets here, `timeout`
        seconds at most (at once when no page here watches the room)."""
        if (feed := self._feeds.get(room_id)) is not None:
            await feed.wait_for(version, timeout)

    def redraw(self, room_id: str) -> None:
        """Send the room's boards again though nothing changed (a client that fell behind)."""
        feed = self._feeds.get(room_id)
        if feed is not None:
            feed.changed.set()

    def deliver_all(self) -> None:
        """Wake every local feed (after a gap in the notifications)."""
        for room_id in list(self._feeds):
            self.deliver(room_id, None)
            self.deliver_chat(room_id)

    def seat_tokens_changed(self, room_id: str | None) -> None:
        """A seat token of `room_id` changed (a seat link reissued; None: any room's may have,
        unheard); safe from any thread: forget the tokens remembered and close the pages here
        whose token no longer opens their room (`recheck`)."""
        forget_seat_tokens(room_id)
        self._loop.call_soon_threadsafe(self.recheck, room_id)

    def recheck(self, room_id: str | None, sockets: Iterable[RoomSocket] | None = None) -> None:
        """Close those of the room's `sockets` here (None: all; room None: of every room) whose
        token no longer opens it, read again from the database (runs on the event loop)."""
        for room in [room_id] if room_id is not None else list(self._feeds):
            if (feed := self._feeds.get(room)) is not None:
                self.holders.recheck(room, list(feed.sockets if sockets is None else sockets))

    def deliver_chat(self, room_id: str) -> None:
        """Draw the room's chat here (on the event loop), starting its task unless it runs."""
        feed = self._feeds.get(room_id)
        if feed is not None and self.make_chats is not None:
            feed.chat_pending = True
            if feed.chat_task is None or feed.chat_task.done():
                feed.chat_task = self._loop.create_task(feed.draw_chats(room_id, self.make_chats))

    def chat_changed(self, room_id: str) -> None:
        """`notify.ChatPublisher`: safe to call from any thread, after the commit."""
        _call_on(self._loop, self.deliver_chat, room_id)

    def room_changed(self, room_id: str, version: int | None) -> None:
        """`notify.Publisher`: safe to call from any thread, after the commit."""
        _call_on(self._loop, self.deliver, room_id, version)

    async def listen_postgres(self, database_url: str, *, retry_delay: float = 1.0) -> None:
        """Deliver the rooms' NOTIFY messages for ever, reconnecting when the link breaks."""
        conninfo = make_url(database_url).set(drivername="postgresql").render_as_string(False)
        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
                async with connection:
                    await connection.execute(f"LISTEN {notify.CHANNEL}")
                    self.listening.set()
                    self.seat_tokens_changed(None)  # a reissue's NOTIFY may have been lost
                    self.deliver_all()
                    async for note in connection.notifies():
                        self._on_notify(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("LISTEN connection lost; reconnecting")
            self.listening.clear()
            await asyncio.sleep(retry_delay)

    def _on_notify(self, payload: str) -> None:
        """A notification from any process (see `app.live.notify`): follow the move, wake the feed."""
        note = notify.decode(payload)
        if note.seats_changed:
            self.seat_tokens_changed(note.room_id)
        if note.chat:
            self.deliver_chat(note.room_id)
            return
        if note.room_id in self._feeds and note.version is not None and note.move is not None:
            try:
                if not remember_move(note.room_id, note.version, *note.move):
                    follow_move(note.room_id, note.version, *note.move)  # another game's
            except Exception:  # the log is the truth: a read will replay it
                log.exception("could not follow the move notified for room %s", note.room_id)
        self.deliver(note.room_id, note.version)


def _call_on(loop: asyncio.AbstractEventLoop, callback: Callable[..., None], *args: object) -> None:
    """Run `callback(*args)` on `loop`: at once when called on it, else from any thread, soon."""
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        callback(*args)
    else:
        loop.call_soon_threadsafe(callback, *args)


async def run_periodically(interval: float, work: Callable[[], object]) -> None:
    """Run blocking `work` in a worker thread every `interval` seconds, for ever."""
    while True:
        await asyncio.sleep(interval)
        try:
            await asyncio.to_thread(work)
        except Exception:
            log.exception("periodic task failed")
