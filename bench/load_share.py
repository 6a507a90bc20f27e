"""One load-client process's share of a load run (bench/load.py, bench/load_lehavre.py): its
rooms, their sockets and players.

The run starts one such process per ``--rooms-per-client`` rooms, so that at thousands of
rooms no single event loop holds every game and socket and its own delays count as the
servers'. The game's client module (bench/load_client.py for Inland Port,
bench/load_lehavre_client.py for Le Havre) opens a room (``create_room``), gives its sockets'
watchers (``watchers``) and its players (``player``), and collects what they measure
(``Results``). The processes keep in step with the run through a pipe, one word at a time:

    share -> load.py   "rooms"      its rooms are open
    load.py -> share   "connect"
    share -> load.py   "connected"  every socket holds its first board; its collector is off
    load.py -> share   "play"
    share -> load.py   "played"     its players stopped (the measured window ends)
    load.py -> share   "check"
    share -> load.py   "results"    with what it measured, its acknowledged moves checked

A share that fails sends "failed" with the traceback instead.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import random
import time
import traceback
from functools import partial
from multiprocessing.connection import Connection
from types import ModuleType
from typing import Any

import httpx
from load_client import (
    client_cpu_seconds,
    collector_paused,
    count_lost,
    wait_connected,
    with_retries,
)
from load_servers import Server


def share_main(
    pipe: Connection,
    args: argparse.Namespace,
    urls: list[str],
    indices: list[int],
    client: str = "load_client",
) -> None:
    """The client process's entry: rooms `indices` (of the whole run) on the servers `urls`,
    played by the module `client`."""
    try:
        game = importlib.import_module(client)
        asyncio.run(share_run(pipe, args, [Server(url=url) for url in urls], indices, game))
    except BaseException:
        pipe.send(("failed", traceback.format_exc()))
        raise


async def told(pipe: Connection, word: str) -> None:
    """Wait for bench/load.py's `word`."""
    heard = await asyncio.to_thread(pipe.recv)
    if heard != word:
        raise RuntimeError(f"expected {word!r} from bench/load.py, heard {heard!r}")


async def open_rooms(
    game: ModuleType,
    client: httpx.AsyncClient,
    servers: list[Server],
    indices: list[int],
    spread: str,
) -> list[Any]:
    rooms: list[Any] = []
    for start in range(0, len(indices), 50):
        batch = indices[start : start + 50]
        made = partial(game.create_room, client, servers, spread=spread)
        rooms.extend(await asyncio.gather(*(with_retries(partial(made, i)) for i in batch)))
    return rooms


async def share_run(
    pipe: Connection,
    args: argparse.Namespace,
    servers: list[Server],
    indices: list[int],
    game: ModuleType,
) -> None:
    limits = httpx.Limits(max_connections=args.http_connections, max_keepalive_connections=200)
    # The players' JSON calls ask for no compression: the figures are the server's own work.
    headers = {"Accept-Encoding": "identity"}
    async with httpx.AsyncClient(timeout=60, limits=limits, headers=headers) as client:
        rooms = await open_rooms(game, client, servers, indices, args.spread)
        pipe.send(("rooms", len(rooms)))
        await told(pipe, "connect")
        stop = asyncio.Event()
        watchers = [
            asyncio.create_task(watcher) for room in rooms for watcher in game.watchers(room, stop)
        ]
        # Thousands of first boards drawn at once take a busy server minutes.
        await wait_connected(rooms, timeout=max(180.0, 0.3 * len(rooms)))
        with collector_paused():
            pipe.send(("connected", None))
            await told(pipe, "play")
            results, cpu_before, started = game.Results(), client_cpu_seconds(), time.monotonic()
            players = [
                asyncio.create_task(
                    game.player(room, args, stop, results, random.Random(f"{args.seed} {index}"))
                )
                for index, room in zip(indices, rooms, strict=True)
            ]
            await asyncio.sleep(args.duration)
            stop.set()
            await asyncio.gather(*players, return_exceptions=True)
            client_cpu, elapsed = client_cpu_seconds() - cpu_before, time.monotonic() - started
        pipe.send(("played", None))
        for room in rooms:
            for link in room.links.values():
                link.close()
        for task in watchers:
            task.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        await told(pipe, "check")
        lost, mismatched = await count_lost(client, rooms)
    measured: dict[str, Any] = {
        "latencies_ms": results.latencies_ms,
        "errors": results.errors,
        "moves": results.moves,
        "lost": lost,
        "mismatched": mismatched,
        "cpu_s": client_cpu,
        "elapsed_s": elapsed,
        **results.extra(),
    }
    pipe.send(("results", measured))
