"""CPU per move of the page's form post against the JSON API's, in one process.

Plays seeded random games through FastAPI's test client on a fresh SQLite file, each move once
as the room's page posts it (``POST /rooms/{id}/moves``: the room's cookie, a form, gzip
accepted) or as the API (``POST /api/rooms/{id}/moves``, JSON), the two ways alternating game by
game, and times each call in process CPU (the request, the route in its worker thread, the
answer and its gzip; the test client's own share is the same both ways). No socket is open, so
no board is drawn for sockets: the figures are what the post itself costs.

    .venv/bin/python bench/move_post.py                # 4 games each way
    .venv/bin/python bench/move_post.py --games 6 --json
    .venv/bin/python bench/move_post.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/empty
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastapi.testclient import TestClient

import engine
from app.edge.cookies import cookie_name
from app.main import create_app
from app.migrate import upgrade
from app.settings import Settings
from engine.catalogs import built_in_registry


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play(client: TestClient, via: str, rng: random.Random, moves: int) -> list[float]:
    """One game of up to `moves` moves posted `via` "page" or "api": the ms of CPU per post."""
    created = client.post("/api/rooms", json={"host_seat": 0}).json()
    room = created["room"]
    invite = created["invite_link"].rsplit("/", 1)[1]
    tokens = (created["token"], client.post(f"/api/invites/{invite}").json()["token"])
    catalog = client.get(f"/api/rooms/{room}/moves", headers=bearer(tokens[0])).json()["catalog"]
    state = engine.new_game(built_in_registry().get(catalog))
    times: list[float] = []
    for version in range(moves):
        if engine.is_finished(state) or state.to_move is None:
            break
        seat = state.to_move
        move = rng.choice(list(engine.legal_moves(state)))
        move_id = uuid.uuid4().hex
        started = time.process_time()
        if via == "page":
            client.cookies.set(cookie_name(room), tokens[seat])
            answer = client.post(
                f"/rooms/{room}/moves",
                data={"move": move.canonical, "version": str(version), "client_move_id": move_id},
                headers={
                    "Accept-Encoding": "gzip",
                    "HX-Request": "true",
                    "Origin": "http://testserver",
                },
            )
        else:
            answer = client.post(
                f"/api/rooms/{room}/moves",
                json={"move": move.to_json(), "version": version, "client_move_id": move_id},
                headers=bearer(tokens[seat]),
            )
        times.append(1000 * (time.process_time() - started))
        if answer.status_code != 200:
            raise RuntimeError(f"{via} move {version}: {answer.status_code} {answer.text}")
        state = engine.apply(state, move)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games each way")
    parser.add_argument("--moves", type=int, default=60, help="moves per game at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the result as one JSON line")
    parser.add_argument(
        "--database-url", help="an empty database to play on (default: a fresh SQLite file)"
    )
    args = parser.parse_args()
    figures: dict[str, list[float]] = {"page": [], "api": []}
    with tempfile.TemporaryDirectory(prefix="inland-move-post-") as data_dir:
        url = args.database_url or f"sqlite:///{Path(data_dir) / 'bench.sqlite3'}"
        upgrade(url)
        settings = Settings(
            database_url=url, data_dir=Path(data_dir), rooms_per_minute=0, computer_warm_up=False
        )
        with TestClient(create_app(settings)) as client:
            play(client, "api", random.Random(0), 10)  # warm up: imports, caches, templates
            play(client, "page", random.Random(0), 10)
            for game in range(args.games):
                for via in ("page", "api") if game % 2 == 0 else ("api", "page"):
                    rng = random.Random(args.seed + game)
                    figures[via].extend(play(client, via, rng, args.moves))
    result = {
        via: {
            "moves": len(times),
            "cpu_ms_median": round(statistics.median(times), 2),
            "cpu_ms_mean": round(statistics.fmean(times), 2),
        }
        for via, times in figures.items()
    }
    if args.json:
        print(json.dumps(result))
    else:
        for via, values in result.items():
            print(f"{via:>5}: {values}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
