"""The computer opponent at the table: it plays its seat through `app.services.moves.submit_move`.

A room created with a computer strength has the computer in the other seat (`rooms.computer`,
`rooms.computer_seat`); in a room of two people the computer may stand in, at normal strength,
for a player who left (`rooms.standin_seat`, `app.services.standin`). Whenever a room changes — a move committed here or, on PostgreSQL, in
another process; a viewer connecting; the room created — the hub wakes `ComputerPlayer`, which
looks at the room and, if it is the computer's turn, asks the bot (`engine.ai.choose_move`) and
submits the move like a player would: same validation, same log, same broadcast. The move's
`client_move_id` is ``computer-<version>``, so when two processes think about the same position
only one move is applied and the other gets the original answer back; a stale version (someone
else moved first) is read again quietly. A turn may start with sells, so the computer keeps
playing until the turn has passed.

The bots never run on the event loop: each strength thinks in a lane of its own (`app.computer.lanes`),
the easy bot in worker threads, the normal and strong bots in bot processes, so a queue of
strong searches never delays a quick move; while a room waits in the strong queue its table
says how many games are ahead. On start the server resumes every room left on the computer's
turn, so a crash or a restart never leaves a game stuck, and warms the lanes (`warm_up`; the
COMPUTER_WARM_UP setting): the bot processes start and think once beside the first requests, so
the first computer move after a start does not wait for a bot process (docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.orm import Session, sessionmaker

from app.computer.background import RoomTasks
from app.computer.bots import think, think_in, warm_up
from app.computer.lanes import Lanes
from app.live.hub import Hub
from app.live.notify import Publisher
from app.reads import queries
from app.reads.games import ComputerTurn
from app.services import moves
from app.services.errors import ClientMoveIdReused, NotYourTurn, RoomNotFound, StaleVersion
from engine import games

log = logging.getLogger(__name__)

MAX_FAILURES = 3
"""Attempts at one room before the computer gives up until the room's next change."""
HUMAN_ROOMS_REMEMBERED = 10_000

T = TypeVar("T")


