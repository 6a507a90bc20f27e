"""Work that runs beside the requests: one task per room, and the process pool of the bots.

`RoomTasks` keeps at most one asyncio task per room (the computer's turn, a game's analysis);
`spawn_pool` starts a process pool the safe way for a threaded server and `shut_down` stops one
from the event loop. Both the computer player (`app.computer.player`) and the analysis runner
(`app.computer.analysis`) are built on them.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any


def spawn_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool of `workers`; "spawn", since forking a threaded process is unsafe."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


async def shut_down(executor: Executor | None) -> None:
    """Stop `executor` (if any) without blocking the event loop; queued work is cancelled."""
    if executor is not None:
        await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)


class RoomTasks:
    """At most one task per room; `closed` once `close` has begun (no new task starts then)."""

    def __init__(self, kind: str) -> None:
        self._kind = kind
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self.closed = False

    def __contains__(self, room_id: str) -> bool:
        return room_id in self._tasks

    def start(self, room_id: str, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run `work()` as the room's task (event loop only; the caller checks it is not running)."""
        task = asyncio.create_task(work(), name=f"{self._kind} {room_id}")
        self._tasks[room_id] = task
        task.add_done_callback(lambda _done: self._tasks.pop(room_id, None))

    async def idle(self) -> None:
        """Wait until no room's task runs (tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        """Start no more tasks; cancel the running ones and wait for them to end."""
        self.closed = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
