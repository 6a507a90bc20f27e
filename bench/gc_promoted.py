"""Objects the collector moved to its old generation per move, and its full passes, while a
load played: the figures of bench/gcprobe (docs/performance.md, "Where the knee is").

    mkdir /tmp/gc
    GC_PROBE_DIR=/tmp/gc PYTHONPATH=.:bench/gcprobe .venv/bin/python bench/load.py --server app \\
        --db postgres --processes 2 --rooms 1000 --interval 10 --duration 60 --via page \\
        --spread players | tee /tmp/gc/load.txt
    .venv/bin/python bench/gc_promoted.py /tmp/gc /tmp/gc/load.txt

The load's `played_at` and `moves` give the window and the moves. Each server process (the app,
or the baseline with `--server baseline`) is one line: what it moved to the old generation over
the play, per move played (with `--spread players` each process sends every move to a socket).
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_servers import COMMANDS

#: How a server's command line ends ("-m app", "bench/baseline.py", ...).
SERVER_ENDS = tuple(" " + " ".join(command[1:]) for command in COMMANDS.values())


def load_figures(path: Path) -> tuple[float, float, int]:
    """The play's start and end (wall clock) and its moves, from bench/load.py's report."""
    figures = {}
    for line in path.read_text().splitlines():
        key, _, value = line.partition(":")
        figures[key.strip()] = value.strip()
    start, end = ast.literal_eval(figures["played_at"])
    return start, end, int(figures["moves"])


def counts_at(rows: list[tuple[float, int, int, int]], when: float) -> tuple[float, int, int, int]:
    """The probe's line written nearest to `when`."""
    return min(rows, key=lambda row: abs(row[0] - when))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path, help="the probe's GC_PROBE_DIR")
    parser.add_argument("report", type=Path, help="what bench/load.py printed (one server)")
    args = parser.parse_args()
    start, end, moves = load_figures(args.report)
    for path in sorted(args.folder.glob("promoted-*.txt")):
        command, *lines = path.read_text().splitlines()
        if not command.endswith(SERVER_ENDS):
            continue
        rows = [(float(t), int(m), int(p), int(f)) for t, m, p, f in map(str.split, lines)]
        first, last = counts_at(rows, start), counts_at(rows, end)
        moved = last[1] - first[1]
        print(
            f"{path.stem}: {moved} objects moved to the old generation in {last[0] - first[0]:.0f} s "
            f"of play, {moved / max(1, moves):.1f} per move ({moves} moves); "
            f"{last[3] - first[3]} full passes"
        )


if __name__ == "__main__":
    main()
