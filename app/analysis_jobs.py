"""The analysis job runner: weighs a game's turns one at a time, off the event loop.

`AnalysisRunner.request(room_id)` (from any thread) starts the job of a room whose analysis is stored
as running (`app.analyses`), unless this process already runs it. A job hands each turn to an
executor as one small task (`engine.analysis.review_turn`, a pure function of the position with a
fixed work budget, so any process computes the same result) and stores the progress after each
turn, so the page can show a progress bar and a restarted job goes on where it stopped.

The executor is the runner's one dependency on where the work happens: by default a process pool
of its own with one worker (the strong bot holds a CPU while it thinks, and the server keeps the
other core). It can be pointed at any `concurrent.futures.Executor` — such as a fair queue shared
with the computer opponent — by passing it in.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.orm import Session, sessionmaker

from app import analyses
from engine.analysis import HORIZON, ITERATIONS, TurnReview, review_turn, turns_of

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
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._closed = False

    def request(self, room_id: str) -> None:
        """Run the room's analysis if it is stored as running and not running here (any thread)."""
        self._loop.call_soon_threadsafe(self._start, room_id)

    def _start(self, room_id: str) -> None:
        if self._closed or room_id in self._tasks:
            return
        task = asyncio.create_task(self._run(room_id), name=f"analysis {room_id}")
        self._tasks[room_id] = task
        task.add_done_callback(lambda _done: self._tasks.pop(room_id, None))

    async def resume(self) -> None:
        """Start the analyses left running by a stopped process."""
        for room_id in await asyncio.to_thread(self._in_session, analyses.running_analyses):
            self._start(room_id)

    async def idle(self) -> None:
        """Wait until no analysis runs here (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._own_executor and self._executor is not None:
            executor, self._executor = self._executor, None
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)

    async def _run(self, room_id: str) -> None:
        try:
            work = await asyncio.to_thread(self._in_session, analyses.work_left, room_id=room_id)
            if work is None:
                return
            moves, reviews = work
            turns = turns_of(moves)
            loop = asyncio.get_running_loop()
            for turn in turns[len(reviews) :]:
                review: TurnReview = await loop.run_in_executor(
                    self._pool(), review_turn, turn, *self._budget
                )
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
            analyses.record_progress,
            room_id=room_id,
            reviews=list(reviews),
            finished=finished,
        )

    def _pool(self) -> Executor:
        if self._executor is None:
            # "spawn": the server has threads, and forking a threaded process is unsafe.
            self._executor = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        return self._executor

    def _in_session(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        with self._sessions() as session:
            return work(session, *args, **kwargs)
