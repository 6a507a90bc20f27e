"""The analysis job runner: weighs a game's turns one at a time, off the event loop.

`AnalysisRunner.request(room_id)` (from any thread) starts the job of a room whose analysis is stored
as running (`app.services.analyses`), unless this process already runs it. A job hands each turn to an
executor as one small task (the game's `turn_reviewer`, `engine.games`: a pure function of the
position with a fixed work budget, so any process computes the same result) and stores the progress after each
turn, so the page can show a progress bar and a restarted job goes on where it stopped.

The executor is the runner's one dependency on where the work happens: by default a process pool
of its own with one worker (the strong bot holds a CPU while it thinks, and the server keeps the
other core). It can be pointed at any `concurrent.futures.Executor` — such as a fair queue shared
with the computer opponent — by passing it in.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

from sqlalchemy.orm import Session, sessionmaker

from app.computer.background import RoomTasks, shut_down, spawn_pool
from app.reads import analyses
from app.services.analyses import record_progress
from engine.analysis import HORIZON, ITERATIONS, TurnReview
from engine.games import game

log = logging.getLogger(__name__)

T = TypeVar("T")


class AnalysisRunner:
    """Runs the stored analyses of this process, one task per room."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        loop: asyncio.AbstractEventLoop,
        *,
        executor: Executor | None = None,
        iterations: int = ITERATIONS,
        horizon: int = HORIZON,
    ) -> None:
        self._sessions = sessions
        self._loop = loop
        self._executor = executor
        self._own_executor = executor is None
        self._budget = (iterations, horizon)
        self._tasks = RoomTasks("analysis")

    def request(self, room_id: str) -> None:
        """Run the room's analysis if it is stored as running and not running here (any thread)."""
        self._loop.call_soon_threadsafe(self._start, room_id)

    def _start(self, room_id: str) -> None:
        if self._tasks.closed or room_id in self._tasks:
            return
        self._tasks.start(room_id, lambda: self._run(room_id))

    async def resume(self) -> None:
        """Start the analyses left running by a stopped process."""
        for room_id in await asyncio.to_thread(self._in_session, analyses.running_analyses):
            self._start(room_id)

    async def idle(self) -> None:
        """Wait until no analysis runs here (tests)."""
        await self._tasks.idle()

    async def close(self) -> None:
        """Stop the analyses (a restart takes them up again) and the pool of our own."""
        await self._tasks.close()
        if self._own_executor:
            executor, self._executor = self._executor, None
            await shut_down(executor)

    async def _run(self, room_id: str) -> None:
        try:
            work = await asyncio.to_thread(self._in_session, analyses.work_left, room_id=room_id)
            if work is None:
                return
            rules = game(work.game)
            turns = rules.analysis_turns(work.setup, work.moves, work.catalog)
            weigh = rules.turn_reviewer(*self._budget)
            reviews = work.reviews
            loop = asyncio.get_running_loop()
            for turn in turns[len(reviews) :]:
                review: TurnReview = await loop.run_in_executor(self._pool(), weigh, turn)
                reviews.append(review)
                await self._store(room_id, reviews, finished=len(reviews) == len(turns))
            if not turns:
                await self._store(room_id, reviews, finished=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the analysis of room %s failed", room_id)

    async def _store(self, room_id: str, reviews: list[TurnReview], *, finished: bool) -> None:
        await asyncio.to_thread(
            self._in_session,
            record_progress,
            room_id=room_id,
            reviews=list(reviews),
            finished=finished,
        )

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = spawn_pool(1)
        return self._executor

    def _in_session(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        with self._sessions() as session:
            return work(session, *args, **kwargs)
