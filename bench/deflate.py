"""What a socket's permessage-deflate context costs, and what each setting sends on the wire.

    .venv/bin/python bench/deflate.py                 # 3 seeded random games, 3 viewers each

For each setting (window bits, memLevel, and whether the compression context is kept from
message to message or each message is compressed alone, "no context takeover"; "off" sends
boards as they are) it follows every viewer of seeded random games as a room's socket does,
through one `websockets` permessage-deflate extension per viewer (the server's side), in two
formats: "whole", the whole board of every version, and "parts", what the hub sends now (the whole
board first, then per version only the parts that changed, `app.live.frames`). It prints the median
and the 90th percentile of the bytes per update on the wire (the first board of each viewer left
out), the mean CPU time of compressing one update of the parts format (this process's CPU clock),
and the memory one socket's extension holds after its first board (tracemalloc, which sees zlib's
allocations): compressor and decompressor, the context a socket keeps while idle (none without
context takeover: zlib's objects live only while a message is compressed). No server, no database:
the frames are those uvicorn's `websockets` would send.
"""

from __future__ import annotations

import itertools
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

from app.ui.board import draw_board
from bench.games import positions, room_view

#: (window bits, memLevel, context kept from message to message); None: no compression.
SETTINGS: list[tuple[int, int, bool] | None] = [
    (15, 8, True),
    (14, 6, True),
    (14, 3, True),
    (13, 5, True),
    (13, 3, True),
    (12, 8, True),
    (12, 5, True),
    (11, 4, True),
    (10, 4, True),
    (15, 8, False),
    (15, 5, False),
    (13, 5, False),
    (12, 5, False),
    None,
]


def boards(games: int, moves: int) -> tuple[list[list[bytes]], list[list[bytes]]]:
    """Every viewer's sequence of messages (host, guest and spectator of each game): whole
    boards, and the whole first board followed by patches."""
    whole, parts = [], []
    for seed in range(games):
        game = positions(moves, random.Random(seed).choice)
        for seat in (0, 1, None):
            drawn = [draw_board(room_view(f"room{seed}", state, log, seat)) for state, log in game]
            whole.append([board.whole().encode() for board in drawn])
            messages = [drawn[0].whole()]
            for before, board in itertools.pairwise(drawn):
                messages.append(board.patch(before.summary()) or board.whole())
            parts.append([message.encode() for message in messages])
    return whole, parts


def extension(setting: tuple[int, int, bool]) -> PerMessageDeflate:
    """The server's side; without context takeover (both ways, as the server asks for it) each
    message is compressed alone and no zlib object outlives it."""
    bits, mem_level, keep = setting
    return PerMessageDeflate(not keep, not keep, bits, bits, {"memLevel": mem_level})


def wire_sizes(
    sequences: list[list[bytes]], setting: tuple[int, int, bool] | None
) -> tuple[list[int], float]:
    """The bytes on the wire of every update after each viewer's first board, and the CPU
    seconds their compression took."""
    sizes = []
    spent = 0.0
    for sequence in sequences:
        ext = extension(setting) if setting else None
        for i, board in enumerate(sequence):
            frame = Frame(Opcode.TEXT, board)
            if ext is not None:
                started = time.process_time()
                frame = ext.encode(frame)
                spent += time.process_time() - started
            if i:
                sizes.append(len(frame.data))
    return sizes, spent


def context_bytes(board: bytes, setting: tuple[int, int, bool], sockets: int = 50) -> float:
    """Memory held per socket after each of `sockets` extensions sent one board and inflated
    one small message (what a browser sends: a ping of the page, a chat line)."""
    peer = extension(setting)
    incoming = peer.encode(Frame(Opcode.TEXT, b'{"type": "hello"}'))
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = []
    for _ in range(sockets):
        ext = extension(setting)
        ext.encode(Frame(Opcode.TEXT, board))
        ext.decode(Frame(Opcode.TEXT, incoming.data, rsv1=True))
        kept.append(ext)
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return held / sockets


def main() -> None:
    whole, parts = boards(games=3, moves=80)
    plain = [len(b) for seq in whole for b in seq]
    median_board = sorted(plain)[len(plain) // 2]
    board = next(b for seq in whole for b in seq if len(b) == median_board)
    patches = sorted(len(b) for seq in parts for b in seq[1:])
    print(
        f"{len(whole)} viewers, {len(plain)} boards, board median {median_board} bytes, "
        f"patch median {patches[len(patches) // 2]} bytes before compression"
    )
    print(
        "setting | whole: bytes/update median | p90 | parts: median | p90 | KiB held per socket"
        " | parts: compression µs/update"
    )
    for setting in SETTINGS:
        sizes = sorted(wire_sizes(whole, setting)[0])
        found, spent = wire_sizes(parts, setting)
        partial = sorted(found)
        held = f"{context_bytes(board, setting) / 1024:.1f}" if setting else "0"
        name = (
            f"bits {setting[0]}, memLevel {setting[1]}, "
            + ("context kept" if setting[2] else "no context takeover")
            if setting
            else "off"
        )
        cost = 1e6 * spent / len(partial)
        print(
            f"{name} | {statistics.median(sizes):.0f} | {sizes[int(len(sizes) * 0.9)]}"
            f" | {statistics.median(partial):.0f} | {partial[int(len(partial) * 0.9)]} | {held}"
            f" | {cost:.0f}"
        )


if __name__ == "__main__":
    main()
