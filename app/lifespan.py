"""The server process's life: what starts with it and stops with it.

On start: the database, this process's registration (presence counts the sockets of live
processes only), the room hub with its painters, the computer player (which resumes the rooms left
on the computer's turn), the heartbeat, the sweep for rooms past their lifetime
(`app.services.lifetime`) and, on PostgreSQL, the listener for the other processes' room
notifications. On stop, the same in reverse.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from sqlalchemy.orm import Session, sessionmaker

from app.computer.player import ComputerHub, ComputerPlayer
from app.db import close_engine, engine_for, make_sessionmaker
from app.live.hub import run_periodically
from app.live.painters import BoardPainter, ChatPainter
from app.reads.roomview import Viewer
from app.services import lifetime, presence, seats
from app.services.presence import RecentlySeen
from app.settings import Settings
from app.ui.games import draw_board

Sessions = sessionmaker[Session]


def lifespan_for(settings: Settings) -> Callable[[FastAPI], Any]:
    """The FastAPI lifespan of a server process on `settings`."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = engine_for(settings)
        sessions = make_sessionmaker(engine)
        process_id = secrets.token_hex(8)
        hub, computer = _start_hub(app, settings, sessions, process_id)
        await asyncio.to_thread(_register, sessions, process_id)
        tasks = _periodic_tasks(settings, sessions, hub, process_id)
        await computer.resume()
        if settings.computer_warm_up:
            computer.warm_up()
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await computer.close()
            await asyncio.to_thread(_unregister, sessions, process_id)
            await asyncio.to_thread(close_engine, engine)

    return lifespan


def _start_hub(
    app: FastAPI, settings: Settings, sessions: Sessions, process_id: str
) -> tuple[ComputerHub, ComputerPlayer]:
    """The room hub with its painters and the computer player, kept on `app.state`."""
    painter = BoardPainter(
        sessions,
        draw_board,
        presence_timeout=settings.presence_timeout,
        absent_after=settings.absent_after,
    )
    hub = ComputerHub(asyncio.get_running_loop(), painter, at_once=painter.at_once)
    hub.make_chats = ChatPainter(sessions)

    def lost_viewers(room_id: str, viewers: frozenset[Viewer]) -> set[Viewer]:
        with sessions() as session:
            return seats.lost_viewers(session, room_id=room_id, viewers=viewers)

    hub.holders.check = lost_viewers
    computer = ComputerPlayer(sessions, hub, redraw=hub.redraw)
    hub.computer = computer
    app.state.settings = settings
    app.state.sessionmaker = sessions
    app.state.hub = hub
    app.state.process_id = process_id
    app.state.computer = computer
    # A seat's requests count as presence, written at most once per a third of the absence time.
    app.state.recently_seen = RecentlySeen(every=min(10.0, settings.absent_after / 3))
    return hub, computer


def _periodic_tasks(
    settings: Settings, sessions: Sessions, hub: ComputerHub, process_id: str
) -> list[asyncio.Task[None]]:
    """The heartbeat, the lifetime sweep and, on PostgreSQL, the notification listener."""
    beat_interval = settings.presence_timeout / 3

    def beat() -> None:
        with sessions() as session:
            presence.heartbeat(session, process_id=process_id)
            # A process that died cannot say so: redraw the rooms whose presence it changed.
            silent = presence.rooms_gone_silent(
                session, timeout=settings.presence_timeout, window=1.5 * beat_interval
            )
            # A player away long enough: the other may now let the computer play or claim.
            silent += presence.seats_gone_absent(
                session, absent_after=settings.absent_after, window=1.5 * beat_interval
            )
        for room_id in silent:
            hub.room_changed(room_id, None)

    def sweep() -> None:
        with sessions() as session:
            lifetime.remove_expired_rooms(
                session,
                unstarted_after=timedelta(days=settings.unstarted_room_days),
                finished_after=timedelta(days=settings.finished_room_days),
            )

    tasks = [
        asyncio.create_task(run_periodically(beat_interval, beat)),
        asyncio.create_task(run_periodically(settings.room_sweep_interval, sweep)),
    ]
    if settings.is_postgres:
        tasks.append(asyncio.create_task(hub.listen_postgres(settings.resolved_database_url)))
    return tasks


def _register(sessions: Sessions, process_id: str) -> None:
    with sessions() as session:
        presence.register_process(session, process_id=process_id)


def _unregister(sessions: Sessions, process_id: str) -> list[str]:
    with sessions() as session:
        return presence.unregister_process(session, process_id=process_id)
