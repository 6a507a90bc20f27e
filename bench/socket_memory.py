"""Where the memory of open sockets goes: RSS and Python allocations between N and 2N idle sockets.

    .venv/bin/python bench/socket_memory.py --rooms 100                 # the app, SQLite
    .venv/bin/python bench/socket_memory.py --rooms 100 --server baseline
    .venv/bin/python bench/socket_memory.py --rooms 100 --top 25        # the largest growths

It starts one server (`python -m app`, or `bench/baseline.py`) on a fresh SQLite file (or
PostgreSQL with ``--db postgres``) with tracemalloc on in the server process, opens ``--rooms``
rooms and then, in three steps, idle sockets as `bench/load.py` opens them (permessage-deflate on):

1. the two players and the spectator of the first half of the rooms;
2. the same for the second half (each socket of this step also brings its room's first boards);
3. three more sockets to each room of the first half (the same viewers again: no new room, no new
   board group: what one more open socket costs).

After each step it waits until every new socket holds its first board, runs a full collection in
the server (so garbage is not counted), and reads the server's RSS and a tracemalloc snapshot. It
prints, per socket, the growth of RSS, of Python's allocations and of the objects the collector
tracks (what its full passes walk) from step 1 to 2 ("per socket with its room") and from step 2
to 3 ("per extra socket"), and the allocations that grew most from step 2 to 3, grouped by
traceback (``--top``). tracemalloc sees zlib's and the interpreter's allocations, not the
kernel's socket buffers nor the allocator's own overhead; its bookkeeping makes the server's RSS
larger than without it, so ``--no-trace`` measures RSS alone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load_client import Room, create_room, watch
from bench.load_servers import Server, free_port, wait_healthy

ROOT = Path(__file__).resolve().parent.parent
#: The server-side wrapper: tracemalloc on, SIGUSR1 collects and writes a snapshot.
SERVE = {
    "app": "import bench.socket_memory as m; m.serve('app')",
    "baseline": "import bench.socket_memory as m; m.serve('baseline')",
}


def serve(kind: str) -> None:
    """Run in the server process: start tracemalloc (unless TRACE_FRAMES is 0), then the server.
    On SIGUSR1: a full collection, then the snapshot written to SNAPSHOT_PATH (and ".done")."""
    frames = int(os.environ.get("TRACE_FRAMES", "0"))
    if frames:
        tracemalloc.start(frames)
    path = Path(os.environ["SNAPSHOT_PATH"])

    def dump(_signum: int, _frame: object) -> None:
        gc.collect()
        if tracemalloc.is_tracing():
            tracemalloc.take_snapshot().dump(str(path))
        written = path.with_suffix(".count")  # renamed whole: never read half-written
        written.write_text(str(len(gc.get_objects())))  # those frozen at start are not among them
        written.replace(path.with_suffix(".done"))

    signal.signal(signal.SIGUSR1, dump)
    if kind == "app":
        from app.__main__ import main
    else:
        from bench.baseline import main
    main()


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def snapshot(server: Server, path: Path) -> tuple[tracemalloc.Snapshot | None, int]:
    """Collect in the server and read its snapshot (None without tracing) and how many objects
    its collector's full passes walk (those it tracks, the ones frozen at start left out)."""
    assert server.process is not None
    done = path.with_suffix(".done")
    done.unlink(missing_ok=True)
    server.process.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 300
    while not done.exists():
        if time.monotonic() > deadline:
            raise RuntimeError("the server wrote no snapshot")
        time.sleep(0.1)
    tracked = done.read_text()
    if not path.exists():
        return None, int(tracked)
    taken = tracemalloc.Snapshot.load(str(path))
    path.unlink()
    return taken, int(tracked)


async def open_sockets(
    rooms: list[Room], stop: asyncio.Event, tasks: list[asyncio.Task[None]]
) -> None:
    """Open the two players' and the spectator's sockets of `rooms`; wait for their first boards."""
    for room in rooms:
        room.seen = [-1, -1, -1]
        for slot, token in enumerate((*room.tokens, room.spectator)):
            tasks.append(asyncio.create_task(watch(room, slot, token, room.servers[slot], stop)))
    deadline = time.monotonic() + 300
    for room in rooms:
        while min(room.seen) < 0:
            if time.monotonic() > deadline:
                raise RuntimeError("sockets did not get their first board")
            room.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(room.changed.wait(), 1)
    await asyncio.sleep(2)  # presence redraws after the connects settle


