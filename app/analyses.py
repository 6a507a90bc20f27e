"""The stored analyses of games (table `analyses`): asked for once, computed once, then kept.

A game may be analysed once it can no longer change: a finished game, or an imported record. The
first request adds a row ("running", 0 of N turns); the job runner (`app.analysis_jobs`) writes its
progress and finally the turn reviews ("done"). Every function ends its own transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app import services
from app.models import Analysis, Move, Room
from engine.analysis import TurnReview, turns_of

STALE_AFTER = timedelta(seconds=60)
"""A running analysis that has not moved on for this long lost its process: it may be restarted."""


class NotAnalysable(services.ServiceError):
    """The game can still change: only finished games and imported records are analysed."""


@dataclass(frozen=True)
class AnalysisState:
    status: str  # "running" | "done"
    done: int
    total: int
    reviews: tuple[TurnReview, ...]
    stale: bool = False


def _moves(session: Session, room_id: str) -> list[str]:
    return list(
        session.scalars(select(Move.move).where(Move.room_id == room_id).order_by(Move.seq))
    )


def request_analysis(session: Session, *, room_id: str) -> AnalysisState:
    """Ask for the room's analysis: adds it as "running" unless it was asked for before."""
    try:
        room = session.get(Room, room_id)
        if room is None:
            raise services.RoomNotFound(room_id)
        if not (room.finished or room.origin == "import"):
            raise NotAnalysable("Only a finished game can be analysed.")
        existing = _state(session.get(Analysis, room_id))
        if existing is not None:
            return existing
        total = len(turns_of(_moves(session, room_id)))
        session.add(
            Analysis(
                room_id=room_id,
                version=room.version,
                status="running",
                done=0,
                total=total,
                updated_at=datetime.now(UTC),
            )
        )
        try:
            session.commit()
        except IntegrityError:  # asked for at the same moment elsewhere
            session.rollback()
            found = _state(session.get(Analysis, room_id))
            assert found is not None
            return found
        return AnalysisState("running", 0, total, ())
    finally:
        session.rollback()


def analysis_of(session: Session, *, room_id: str) -> AnalysisState | None:
    """The room's analysis as far as it has gone (None: never asked for)."""
    try:
        return _state(session.get(Analysis, room_id))
    finally:
        session.rollback()


def _state(row: Analysis | None) -> AnalysisState | None:
    if row is None:
        return None
    reviews = tuple(TurnReview.from_json(r) for r in json.loads(row.result or "[]"))
    updated = row.updated_at if row.updated_at.tzinfo else row.updated_at.replace(tzinfo=UTC)
    stale = row.status == "running" and datetime.now(UTC) - updated > STALE_AFTER
    return AnalysisState(row.status, row.done, row.total, reviews, stale)


def work_left(session: Session, *, room_id: str) -> tuple[list[str], list[TurnReview]] | None:
    """A running analysis: the moves to analyse and the turns already weighed (None: not running)."""
    try:
        row = session.get(Analysis, room_id)
        state = _state(row)
        if row is None or state is None or state.status != "running":
            return None
        return _moves(session, room_id)[: row.version], list(state.reviews)
    finally:
        session.rollback()


def running_analyses(session: Session) -> list[str]:
    """The rooms whose analysis was left running (by a process that stopped)."""
    try:
        return list(session.scalars(select(Analysis.room_id).where(Analysis.status == "running")))
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
        row.updated_at = datetime.now(UTC)
        session.commit()
    finally:
        session.rollback()
