"""The computer's thinking lanes: quick moves never wait behind strong searches.

Each strength has a lane of its own, a first-come-first-served queue with its own workers:

- easy (a random pick, about a millisecond) thinks in a worker thread, as many at once as come;
- normal (greedy, a few milliseconds) has one bot process of its own;
- strong holds a CPU for its whole budget (1 s), so its lane has `STRONG_WORKERS` processes and
  a queue: a strong move waits for the strong moves ahead of it, one budget each.

So a flood of strong rooms delays no easy or normal move, and every strong move starts after the
ones queued before it. A room has at most one move in the lanes at a time (`ComputerPlayer` runs
one task per room), so the queue is fair between rooms. `Lanes.warm_up` starts every bot process
at once and has each worker think once, so the first computer move after a server start does not
wait for a process to start. Where a room stands is public:
`games_ahead(room_id)` (for the table's "thinking… 2 games ahead"), and whenever the queue moves
on, the rooms still waiting are redrawn (`on_moved`).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

from app.computer.background import spawn_pool

T = TypeVar("T")
log = logging.getLogger(__name__)

STRONG_WORKERS = max(1, min(2, (os.cpu_count() or 2) - 1))
"""Strong bot processes: leave a core to the server and the normal lane."""
UNBOUNDED = 1 << 30

_PLACES: dict[str, int] = {}
"""Games ahead of each waiting room, over every lane of this process (what the tables show)."""


def games_ahead(room_id: str) -> int:
    """How many games the computer thinks about before this room's (0: none, or not waiting)."""
    return _PLACES.get(room_id, 0)


@dataclass(eq=False)
class _Ticket:
    room_id: str
    go: asyncio.Event = field(default_factory=asyncio.Event)
    started: bool = False


class Lane:
    """One strength's queue: `workers` moves thought about at a time, the others wait in order.

    `processes`: think in a pool of bot processes (else in worker threads).
    """

    def __init__(
        self, *, workers: int, processes: bool, on_moved: Callable[[list[str]], None]
    ) -> None:
        self.workers = workers
        self._processes = processes
        self._on_moved = on_moved
        self._pool: ProcessPoolExecutor | None = None
        self._waiting: deque[_Ticket] = deque()
        self._running = 0

    def ahead(self, room_id: str) -> int | None:
        """Moves thought about before this room's (None: the room is not waiting here)."""
        for place, ticket in enumerate(self._waiting):
            if ticket.room_id == room_id:
                return self._running + place
        return None

    async def run(self, room_id: str, work: Callable[..., T], *args: object) -> T:
        """`work(*args)` for the room, once the moves queued before it have started."""
        ticket = _Ticket(room_id)
        self._waiting.append(ticket)
        self._start_next()
        if not ticket.started:
            self._publish([room_id])
        try:
            await ticket.go.wait()
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor(), work, *args)
        except BrokenProcessPool:
            # A bot process died (killed, out of memory): start afresh on the next move.
            self._pool = None
            raise
        finally:
            if ticket.started:
                self._running -= 1
            else:
                self._waiting.remove(ticket)
                _PLACES.pop(room_id, None)
            self._start_next()
            self._publish([waiting.room_id for waiting in self._waiting])

    async def warm_up(self, work: Callable[[], T]) -> list[T]:
        """Start the lane's workers now and run `work` once in each (in a process lane, one call
        per bot process: the pool starts a process for each call while none is idle)."""
        loop = asyncio.get_running_loop()
        if not self._processes:
            return [await loop.run_in_executor(None, work)]
        executor = self._executor()
        return list(
            await asyncio.gather(
                *(loop.run_in_executor(executor, work) for _ in range(self.workers))
            )
        )

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    def _start_next(self) -> None:
        while self._waiting and self._running < self.workers:
            ticket = self._waiting.popleft()
            ticket.started = True
            self._running += 1
            _PLACES.pop(ticket.room_id, None)
            ticket.go.set()

    def _publish(self, rooms: list[str]) -> None:
        for room_id in rooms:
            ahead = self.ahead(room_id)
            if ahead is None:
                _PLACES.pop(room_id, None)
            else:
                _PLACES[room_id] = ahead
        if rooms:
            self._on_moved(rooms)

    def _executor(self) -> Executor | None:
        if not self._processes:
            return None
        if self._pool is None:
            self._pool = spawn_pool(self.workers)
        return self._pool


class Lanes:
    """The three lanes, by strength."""

    def __init__(
        self, on_moved: Callable[[list[str]], None], *, strong_workers: int = STRONG_WORKERS
    ) -> None:
        self.by_level = {
            "easy": Lane(workers=UNBOUNDED, processes=False, on_moved=on_moved),
            "normal": Lane(workers=1, processes=True, on_moved=on_moved),
            "strong": Lane(workers=strong_workers, processes=True, on_moved=on_moved),
        }

    async def run(self, level: str, room_id: str, work: Callable[..., T], *args: object) -> T:
        return await self.by_level[level].run(room_id, work, *args)

    async def warm_up(self, work: Callable[[str], T]) -> dict[str, list[T]]:
        """Run `work(level)` once in every worker of every lane, the quick lanes first: the
        results by level (tests use them to see which process answered). A lane whose warm-up
        fails is left to start its workers at its first move."""
        results: dict[str, list[T]] = {}
        for level, lane in self.by_level.items():
            try:
                results[level] = await lane.warm_up(partial(work, level))
            except Exception:
                log.exception("warming the computer's %s lane failed", level)
        return results

    async def close(self) -> None:
        await asyncio.gather(*(lane.close() for lane in self.by_level.values()))
