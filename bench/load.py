"""Load test: many rooms, two players and a spectator each, moving at a set pace over real sockets.

For every move it measures the time from sending ``POST /api/rooms/{id}/moves`` (or, with
``--via page``, the page's form post ``POST /rooms/{id}/moves`` as a browser sends it: the room's
cookie, a form body, gzip accepted) until **all three** WebSockets of the room (both players and
the spectator) hold a board with the new version.

The players choose their moves as a browser does: from what they already know (a browser gets
the legal moves inside the board; this client follows each room's game with the rules engine).
So each move is one HTTP request. ``--fetch-legal`` instead fetches the room and its legal moves
over HTTP before every move (three requests per move). At the end
it compares every acknowledged move with the room's move log (a move acknowledged but missing is
*lost*; must be 0) and reports latency percentiles, moves per second, errors, the server
processes' CPU time and peak memory, on PostgreSQL the CPU time of the backends serving the
run's database (``db_cpu``; ``cpu_ms_per_move`` is the servers' and their backends' together),
and the CPU time of the load client's processes apart (they run on the same machine, so their
share is CPU the servers did not have).

The rooms are played from one client process per ``--rooms-per-client`` rooms (1,000 by
default; bench/load_share.py), each with an event loop of its own.

    .venv/bin/python bench/load.py --rooms 100 --interval 10 --duration 60 --db postgres --processes 2
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --rooms 50     # a running server
    .venv/bin/python bench/load.py --db postgres --processes 2 --rooms 1000 --via page \\
        --against-baseline --repeat 3

With two processes a room's host and spectator use one process and the other player the other
one, so every move crosses between them (``--spread players``); ``--spread rooms`` keeps each room
on one process, as the deployment's proxy routes a room's requests (deploy/Caddyfile), the rooms
spread over both.

``--against-baseline`` runs the same load on ``bench/baseline.py`` (a bare server on the same
stack that does the least a correct server must do per move) and on the app, each with a fresh
database; ``--repeat N`` makes N such pairs, the baseline first in the first, the app in the
next, and so on. It prints each pair, then each ratio (the app's figure over the baseline's) of
every pair with its spread, and ends with one line ``ratio cpu_per_move X p50 Y p99 Z``: the
medians. ``--server baseline`` runs the baseline alone.

By default it starts the server itself (``python -m app``) on free loopback ports, against a fresh
SQLite file or a fresh PostgreSQL database (``--db postgres``; created with createdb and dropped
afterwards), with one or two processes. Traffic goes only to 127.0.0.1. The servers' logs go to a
temporary directory removed at the end; ``--keep-logs DIR`` copies them to DIR first. All of this
but the game's own client is shared with Le Havre's load (bench/load_lehavre.py) in
bench/load_runs.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_runs import Load, add_run_arguments, check_run_arguments, run_and_report

#: Inland Port's rooms: two players and a spectator each, played by bench/load_client.py.
INLAND_PORT = Load(
    client="load_client",
    sockets_per_room=3,
    servers={"app": "app", "baseline": "baseline"},
    requests_per_move=lambda args: 3 if args.fetch_legal else 1,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_run_arguments(parser)
    parser.add_argument(
        "--via",
        choices=["api", "page"],
        default="api",
        help="post moves to the JSON API, or as the room's page does (form, cookie, gzip)",
    )
    parser.add_argument(
        "--fetch-legal",
        action="store_true",
        help="GET the room and its legal moves before every move (3 requests per move)",
    )
    args = parser.parse_args()
    check_run_arguments(parser, args)
    baseline_runs = args.against_baseline or (args.server == "baseline" and not args.url)
    if args.fetch_legal and baseline_runs:
        parser.error("the baseline knows no legal moves: no --fetch-legal")
    return run_and_report(INLAND_PORT, args)


if __name__ == "__main__":
    sys.exit(main())
