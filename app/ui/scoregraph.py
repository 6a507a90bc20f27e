"""The score graph of a game, drawn by the server as SVG (templates/score_graph.html).

The x axis is the position in the game (0 = the start, one step per move of the log), with the
start of each round marked (Inland Port's A–L; Le Havre's by number). The upper panel holds each
player's score at every position — in Inland Port francs plus the value of every owned building
(`engine.scores`, SPEC §7), in Le Havre the fortune (`engine.lehavre.scores`), one line per seat. Once the game has been
analysed, the lower panel holds the strong computer's evaluation margin for player 1 (above the
line: player 1 ahead) at the start of each turn, and the exact score margin at the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine import GameState, scores

WIDTH = 400.0
LEFT = 30.0
RIGHT = 36.0
SCORE_TOP = 12.0
SCORE_BOTTOM = 150.0
MARGIN_TOP = 176.0
MARGIN_BOTTOM = 236.0


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    position: int
    value: float


@dataclass(frozen=True)
class ScoreGraph:
    height: float
    lines: tuple[tuple[Point, ...], ...]
    """Each seat's score at every position."""
    rounds: tuple[tuple[float, str], ...]
    """Where each round starts (x) and its letter."""
    ticks: tuple[tuple[float, int], ...]
    """Score axis: (y, score)."""
    margin: tuple[Point, ...]
    """The computer's margin for player 1 (empty before the analysis)."""
    margin_zero: float
    margin_ticks: tuple[tuple[float, int], ...]
    marker: float | None
    """The x of the position looked at, if any."""
    total: int
    #: Each line's class ("seat-0": Inland Port's colours; "lh-seat-0": Le Havre's).
    seat_class: str = "seat-"
    #: The seats' names in the legend (empty: "Player N").
    names: tuple[str, ...] = ()

    @property
    def width(self) -> float:
        return WIDTH

    @staticmethod
    def polyline(points: Sequence[Point]) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in points)


def _x(position: int, total: int) -> float:
    return LEFT + (WIDTH - LEFT - RIGHT) * position / max(total, 1)


def _nice_step(span: float) -> int:
    for step in (5, 10, 20, 25, 50, 100, 200, 500):
        if span / step <= 5:
            return step
    return 1000


def score_graph(
    positions: Sequence[GameState],
    margins: Mapping[int, float] | None = None,
    at: int | None = None,
) -> ScoreGraph:
    """The graph of an Inland Port game's `positions`; `margins` maps a position to the
    computer's margin."""
    rounds = [
        (i, state.round_letter)
        for i, state in enumerate(positions)
        if (i == 0 or state.round_index != positions[i - 1].round_index) and not state.finished
    ]
    return graph_of([scores(state) for state in positions], rounds, margins, at)


def graph_of(
    values: Sequence[Sequence[float]],
    rounds: Sequence[tuple[int, str]],
    margins: Mapping[int, float] | None = None,
    at: int | None = None,
    *,
    seat_class: str = "seat-",
    names: tuple[str, ...] = (),
) -> ScoreGraph:
    """The graph of each seat's score at every position (`values[position][seat]`), the rounds
    starting at the positions of `rounds` (position, label)."""
    total = len(values) - 1
    top = max(10, *(max(v) for v in values))
    bottom = min(0, *(min(v) for v in values))
    step = _nice_step(top - bottom)
    top = (top // step + 1) * step
    if bottom < 0:  # a Le Havre fortune below nothing: loans
        bottom = -((-bottom) // step + 1) * step

    def y(score: float) -> float:
        return SCORE_BOTTOM - (SCORE_BOTTOM - SCORE_TOP) * (score - bottom) / (top - bottom)

    lines = tuple(
        tuple(Point(_x(i, total), y(v[seat]), i, v[seat]) for i, v in enumerate(values))
        for seat in range(len(values[0]))
    )
    margin: tuple[Point, ...] = ()
    zero = (MARGIN_TOP + MARGIN_BOTTOM) / 2
    margin_ticks: tuple[tuple[float, int], ...] = ()
    if margins:
        reach = max(10.0, *(abs(v) for v in margins.values()))
        mstep = _nice_step(2 * reach)
        reach = (reach // mstep + 1) * mstep
        half = (MARGIN_BOTTOM - MARGIN_TOP) / 2
        margin = tuple(
            Point(_x(i, total), zero - half * v / reach, i, v) for i, v in sorted(margins.items())
        )
        margin_ticks = ((zero - half, int(reach)), (zero, 0), (zero + half, -int(reach)))
    return ScoreGraph(
        height=MARGIN_BOTTOM + 14 if margins else SCORE_BOTTOM + 16,
        lines=lines,
        rounds=tuple((_x(i, total), label) for i, label in rounds),
        ticks=tuple((y(s), s) for s in range(int(bottom), int(top) + 1, step)),
        margin=margin,
        margin_zero=zero,
        margin_ticks=margin_ticks,
        marker=None if at is None else _x(at, total),
        total=total,
        seat_class=seat_class,
        names=names,
    )
