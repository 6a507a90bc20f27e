"""Storing the analyses of games (table `analyses`): asked for once, then written by the job.

The first request adds a row ("running", 0 of N turns); the job runner (`app.computer.analysis`)
writes its progress after each turn and finally the turn reviews ("done"). What is stored is
read back by `app.reads.analyses`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.models import Analysis, Room
from app.reads import catalogs
from app.reads.analyses import STALE_AFTER, AnalysisState, state_of
from app.reads.gamelog import canonical_log
from app.services.errors import AnalysesBusy, NotAnalysable, RoomNotFound, TooManyAnalyses
from app.services.lock import now
from engine import games
from engine.analysis import TurnReview

MAX_RUNNING = 4
"""Analyses under way at once on this server (each takes about a minute of a core): one more is
refused with "busy, try later" rather than queued for hours."""


def request_analysis(
    session: Session, *, room_id: str, admit: Callable[[], float] | None = None
) -> AnalysisState:
    """Ask for the room's analysis: adds it as "running" unless it was asked for before.

    Only a game that can no longer change is analysed: a finished game or an imported record
    (`NotAnalysable` otherwise); only while fewer than `MAX_RUNNING` are under way
    (`AnalysesBusy` otherwise); and a new one only when `admit` (the asker's limit: the seconds
    to wait, 0 when admitted) lets it (`TooManyAnalyses` otherwise). The same moves played
    with the same numbers are weighed once: a room whose record another room's finished
    analysis covers gets a copy of it at once, counted against no limit.
    """
    try:
        room = session.get(Room, room_id)
        if room is None:
            raise RoomNotFound(room_id)
        if not (room.finished or room.origin == "import"):
            raise NotAnalysable()
        existing = state_of(session.get(Analysis, room_id))
        if existing is not None:
            return existing
        log = canonical_log(session, room_id)
        total = len(turns_of(log, room))
        done = _done_for_same_record(session, room, log, total)
        if done is None:
            if _running(session) >= MAX_RUNNING:
                raise AnalysesBusy()
            if admit is not None and (wait := admit()) > 0:
                raise TooManyAnalyses(params={"retry_after": math.ceil(wait)})
        session.add(
            Analysis(
                room_id=room_id,
                version=room.version,
                status="running" if done is None else "done",
                done=0 if done is None else done.done,
                total=total,
                result=None if done is None else done.result,
                updated_at=now(),
            )
        )
        try:
            session.commit()
        except IntegrityError:  # asked for at the same moment elsewhere
            session.rollback()
            found = state_of(session.get(Analysis, room_id))
            assert found is not None
            return found
        if done is not None:
            return state_of(session.get(Analysis, room_id)) or AnalysisState("done", 0, total, ())
        return AnalysisState("running", 0, total, ())
    finally:
        session.rollback()


def turns_of(log: list[str], room: Room) -> list[Any]:
    """The turns of the room's game its analysis weighs (`engine.games.Game.analysis_turns`)."""
    setup = json.loads(room.setup or "{}")
    return games.game(room.game).analysis_turns(setup, log, catalogs.of_game_room(room))


def record_progress(
    session: Session, *, room_id: str, reviews: list[TurnReview], finished: bool
) -> None:
    """Store the turns weighed so far; with `finished` the analysis is done."""
    try:
        row = session.get(Analysis, room_id)
        if row is None or row.status == "done":
            return
        row.done = len(reviews)
        row.result = json.dumps([r.to_json() for r in reviews], separators=(",", ":"))
        row.status = "done" if finished else "running"
        row.updated_at = now()
        session.commit()
    finally:
        session.rollback()


#: How many finished analyses of the same length are compared with a record asked for.
SAME_RECORD_CANDIDATES = 20


def _done_for_same_record(
    session: Session, room: Room, log: list[str], total: int
) -> Analysis | None:
    """A finished analysis of another room with the same catalog, the same setup and the same
    moves in force."""
    candidates = session.scalars(
        select(Analysis)
        .join(Room, Room.id == Analysis.room_id)
        .where(
            Analysis.status == "done",
            Analysis.total == total,
            Analysis.room_id != room.id,
            Room.catalog_id == room.catalog_id,
            Room.catalog_sha256 == room.catalog_sha256,
            Room.setup == room.setup,
        )
        .order_by(Analysis.updated_at.desc())
        .limit(SAME_RECORD_CANDIDATES)
    ).all()
    for candidate in candidates:
        if canonical_log(session, candidate.room_id) == log:
            return candidate
    return None


def _running(session: Session) -> int:
    """The analyses under way: running, and heard from within `STALE_AFTER`."""
    fresh = now() - STALE_AFTER
    count = session.scalar(
        select(func.count())
        .select_from(Analysis)
        .where(Analysis.status == "running", Analysis.updated_at > fresh)
    )
    return int(count or 0)
