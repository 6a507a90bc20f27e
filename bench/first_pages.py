"""A fresh server's first room page in each language, against the same page asked again.

For `--starts` starts it runs a fresh server (`python -m app`, its own SQLite file) and times how
long the start took (from launching the process until /healthz answers), the process's CPU time
and memory (RSS) once it is up, and then, for each language in turn (a browser's
Accept-Language), a new room's page for its host: the first time and again. The first room page
in a language is where anything a server does only once per language (compiling a template,
reading the locale's data, drawing a building's tile) shows. It prints the medians over the starts.

    .venv/bin/python bench/first_pages.py                 # 3 starts
    .venv/bin/python bench/first_pages.py --starts 5 --json

Only loopback traffic; each server is stopped before the next one starts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.appserver import AppServer

LANGUAGES = ("en", "cs", "pt-BR")
SETTLE_S = 1.0


def process_figures(pid: int) -> tuple[float, float]:
    """CPU seconds and resident memory (MiB) of a process so far."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(stat[11]) + int(stat[12])  # utime and stime, fields 14 and 15
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    rss_kib = int(next(line for line in status if line.startswith("VmRSS")).split()[1])
    return ticks / 100, rss_kib / 1024


def room_page_ms(url: str, lang: str) -> tuple[float, float]:
    """Open a room, then time its page for the host twice: the first time and again."""
    with httpx.Client(base_url=url, timeout=60, headers={"Accept-Language": lang}) as browser:
        created = browser.post("/api/rooms", json={"host_seat": 0}).raise_for_status().json()
        browser.get(created["seat_link"].removeprefix(url))  # sets the seat's cookie
        times = []
        for _ in range(2):
            started = time.perf_counter()
            browser.get(f"/rooms/{created['room']}").raise_for_status()
            times.append(1000 * (time.perf_counter() - started))
    return times[0], times[1]


def one_start() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as data_dir:
        server = AppServer(Path(data_dir), env={"ROOMS_PER_MINUTE": "0"})
        started = time.perf_counter()
        server.start()
        start_s = time.perf_counter() - started
        try:
            time.sleep(SETTLE_S)
            assert server.process is not None
            cpu_s, rss_mib = process_figures(server.process.pid)
            pages = {lang: room_page_ms(server.url, lang) for lang in LANGUAGES}
        finally:
            server.stop()
    return {"start_s": start_s, "cpu_s": cpu_s, "rss_mib": rss_mib, "pages": pages}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--starts", type=int, default=3, help="server starts")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON line")
    args = parser.parse_args()
    runs = [one_start() for _ in range(args.starts)]

    def median(values: Any) -> float:
        return round(statistics.median(values), 1)

    result = {
        "starts": args.starts,
        "start_s": median(r["start_s"] for r in runs),
        "cpu_s_after_start": median(r["cpu_s"] for r in runs),
        "rss_mib_after_start": median(r["rss_mib"] for r in runs),
        "first_page_ms": {lang: median(r["pages"][lang][0] for r in runs) for lang in LANGUAGES},
        "again_ms": {lang: median(r["pages"][lang][1] for r in runs) for lang in LANGUAGES},
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>18}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
