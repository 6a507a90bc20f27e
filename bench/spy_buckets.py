"""Where a server's Python time goes under load: py-spy's samples summed by what they were doing.

Sample each server process while bench/load.py plays (py-spy is not among the project's
requirements: ``pip install py-spy``), only the thread holding the interpreter (``--gil``), so a
sample is Python at work, not a thread waiting or in C code that let go of the interpreter:

    py-spy record --pid PID --gil --rate 200 --duration 30 --nonblocking --format raw -o PID.txt
    .venv/bin/python bench/spy_buckets.py APP_PID1.txt APP_PID2.txt -- BASE_PID1.txt BASE_PID2.txt

Each group of files (``--`` between groups) is one server; a sample goes to the first bucket
whose function is on its stack (`BUCKETS`, in order), else to "other".
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

#: (bucket, a function name as py-spy prints it), the first match on a sample's stack wins.
BUCKETS = (
    ("drawing the boards", "BoardPainter.__call__"),
    ("drawing the chat", "ChatPainter.__call__"),
    ("the seat written as seen", "_seat_seen"),
    ("the move (route, rules, transaction)", "post_move"),
    ("the move (route, rules, transaction)", "submit_move"),
    ("the move (route, rules, transaction)", "Store.play"),
    ("another process's move heard", "_on_notify"),
    ("another process's move heard", "Hub.notified"),
    ("listening to PostgreSQL", "listen"),
    ("sending to the sockets", "WebSocket.send"),
    ("the hub on the event loop", "draw_boards"),
    ("the hub on the event loop", "_hand_out"),
    ("HTTP: middleware, routing, dependencies", "run_asgi"),
    ("the event loop and thread hand-offs", "asyncio"),
)


def buckets(lines: Iterable[str]) -> Counter[str]:
    """Samples per bucket (and "total") of py-spy's raw lines: ``frame;frame;... count``."""
    counts: Counter[str] = Counter()
    for line in lines:
        stack, _, number = line.strip().rpartition(" ")
        if not stack or not number.isdigit():
            continue
        found = next((name for name, function in BUCKETS if function in stack), "other")
        counts[found] += int(number)
        counts["total"] += int(number)
    return counts


def main(argv: list[str]) -> int:
    groups: list[list[str]] = [[]]
    for arg in argv:
        if arg == "--":
            groups.append([])
        else:
            groups[-1].append(arg)
    results = [
        buckets(line for f in group for line in Path(f).read_text().splitlines())
        for group in groups
        if group
    ]
    if not results:
        print(__doc__)
        return 2
    names = [name for name, _ in BUCKETS] + ["other"]
    names = list(dict.fromkeys(names))
    print(f"{'':42}" + "".join(f"{'server ' + str(i + 1):>18}" for i in range(len(results))))
    for name in [*names, "total"]:
        cells = "".join(
            f"{counts[name]:>9} {counts[name] / max(counts['total'], 1) * 100:6.1f} %"
            for counts in results
        )
        print(f"{name:42}{cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
