"""Storing the analyses of games (table `analyses`): asked for once, then written by the job.

The first request adds a row ("running", 0 of N turns); the job runner (`app.computer.analysis`)
writes its progress after each turn and finally the turn reviews ("done"). What is stored is
read back by `app.reads.analyses`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.models import Analysis, Room
from app.reads import catalogs
from app.reads.analyses import STALE_AFTER, AnalysisState, state_of
from app.reads.gamelog import canonical_log
from app.services.errors import AnalysesBusy, NotAnalysable, RoomNotFound, TooManyAnalyses
from app.services.lock import now
from engine.analysis import TurnReview, turns_of

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
    to wait, 0 when admitted) lets it (`TooManyAnalyses` otherwise).
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
        if _running(session) >= MAX_RUNNING:
            raise AnalysesBusy()
        if admit is not None and (wait := admit()) > 0:
            raise TooManyAnalyses(params={"retry_after": math.ceil(wait)})
        total = len(turns_of(canonical_log(session, room_id), catalogs.of_room(room)))
        session.add(
            Analysis(
                room_id=room_id,
                version=room.version,
                status="running",
                done=0,
                total=total,
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
        return AnalysisState("running", 0, total, ())
    finally:
        session.rollback()


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


def _running(session: Session) -> int:
    """The analyses under way: running, and heard from within `STALE_AFTER`."""
    fresh = now() - STALE_AFTER
    count = session.scalar(
        select(func.count())
        .select_from(Analysis)
        .where(Analysis.status == "running", Analysis.updated_at > fresh)
    )
    return int(count or 0)
