"""Running a test's coroutine, whatever else the test session has running."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(coroutine)` in a thread of its own.

    Once a browser test ran, Playwright's synchronous API keeps an event loop running in the main
    thread for the rest of the session, and asyncio refuses to start another one there; a fresh
    thread has none, so these tests pass in any order."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
