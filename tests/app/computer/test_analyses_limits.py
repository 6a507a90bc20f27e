"""Analyses per address: a few new ones an hour from one address (asking again for one under
way or done is free)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert, select
from support.rooms import import_record

from app.main import create_app
from app.models import Analysis
from app.services import analyses as analyses_service
from app.services.lock import now
from app.settings import Settings
from engine.cli import random_game
from engine.record import GameRecord, record_json


@pytest.fixture
def limited(settings: Settings) -> Iterator[TestClient]:
    strict = settings.model_copy(update={"analyses_per_hour": 1, "analysis_burst": 1})
    with TestClient(create_app(strict)) as test_client:
        yield test_client


def _imported(client: TestClient, moves: list[dict[str, object]]) -> str:
    return import_record(client, record_json(GameRecord.of(moves)))[0]  # type: ignore[arg-type]


def test_new_analyses_from_one_address_are_limited(limited: TestClient) -> None:
    moves = random_game(random.Random(7))
    first, second = _imported(limited, moves[:4]), _imported(limited, moves[:5])
    assert limited.post(f"/rooms/{first}/analysis").status_code == 200
    assert limited.post(f"/rooms/{first}/analysis").status_code == 200  # the same one: free
    refused = limited.post(f"/rooms/{second}/analysis", headers={"Accept-Language": "cs"})
    assert refused.status_code == 429 and "analysis-progress" not in refused.text
    assert "příliš mnoho rozborů" in refused.text
    assert "analysis-progress" not in limited.get(f"/rooms/{second}/analysis").text


def test_an_identical_record_reuses_the_analysis_done(
    client: TestClient, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same moves with the same numbers are weighed once: a second room with them gets the
    first one's analysis at once, even while no analysis could start."""
    moves = random_game(random.Random(7))[:4]
    first, second, other = (
        _imported(client, moves),
        _imported(client, moves),
        _imported(client, moves[:3] + moves[4:5]),
    )
    db = create_engine(database_url)
    try:
        with db.begin() as connection:  # the first game's analysis, done
            connection.execute(
                insert(Analysis).values(
                    room_id=first,
                    version=4,
                    status="done",
                    done=0,
                    total=0,
                    result="[]",
                    updated_at=now(),
                )
            )
        monkeypatch.setattr(analyses_service, "MAX_RUNNING", 0)
        monkeypatch.setattr(analyses_service, "turns_of", lambda log, catalog: [])
        assert client.post(f"/rooms/{second}/analysis").status_code == 200
        assert client.post(f"/rooms/{other}/analysis").status_code == 503  # other moves
        with db.connect() as connection:
            copied = connection.execute(
                select(Analysis.status, Analysis.result).where(Analysis.room_id == second)
            ).one()
        assert tuple(copied) == ("done", "[]")
    finally:
        db.dispose()
