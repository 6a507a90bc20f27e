"""How many objects the collector moves to its old generation: a probe every Python process
started with this folder on its path loads at start (``PYTHONPATH=.:bench/gcprobe``), on only
when ``GC_PROBE_DIR`` names a folder. Read with bench/gc_promoted.py.

CPython starts a full pass over every tracked object once the objects its young passes moved to
the old generation since the last full pass (those that died there since included) outnumber a
quarter of those the old generation held after it. So what a move leaves to outlive two young
passes, not only what it keeps, decides how often full passes come (docs/performance.md).

Each process writes ``promoted-PID.txt``: its command line, then every second the wall-clock
time, the objects moved so far, the young passes that moved them (those of the middle generation)
and the full passes so far. Counting lists the old generation before and after each of those
passes (a few ms each with hundreds of thousands of objects): it slows the process a little.
"""

import gc
import os
import sys
import threading
import time

_FOLDER = os.environ.get("GC_PROBE_DIR")


class _Counts:
    def __init__(self) -> None:
        self.before = 0
        self.moved = 0
        self.promoting_passes = 0
        self.full_passes = 0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] == 2:
            self.full_passes += phase == "stop"
        elif info["generation"] == 1:  # a young pass that moves its survivors to the old one
            held = len(gc.get_objects(2))
            if phase == "start":
                self.before = held
            else:
                self.moved += held - self.before
                self.promoting_passes += 1

    def write_every_second(self, path: str) -> None:
        with open(path, "w") as out:
            out.write(" ".join(sys.orig_argv) + "\n")
            while True:
                out.write(
                    f"{time.time():.1f} {self.moved} {self.promoting_passes} {self.full_passes}\n"
                )
                out.flush()
                time.sleep(1)


if _FOLDER:
    _counts = _Counts()
    gc.callbacks.append(_counts)
    _path = os.path.join(_FOLDER, f"promoted-{os.getpid()}.txt")
    threading.Thread(target=_counts.write_every_second, args=(_path,), daemon=True).start()
