"""How a tile's text is drawn in a wheel's SVG: its lines and its multiplier as runs of text,
each with the width it may fill, placed in the tile's box (`app.ui.wheel_layout`)."""

from __future__ import annotations

from dataclasses import dataclass

from .wheel_layout import LINE, PAD_X, PAD_Y, STRIPE, Box, Label, text_width


@dataclass(frozen=True)
class TextRun:
    """One run of tile text as the SVG draws it: start (or end) point and the width it fills."""

    x: float
    y: float
    text: str
    width: float


BASELINE = 12.2
"""From the top of a text line to its baseline, in units."""


def text_runs(label: Label, box: Box) -> tuple[tuple[TextRun, ...], TextRun | None]:
    """A tile's lines of text (left-aligned after the seat stripe) and its multiplier (the last
    line's right end), each with the width the SVG squeezes it into so it never leaves its box."""
    left = box.x + STRIPE + PAD_X
    lines = tuple(
        TextRun(left, box.y + PAD_Y + k * LINE + BASELINE, line, text_width(line))
        for k, line in enumerate(label.lines)
    )
    if not label.multiplier:
        return lines, None
    last = lines[-1]
    multiplier = TextRun(
        box.x + box.width - PAD_X, last.y, label.multiplier, text_width(label.multiplier)
    )
    return lines, multiplier
