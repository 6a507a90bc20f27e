"""`/healthz`: the process is up and its database answers."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from app.deps import SessionDep

router = APIRouter()


@router.get("/healthz", tags=["health"])
def healthz(session: SessionDep) -> JSONResponse:
    """200 `{"status": "ok"}` when the database answers, else 503."""
    try:
        session.execute(text("SELECT 1"))
    except SQLAlchemyError:
        return JSONResponse({"status": "database unavailable"}, status_code=503)
    finally:
        session.rollback()
    return JSONResponse({"status": "ok"})
