"""Wheel-layout micro-benchmark: median milliseconds to pack one sector of a wheel
(`app.ui.wheel_layout.layout_sector`) whose buildings the run has not packed before.

Plays seeded random games (as bench/render.py does) and packs both players' wheels at every
position, in English and Czech, in order, as a live room asks for them. A sector packed once is
remembered (`layout_sector`'s memo), so only a sector with new contents costs anything; those of
mid-game positions (moves 35-45) and late-game positions (moves 75-85) are timed, the others only
fill the caches as play would.

- *warm*: the geometry the packing keeps between sectors (the candidate spots, the boxes that fit
  each tile size, whatever else the module remembers) is as the earlier positions left it, as in
  a server that has run for a while;
- *cold*: every memo of the module is cleared before each timed sector, as for the first wheel
  after a start without the server's warm-up (the candidate grids of a sector included);
- *started*: as *warm*, but the run begins as a server does, with `wheel_layout.warm_up` for
  every tile text of the catalog in every language (the figure printed beside it is the
  warm-up's own time). With ``--games 1`` *warm* and *started* are a server's first game
  without and with the warm-up.

    .venv/bin/python bench/wheel_layout.py                 # 6 games
    .venv/bin/python bench/wheel_layout.py --games 10 --json

One process, one thread; no database, no drawing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import positions as game_positions

import engine
from app.i18n import LANGUAGES
from app.ui import wheel_layout
from app.ui.warehouse import every_tile_text, sector_texts, wheel_sectors

PHASES = {"mid": range(35, 46), "late": range(75, 86)}
"""Which versions are timed, by phase."""

Sector = tuple[int, tuple[tuple[str, str], ...]]


def wheel(state: engine.GameState, seat: int, lang: str) -> list[Sector]:
    """What `layout_sector` is asked for one player's wheel, sector by sector (as
    `app.ui.warehouse.Mat.tiles` asks)."""
    catalog = state.catalog
    return [
        (age, sector_texts(catalog, age, ids, lang))
        for age, ids in wheel_sectors(catalog, state.players[seat].buildings)
    ]


def wheels(games: int, seed: int, langs: list[str]) -> list[tuple[str, list[Sector]]]:
    """(phase, wheel) in the order of play; phase "" for the positions not timed."""
    rng = random.Random(seed)
    last = max(max(versions) for versions in PHASES.values())
    result = []
    for _game in range(games):
        for version, (state, _log) in enumerate(game_positions(last, rng.choice)):
            phase = next((name for name, vs in PHASES.items() if version in vs), "")
            for seat in (0, 1):
                for lang in langs:
                    result.append((phase, wheel(state, seat, lang)))
    return result


def _memos() -> list[object]:
    """Every memo of the layout module (whatever its version of the code keeps)."""
    return [f for f in vars(wheel_layout).values() if callable(getattr(f, "cache_clear", None))]


def measure(
    plays: list[tuple[str, list[Sector]]], cold: bool, warmed_up: bool = False
) -> dict[str, object]:
    memos = _memos()
    for memo in memos:
        memo.cache_clear()  # type: ignore[attr-defined]
    warm_up_ms = 0.0
    if warmed_up:
        began = time.perf_counter()
        wheel_layout.warm_up(every_tile_text([engine.default_catalog()], LANGUAGES))
        warm_up_ms = 1000 * (time.perf_counter() - began)
    seen: set[Sector] = set()
    timings: dict[str, list[float]] = {}
    for phase, sectors in plays:
        for sector, tiles in sectors:
            new = (sector, tiles) not in seen
            seen.add((sector, tiles))
            if not (phase and new):
                wheel_layout.layout_sector(sector, tiles)
                continue
            if cold:
                for memo in memos:
                    memo.cache_clear()  # type: ignore[attr-defined]
            started = time.perf_counter()
            wheel_layout.layout_sector(sector, tiles)
            timings.setdefault(phase, []).append(1000 * (time.perf_counter() - started))
    result: dict[str, object] = {"warm_up_ms": round(warm_up_ms, 1)} if warmed_up else {}
    return result | {
        phase: {
            "sectors": len(ts),
            "median_ms": round(statistics.median(ts), 3),
            "mean_ms": round(statistics.fmean(ts), 3),
            "p90_ms": round(statistics.quantiles(ts, n=10)[-1], 3),
        }
        for phase, ts in sorted(timings.items())
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--langs", default="en,cs", help="comma-separated language codes")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON line")
    args = parser.parse_args()
    plays = wheels(args.games, args.seed, args.langs.split(","))
    result = {
        "warm": measure(plays, cold=False),
        "started": measure(plays, cold=False, warmed_up=True),
        "cold": measure(plays, cold=True),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for kind, phases in result.items():
            for phase, figures in phases.items():  # type: ignore[attr-defined]
                print(f"{kind:>7} {phase:>10}: {figures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
