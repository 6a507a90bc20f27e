"""Reading the stored analyses of games (table `analyses`; written by `app.services.analyses`).

A game may be analysed once it can no longer change: a finished game, or an imported record. An
analysis is "running" (`done` of `total` turns weighed) until it is "done"; one that has not moved
on for `STALE_AFTER` lost its process and may be taken up again. Every function ends its own
transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Analysis, Room
from app.reads import catalogs
from app.reads.gamelog import canonical_log
from engine import Catalog
from engine.analysis import TurnReview

STALE_AFTER = timedelta(seconds=60)
"""A running analysis that has not moved on for this long lost its process: it may be restarted."""


@dataclass(frozen=True)
class AnalysisState:
    status: str  # "running" | "done"
    done: int
    total: int
    reviews: tuple[TurnReview, ...]
    stale: bool = False


def state_of(row: Analysis | None) -> AnalysisState | None:
    """What a stored analysis row holds (None: no row)."""
    if row is None:
        return None
    reviews = tuple(TurnReview.from_json(r) for r in json.loads(row.result or "[]"))
    updated = row.updated_at if row.updated_at.tzinfo else row.updated_at.replace(tzinfo=UTC)
    stale = row.status == "running" and datetime.now(UTC) - updated > STALE_AFTER
    return AnalysisState(row.status, row.done, row.total, reviews, stale)


def analysis_of(session: Session, *, room_id: str) -> AnalysisState | None:
    """The room's analysis as far as it has gone (None: never asked for)."""
    try:
        return state_of(session.get(Analysis, room_id))
    finally:
        session.rollback()


@dataclass(frozen=True)
class Work:
    """A running analysis: the room's game, its setup (JSON) and Inland Port catalog (None for
    another game), the moves to analyse and the turns already weighed."""

    game: str
    setup: dict[str, Any]
    catalog: Catalog | None
    moves: list[str]
    reviews: list[TurnReview]


def work_left(session: Session, *, room_id: str) -> Work | None:
    """A running analysis's work (None: not running)."""
    try:
        row = session.get(Analysis, room_id)
        state = state_of(row)
        if row is None or state is None or state.status != "running":
            return None
        room = session.get(Room, room_id)
        if room is None:
            return None
        return Work(
            room.game,
            json.loads(room.setup or "{}"),
            catalogs.of_game_room(room),
            canonical_log(session, room_id)[: row.version],
            list(state.reviews),
        )
    finally:
        session.rollback()


def running_analyses(session: Session) -> list[str]:
    """The rooms whose analysis was left running (by a process that stopped)."""
    try:
        return list(session.scalars(select(Analysis.room_id).where(Analysis.status == "running")))
    finally:
        session.rollback()