class ComputerPlayer:
    """Plays the computer's seat in every room of this process that has one.

    `nudge(room_id)` (on the event loop) asks it to look at a room; it runs at most one task per
    room, and a nudge during that task makes the task look once more before it ends.
    """

    def __init__(
        self,
        sessions: sessionmaker[Session],
        publisher: Publisher,
        *,
        redraw: Callable[[str], None] | None = None,
    ) -> None:
        """`redraw(room_id)`: show a room's table again (its place in the queue changed)."""
        self._sessions = sessions
        self._publisher = publisher
        self._redraw = redraw
        self._lanes = Lanes(self._queue_moved)
        self._tasks = RoomTasks("computer")
        #: Database work running in worker threads (a cancelled task does not stop its thread).
        self._threads: set[asyncio.Future[Any]] = set()
        self._again: set[str] = set()
        #: Rooms known to have no computer (that never changes), so their changes cost nothing.
        self._human_rooms: OrderedDict[str, None] = OrderedDict()
        self._warming: asyncio.Task[dict[str, list[int]]] | None = None

    # --- waking up ------------------------------------------------------------------------

    def nudge(self, room_id: str, *, recheck: bool = False) -> None:
        """Look at the room soon: the computer moves if it is its turn (event loop only).
        `recheck`: the room changed besides its moves (the computer may have begun standing in
        for an absent player), so a room known to have no computer is looked at again."""
        if recheck:
            self._human_rooms.pop(room_id, None)
        if self._tasks.closed or room_id in self._human_rooms:
            return
        if room_id in self._tasks:
            self._again.add(room_id)
            return
        self._tasks.start(room_id, lambda: self._play(room_id))

    async def resume(self) -> None:
        """Wake every room left on the computer's turn (at start: after a crash or restart)."""
        for room_id in await self._in_thread(self._waiting_rooms):
            self.nudge(room_id)

    @property
    def warming(self) -> asyncio.Task[dict[str, list[int]]] | None:
        """The warm-up's task, once `warm_up` was called."""
        return self._warming

    def warm_up(self) -> None:
        """Start every lane's workers and think once in each, beside the requests (event loop
        only); the task's result is the ids of the processes that thought, by level."""
        if self._warming is None:
            self._warming = asyncio.create_task(self._lanes.warm_up(warm_up), name="warm-up")

    async def idle(self) -> None:
        """Wait until no room is being played (tests and shutdown)."""
        await self._tasks.idle()

    async def close(self) -> None:
        """Stop playing: cancel the rooms' tasks, let their database work end, stop the bots."""
        if self._warming is not None:
            self._warming.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._warming
        await self._tasks.close()
        await asyncio.gather(*list(self._threads), return_exceptions=True)
        await self._lanes.close()

    def _queue_moved(self, rooms: list[str]) -> None:
        if self._redraw is not None:
            for room_id in rooms:
                self._redraw(room_id)

    # --- playing one room -------------------------------------------------------------------

    async def _play(self, room_id: str) -> None:
        failures = 0
        while not self._tasks.closed:
            self._again.discard(room_id)
            try:
                has_computer, turn = await self._in_thread(self._turn, room_id)
                if not has_computer:
                    self._forget(room_id)
                    return
                if turn is None:
                    if room_id in self._again:
                        continue
                    return
                move = await self._think(turn)
                await self._in_thread(self._submit, turn, move)
            except asyncio.CancelledError:
                raise
            except Exception:
                failures += 1
                log.exception("the computer could not move in room %s", room_id)
                if failures >= MAX_FAILURES:
                    return

    async def _think(self, turn: ComputerTurn) -> Any:
        lane, work, args = thinking(turn)
        return await self._lanes.run(lane, turn.room_id, work, *args)

    # --- the database side (worker threads) ---------------------------------------------------

    async def _in_thread(self, work: Callable[..., T], *args: object) -> T:
        """Run blocking `work` in a worker thread; `close` waits for it even when cancelled."""
        future = asyncio.ensure_future(asyncio.to_thread(work, *args))
        self._threads.add(future)
        future.add_done_callback(self._threads.discard)
        return await asyncio.shield(future)

    def _waiting_rooms(self) -> list[str]:
        with self._sessions() as session:
            return queries.computer_rooms_waiting(session)

    def _turn(self, room_id: str) -> tuple[bool, ComputerTurn | None]:
        """Whether the room has a computer, and its turn if it is the one to move now."""
        with self._sessions() as session:
            try:
                return queries.computer_turn(session, room_id=room_id)
            except RoomNotFound:
                return False, None

    def _forget(self, room_id: str) -> None:
        """Remember that a room has no computer (bounded: the oldest rooms drop out)."""
        self._human_rooms[room_id] = None
        while len(self._human_rooms) > HUMAN_ROOMS_REMEMBERED:
            self._human_rooms.popitem(last=False)

    def _submit(self, turn: ComputerTurn, move: Any) -> None:
        with self._sessions() as session:
            try:
                moves.submit_move(
                    session,
                    room_id=turn.room_id,
                    seat=turn.seat,
                    move=json.loads(games.game(turn.game).canonical(move)),
                    version=turn.version,
                    client_move_id=f"computer-{turn.version}",
                    publisher=self._publisher,
                    by_computer=True,
                )
            except (StaleVersion, NotYourTurn, ClientMoveIdReused) as exc:
                # Another process (or a restart) moved first — perhaps another move, when the
                # search's clock cut it elsewhere: look at the room again.
                log.debug("room %s moved on before the computer: %s", turn.room_id, exc)


def thinking(turn: ComputerTurn) -> tuple[str, Callable[..., Any], tuple[object, ...]]:
    """The lane, the work and its arguments of the computer's thinking on `turn`, seeded by the
    room and version so that two processes choose alike (another game's strengths share the
    lanes: its strong player the strong lane, the others the normal one)."""
    seed = f"{turn.room_id}:{turn.version}"
    if turn.game == "inland_port":
        return turn.level, think, (turn.state, turn.level, seed)
    lane = "strong" if turn.level == "strong" else "normal"
    return lane, think_in, (turn.game, turn.state, turn.level, seed)


class ComputerHub(Hub):
    """The room hub that also wakes the computer player after every change of a room."""

    computer: ComputerPlayer | None = None

    def deliver(self, room_id: str, version: int | None) -> None:
        super().deliver(room_id, version)
        if self.computer is not None:
            self.computer.nudge(room_id, recheck=version is None)