async def steps(server: Server, rooms_wanted: int, snap_path: Path) -> list[dict[str, object]]:
    assert server.process is not None
    pid = server.process.pid
    found: list[dict[str, object]] = []
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    async with httpx.AsyncClient(timeout=60) as client:
        rooms = [await create_room(client, [server], i) for i in range(rooms_wanted)]
    half = rooms_wanted // 2
    first, second = rooms[:half], rooms[half : 2 * half]
    again = [
        Room(
            room_id=r.room_id,
            tokens=r.tokens,
            spectator=r.spectator,
            servers=r.servers,
            state=r.state,
        )
        for r in first
    ]
    before, tracked = snapshot(server, snap_path)
    found.append(
        {"step": "rooms", "sockets": 0, "rss_kib": rss_kib(pid), "snap": before, "objects": tracked}
    )
    sockets = 0
    for name, group in (("first half", first), ("second half", second), ("again", again)):
        await open_sockets(group, stop, tasks)
        sockets += 3 * len(group)
        taken, tracked = snapshot(server, snap_path)
        found.append(
            {
                "step": name,
                "sockets": sockets,
                "rss_kib": rss_kib(pid),
                "snap": taken,
                "objects": tracked,
            }
        )
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return found


def per_socket(earlier: dict[str, object], later: dict[str, object], key: str) -> float:
    """How much `key` grew per socket opened from step `earlier` to step `later`."""
    opened = int(later["sockets"]) - int(earlier["sockets"])  # type: ignore[call-overload]
    return round((int(later[key]) - int(earlier[key])) / opened, 1)  # type: ignore[call-overload]


def traced_kib(taken: object) -> float:
    if not isinstance(taken, tracemalloc.Snapshot):
        return float("nan")
    return sum(stat.size for stat in taken.statistics("filename")) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--server", choices=["app", "baseline"], default="app")
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--frames", type=int, default=12, help="traceback depth")
    parser.add_argument("--no-trace", action="store_true", help="RSS only, no tracemalloc")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="inland-sockmem-"))
    database = None
    server = Server(url="")
    try:
        if args.db == "postgres":
            database = f"inlandport_sockmem_probe_{os.getpid()}"
            subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", database], check=True)
            url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{database}"
        else:
            url = f"sqlite:///{workdir / 'probe.sqlite3'}"
        port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "DATA_DIR": str(workdir),
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "ROOMS_PER_MINUTE": "0",
            "SOCKETS_PER_ADDRESS": "0",
            "COMPUTER_WARM_UP": "false",
            "TRACE_FRAMES": "0" if args.no_trace else str(args.frames),
            "SNAPSHOT_PATH": str(workdir / "snapshot.bin"),
        }
        process = subprocess.Popen(
            [sys.executable, "-c", SERVE[args.server]],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(workdir / "server.log", "wb"),  # noqa: SIM115
        )
        server = Server(url=f"http://127.0.0.1:{port}", process=process)
        wait_healthy(server)
        found = asyncio.run(steps(server, args.rooms, workdir / "snapshot.bin"))
    finally:
        if server.process and server.process.poll() is None:
            server.process.send_signal(signal.SIGINT)
            try:
                server.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.process.kill()
        if database:
            subprocess.run(
                ["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", database],
                check=False,
            )
        shutil.rmtree(workdir, ignore_errors=True)

    rows = []
    for earlier, later in itertools.pairwise(found):
        count = int(later["sockets"]) - int(earlier["sockets"])  # type: ignore[call-overload]
        rows.append(
            {
                "step": later["step"],
                "sockets": later["sockets"],
                "rss_kib": later["rss_kib"],
                "rss_kib_per_socket": per_socket(earlier, later, "rss_kib"),
                "traced_kib_per_socket": round(
                    (traced_kib(later["snap"]) - traced_kib(earlier["snap"])) / count, 1
                ),
                "objects_per_socket": per_socket(earlier, later, "objects"),
            }
        )
    result = {
        "server": args.server,
        "db": args.db,
        "rooms": args.rooms,
        "traced": not args.no_trace,
        "load_average": round(os.getloadavg()[0], 2),
        "steps": rows,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            if key != "steps":
                print(f"{key}: {value}")
        for row in rows:
            print(row)
    second, third = found[-2]["snap"], found[-1]["snap"]
    if isinstance(second, tracemalloc.Snapshot) and isinstance(third, tracemalloc.Snapshot):
        extra = 3 * (args.rooms // 2)
        print(f"\nlargest growths from step 2 to step 3, per extra socket ({extra} sockets):")
        for stat in third.compare_to(second, "traceback")[: args.top]:
            print(f"{stat.size_diff / extra:9.1f} B  {stat.count_diff / extra:6.2f} blocks")
            for line in stat.traceback.format(limit=args.frames, most_recent_first=True)[::2]:
                print("      " + line.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
