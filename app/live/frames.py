"""What a socket is sent of a board: the whole board, or only the parts that changed.

A board is drawn as *parts* (elements with stable ids: the status bar, each mat's header, wheel
and warehouse, each round of the supply, the log, ...; `app.ui.parts`) inside a *shell* that
stays the same for a viewer from version to version. Its *frame* is a digest of the parts and of
the board element's attributes: two boards with the same frame look the same.

A whole board is the ``id="board"`` element with ``data-frame``. A patch is one text message:

    <!--board-patch {"base": "<frame shown>", "frame": "<new frame>", "version": "7",
                     "toMove": "1", "acting": "false", "playable": "", "class": "board"}-->
    <header class="mat-header" id="mat-head-0">…</header><ol class="log-entries" id="log-newest">…</ol>

A page showing the board `base` copies the header onto its board element and brings the element
of each part's id in line with the part (static/js/patch.js, with static/js/morph.js: what did not
change is kept, the result is the part's HTML as an out-of-band swap by id would give). A page
showing the board `frame` already (a refused move's answer brought it) ignores the patch; any
other page asks the server for the whole board by sending ``board``. The mover's own page gets
its move this way too: a played move's HTTP answer carries no board (`app.routes.panel`).
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field

PATCH_PREFIX = "<!--board-patch "
#: What a page sends to ask for the whole board.
WHOLE_BOARD_PLEASE = "board"
#: The shell's entry among a board's keys (`DrawnBoard.keys`).
SHELL_KEY = "shell"


def part_hash(html: str) -> int:
    """A digest of one part's HTML, the same in every process."""
    return int.from_bytes(hashlib.blake2b(html.encode(), digest_size=8).digest(), "big")


def frame_of(hashes: Mapping[str, int], attrs: Mapping[str, str]) -> str:
    """The frame of a board: a digest of its parts (in order) and its element's attributes."""
    digest = hashlib.blake2b(";".join(hashes).encode(), digest_size=8)
    digest.update(struct.pack(f">{len(hashes)}Q", *hashes.values()))
    digest.update("\x1f".join(f"{name}\x1e{attrs[name]}" for name in sorted(attrs)).encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class BoardSummary:
    """What the hub keeps of the last board drawn for a group of viewers: enough to tell which
    parts a later board changed, none of the HTML."""

    frame: str
    shell: int
    hashes: Mapping[str, int]
    keys: Mapping[str, int] = field(default_factory=dict)
    """Part id (and `SHELL_KEY`) -> a hash of the values it was drawn from (`app.ui.parts`)."""


@dataclass(frozen=True)
class DrawnBoard:
    """One viewer's board of one version, drawn once, sent whole or as a patch."""

    frame: str
    attrs: Mapping[str, str]
    """The board element's changing attributes: version, toMove, acting, playable, class."""
    parts: Mapping[str, str]
    """Part id -> its HTML, in the board's order."""
    hashes: Mapping[str, int]
    """Part id -> `part_hash` of its HTML (before the forms' one-off move ids were filled in)."""
    pieces: tuple[str, ...]
    """The shell: its text between the parts, and the parts' ids between them
    (text, id, text, id, ..., text)."""
    shell: int
    """A digest of the shell after the board element's opening tag."""
    keys: Mapping[str, int] = field(default_factory=dict)
    """Part id (and `SHELL_KEY`) -> a hash of the values it was drawn from; a part whose key
    had not changed since the board drawn before was not drawn (it is missing from `parts`)."""

    @property
    def complete(self) -> bool:
        """Whether every part and the shell were drawn (else it goes only as a patch)."""
        return bool(self.pieces) and len(self.parts) == len(self.hashes)

    def summary(self) -> BoardSummary:
        return BoardSummary(self.frame, self.shell, self.hashes, self.keys)

    def whole(self) -> str:
        """The whole board: the shell with every part in its place."""
        if not self.complete:
            raise ValueError("only the changed parts of this board were drawn")
        pieces = self.pieces
        out = [pieces[0]]
        for i in range(1, len(pieces), 2):
            out.append(self.parts[pieces[i]])
            out.append(pieces[i + 1])
        return "".join(out)

    def patch(self, before: BoardSummary) -> str | None:
        """The parts changed since `before`, with the header; None when only the whole board
        will do (the shell changed, or a changed part was not drawn: `before` is not the board
        this one was drawn on top of)."""
        if before.shell != self.shell:
            return None
        header = {"base": before.frame, "frame": self.frame, **self.attrs}
        text = json.dumps(header, separators=(",", ":")).replace("--", "-\\u002d")
        changed = [name for name, value in self.hashes.items() if before.hashes.get(name) != value]
        if any(name not in self.parts for name in changed):
            return None
        return f"{PATCH_PREFIX}{text}-->" + "".join(self.parts[name] for name in changed)


class Offer:
    """A group's new board as its sockets are offered it: the patch on top of the group's previous
    board and the whole board, each made once, when a socket first needs it."""

    def __init__(self, board: DrawnBoard, before: BoardSummary | None) -> None:
        self._board = board
        self._before = before
        self.frame = board.frame
        self.base = before.frame if before is not None else None
        self._whole: str | None = None
        self._patch: str | None = None
        #: Whether the whole board can be made (else only the patch).
        self.complete = board.complete

    @property
    def whole(self) -> str:
        if self._whole is None:
            self._whole = self._board.whole()
        return self._whole

    @property
    def patch(self) -> str | None:
        if self._patch is None and self._before is not None:
            self._patch = self._board.patch(self._before)
        return self._patch
