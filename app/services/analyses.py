"""Storing the analyses of games (table `analyses`): asked for once, then written by the job.

The first request adds a row ("running", 0 of N turns); the job runner (`app.computer.analysis`)
writes its progress after each turn and finally the turn reviews ("done"). What is stored is
read back by `app.reads.analyses`.
"""

from __future__ import annotations

import json

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.models import Analysis, Room
from app.reads import catalogs
from app.reads.analyses import AnalysisState, state_of
from app.reads.gamelog import canonical_log
from app.services.errors import NotAnalysable, RoomNotFound
from app.services.lock import now
from engine.analysis import TurnReview, turns_of


def request_analysis(session: Session, *, room_id: str) -> AnalysisState:
    """Ask for the room's analysis: adds it as "running" unless it was asked for before.

    Only a game that can no longer change is analysed: a finished game or an imported record
    (`NotAnalysable` otherwise).
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
