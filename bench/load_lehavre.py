"""Load test of Le Havre: many rooms of four seats and a spectator, moving at a set pace over real
sockets, and the bytes every socket receives per update.

Each room is opened through the JSON API with three friends' seats, claimed with their invite
links; all four seats are played by this client (bench/load_lehavre_client.py). The setup hides
what no player may see, so a client cannot work out the legal moves itself: before each move the
seat to move asks for them (``GET /api/rooms/{id}/legal``) and posts one at random
(``POST /api/rooms/{id}/moves``): two requests per move. A move's latency runs from the ``POST``
until all five sockets of the room hold the new version. Every socket follows its board as a page
does (a patch on top of a board it does not show makes it ask for the whole board) and counts each
message received while the players play: whole boards, patches, their size in HTML and on the
wire (permessage-deflate on, as browsers have it).

    .venv/bin/python bench/load_lehavre.py --rooms 100 --interval 10 --duration 60 --db postgres --processes 2
    .venv/bin/python bench/load_lehavre.py --db postgres --processes 2 --rooms 500 \\
        --against-baseline --repeat 1

It reports what bench/load.py reports (moves per second, latency percentiles, the servers' and
their PostgreSQL backends' CPU per move, lost moves, the client's CPU; the options are the same,
bench/load_runs.py) and, per socket and update, ``update_bytes_*`` (HTML) and ``wire_bytes_*``
(on the wire): mean and p99, with the count of whole boards, patches and other messages.

``--against-baseline`` measures the app against ``bench/baseline_lehavre.py``, the least a correct
Le Havre server must do per move (the legal moves and the move with the rules engine, the move
stored in one transaction, an update of the app's median size to each socket), in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_runs import Load, add_run_arguments, check_run_arguments, percentile, run_and_report

KINDS_OF_FRAME = ("whole", "patch", "other")


def update_figures(measured: list[dict[str, Any]]) -> dict[str, Any]:
    """Bytes per update per socket (HTML and on the wire: mean, p99) and the frames by kind."""
    updates = [update for share in measured for update in share["updates"]]
    html = [size for _kind, size, _wire in updates]
    wire = [on_wire for _kind, _size, on_wire in updates]
    frames = {kind: sum(1 for k, _s, _w in updates if k == kind) for kind in KINDS_OF_FRAME}
    return {
        "updates": len(updates),
        "frames": frames,
        "asked_whole": sum(share["asked_whole"] for share in measured),
        "update_bytes_mean": round(statistics.fmean(html)) if html else None,
        "update_bytes_p99": percentile(html, 99) if html else None,
        "wire_bytes_mean": round(statistics.fmean(wire)) if wire else None,
        "wire_bytes_p99": percentile(wire, 99) if wire else None,
    }


#: Le Havre's rooms: four seats and a spectator, played by bench/load_lehavre_client.py.
LE_HAVRE = Load(
    client="load_lehavre_client",
    sockets_per_room=5,
    servers={"app": "app", "baseline": "baseline_lehavre"},
    requests_per_move=lambda args: 2,
    extra=update_figures,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_run_arguments(parser)
    parser.set_defaults(via="api")  # moves go through the JSON API, as a bot's would
    args = parser.parse_args()
    check_run_arguments(parser, args)
    return run_and_report(LE_HAVRE, args)


if __name__ == "__main__":
    sys.exit(main())
