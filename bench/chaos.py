"""Chaos test: kill the server with SIGKILL again and again while scripted players finish games.

Scripted players play whole games through the JSON API. Every move is retried, with the same
`client_move_id`, until the server answers, so a move whose answer was lost in a kill is
acknowledged by the retry. Meanwhile the server (`python -m app`) is killed with SIGKILL at
random moments and restarted on the same database. At the end every game's move log must hold
exactly the acknowledged moves, in order: zero acknowledged moves lost, zero moves applied twice,
and every game finished.

    .venv/bin/python bench/chaos.py --kills 50 --games 4              # embedded SQLite
    .venv/bin/python bench/chaos.py --kills 50 --games 4 --database-url postgresql+psycopg://...

Exit status 0 when all checks hold; the last line is a JSON report.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from appserver import AppServer


@dataclass
class Game:
    """One room played by a script that holds both seat tokens."""

    room: str
    tokens: dict[int, str]
    spectator: str
    acknowledged: dict[int, dict[str, Any]] = field(default_factory=dict)
    finished: bool = False


class Unavailable(Exception):
    """The server did not answer (it is being killed or restarted)."""


_clients = threading.local()


def call(method: str, url: str, *, token: str | None = None, body: Any = None) -> httpx.Response:
    """One request on this thread's keep-alive client."""
    client = getattr(_clients, "client", None)
    if client is None:
        client = _clients.client = httpx.Client(timeout=5.0)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        return client.request(method, url, json=body, headers=headers)
    except httpx.TransportError as exc:
        raise Unavailable(str(exc)) from exc


def until_answered(method: str, url: str, **kwargs: Any) -> httpx.Response:
    """Retry through kills and restarts until the server answers (a 5xx counts as no answer)."""
    while True:
        try:
            response = call(method, url, **kwargs)
        except Unavailable:
            time.sleep(0.05)
            continue
        if response.status_code < 500:
            return response
        time.sleep(0.05)


def new_game(base: str) -> Game | None:
    """A room with both seats taken by this script (None when a kill ate the guest's token)."""
    created = until_answered("POST", f"{base}/api/rooms", body={"host_seat": 0}).json()
    invite = created["invite_link"].rsplit("/", 1)[1]
    claimed = until_answered("POST", f"{base}/api/invites/{invite}")
    if claimed.status_code == 409:  # claimed just before a kill, answer lost: nobody plays it
        return None
    guest = claimed.json()
    return Game(
        room=created["room"],
        tokens={created["seat"]: created["token"], guest["seat"]: guest["token"]},
        spectator=created["spectator_link"].rsplit("/", 1)[1],
    )


def play(base: str, game: Game, rng: random.Random) -> None:
    """Play the game to its end; every move retried with its own client move id until answered."""
    while True:
        state = until_answered("GET", f"{base}/api/rooms/{game.room}", token=game.spectator).json()
        if state["finished"]:
            game.finished = True
            return
        version, seat = state["version"], state["summary"]["to_move"]
        legal = until_answered(
            "GET", f"{base}/api/rooms/{game.room}/legal", token=game.tokens[seat]
        ).json()
        if legal["version"] != version:
            continue
        actions = [m for m in legal["moves"] if m["type"] != "sell"] or legal["moves"]
        move = rng.choice(actions)
        body = {"move": move, "version": version, "client_move_id": f"{game.room}-{version}"}
        response = until_answered(
            "POST", f"{base}/api/rooms/{game.room}/moves", token=game.tokens[seat], body=body
        )
        if response.status_code != 200:
            raise RuntimeError(f"move refused: {response.status_code} {response.text}")
        game.acknowledged[version] = move


def check(base: str, games: list[Game]) -> dict[str, int]:
    """Compare each game's move log with what the players were told."""
    lost = doubled = unfinished = 0
    for game in games:
        log = until_answered("GET", f"{base}/api/rooms/{game.room}/moves", token=game.spectator)
        moves = log.json()["moves"]
        stored = {m["seq"]: m["move"] for m in moves}
        lost += sum(1 for seq, move in game.acknowledged.items() if stored.get(seq) != move)
        doubled += len(moves) - len(game.acknowledged)
        unfinished += not game.finished
    return {"lost": lost, "doubled": doubled, "unfinished": unfinished}


def run(
    database_url: str, kills: int, games: int, players: int, seed: int, pause: tuple[float, float]
) -> dict[str, Any]:
    """Players start games until `games` are finished and `kills` kills were done."""
    rng = random.Random(seed)
    server = AppServer(Path(tempfile.mkdtemp(prefix="inland-port-")), database_url=database_url)
    server.start()
    enough = threading.Event()
    lock = threading.Lock()
    played: list[Game] = []
    failures: list[str] = []
    started = time.monotonic()

    def player(index: int) -> None:
        moves_rng = random.Random(seed * 1000 + index)
        try:
            while not enough.is_set():
                game = new_game(server.url)
                if game is None:
                    continue
                with lock:
                    played.append(game)
                play(server.url, game, moves_rng)
        except Exception as exc:
            failures.append(f"player {index}: {exc!r}")
        finally:
            client = getattr(_clients, "client", None)
            if client is not None:
                client.close()

    threads = [threading.Thread(target=player, args=(i,), daemon=True) for i in range(players)]
    done = 0
    try:
        for thread in threads:
            thread.start()
        while any(t.is_alive() for t in threads):
            finished = sum(g.finished for g in played)
            if done >= kills and finished >= games:
                enough.set()
                for thread in threads:
                    thread.join(timeout=600)
                break
            time.sleep(rng.uniform(*pause))
            if done < kills:
                server.kill()
                done += 1
                server.start()
        report = check(server.url, played)
    finally:
        enough.set()
        server.stop()
    return {
        "kills": done,
        "games_finished": sum(g.finished for g in played),
        "acknowledged_moves": sum(len(g.acknowledged) for g in played),
        **report,
        "failures": failures,
        "seconds": round(time.monotonic() - started, 1),
        "backend": database_url.split(":", 1)[0].split("+")[0],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--games", type=int, default=4, help="finished games needed at least")
    parser.add_argument("--players", type=int, default=3, help="scripts playing at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-pause", type=float, default=0.2)
    parser.add_argument("--max-pause", type=float, default=1.0)
    parser.add_argument(
        "--database-url", help="default: a fresh SQLite file in a temporary directory"
    )
    args = parser.parse_args()
    url = args.database_url
    if not url:
        url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='chaos-')) / 'chaos.sqlite3'}"
    pause = (args.min_pause, args.max_pause)
    report = run(url, args.kills, args.games, args.players, args.seed, pause)
    print(json.dumps(report))
    ok = report["lost"] == report["doubled"] == report["unfinished"] == 0 and not report["failures"]
    return 0 if ok and report["kills"] >= args.kills else 1


if __name__ == "__main__":
    sys.exit(main())
