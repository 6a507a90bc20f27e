"""The render caches of the board's drawn pieces: cards, tiles, move-log entries and whole parts
of the board as HTML.

Each piece is a pure function of its (hashable, immutable) arguments and the language, so each
distinct piece is drawn once and shared by every board that shows it. `clear_caches` forgets them
all, the drawings the templates memoise included (the render benchmark measures first renders).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from functools import lru_cache

from markupsafe import Markup

from app.reads.positions import TAKEBACK
from app.reads.roomview import LogEntry, RoomView
from engine import Catalog

from . import cards, templates, wheel
from .log import describe_events
from .templates import macros
from .wheel import Tile
from .words import Words, words_for

#: How many positions a memo of one position's values keeps (the offers, the forecast, the round
#: facts, the log's pieces, Le Havre's common table). The hub draws a version's boards one group
#: after the other, so a few are enough to share them; what a larger memo kept would live long
#: enough for the collector to move it to its old generation, where every object that dies brings
#: the next full pass nearer.
VERSION_MEMO = 8


class Same:
    """A cache key that matches only the very same object (log entries hold unhashable dicts;
    a position is shared by every viewer of a version, and hashing it whole costs more).

    The key keeps the object alive, so its id cannot be reused while the entry is cached.
    """

    __slots__ = ("obj",)

    def __init__(self, obj: object) -> None:
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.obj is self.obj


#: The log is drawn as two parts: the moves since the last multiple of this many, and the ones
#: before them, which change only when that boundary moves on.
LOG_CHUNK = 8


def log_html(
    view: RoomView, words: Words, between: Mapping[int, Markup] | None = None
) -> LogPieces:
    """The move log, newest first, put into words from the stored engine events; `between[v]`
    (the room's other happenings) goes right after the first `v` moves. In two pieces: the
    newest moves (those after the last multiple of `LOG_CHUNK` moves, with the happenings after
    them), then every one before them, so that a move changes the first piece only, and the
    second once every `LOG_CHUNK` moves.

    Only the moves are numbered, each by the step of the game it leads to (as the review counts
    them: the number of moves in force after it); a takeback and the happenings are notes
    without a number.

    A move's entry never changes once logged, and the position cache hands out the same
    `LogEntry` objects version after version, so each entry is drawn once per language; the
    newest moves are drawn once per version and language, for every viewer (they share the log).
    """
    return _log_list(
        Same(view.log), words.code, view.state.catalog, tuple(sorted((between or {}).items()))
    )


class LogPieces:
    """The log's two pieces (`log_html`): ``pieces[0]`` the newest moves, ``pieces[1]`` the
    ones before them, drawn when first asked for. `earlier_key` names the earlier piece without
    drawing it: the very same entries and happenings, so a board whose earlier piece is
    unchanged (seven moves in eight) does not draw it at all, however many rooms came between
    (the earlier pieces drawn are remembered for a few boards only)."""

    __slots__ = ("_catalog", "_earlier", "_lang", "earlier_key", "newest")

    def __init__(
        self,
        newest: Markup,
        earlier_key: tuple[SameEntries, BetweenItems],
        lang: str,
        catalog: Catalog,
    ) -> None:
        self.newest = newest
        self.earlier_key = earlier_key
        self._lang = lang
        self._catalog = catalog
        self._earlier: Markup | None = None

    def __getitem__(self, index: int) -> Markup:
        if index == 0:
            return self.newest
        if self._earlier is None:
            entries, between = self.earlier_key
            self._earlier = _log_earlier(entries, self._lang, self._catalog, between)
        return self._earlier


#: The room's happenings between the moves (`log_html`'s `between`), as a sorted tuple.
BetweenItems = tuple[tuple[int, Markup], ...]


@lru_cache(maxsize=VERSION_MEMO)
def _log_list(key: Same, lang: str, catalog: Catalog, between_items: BetweenItems) -> LogPieces:
    log: Sequence[LogEntry] = key.obj  # type: ignore[assignment]
    between = dict(between_items)
    numbers = move_numbers(log)
    split = len(log) // LOG_CHUNK * LOG_CHUNK
    newest = [between.get(len(log), Markup(""))]
    for index in reversed(range(split, len(log))):
        entry = log[index]
        newest.append(_entry_html(entry, lang, catalog, numbers[index]))
        newest.append(between.get(entry.seq, Markup("")))
    earlier_key = (SameEntries(tuple(log[:split])), between_items)
    return LogPieces(Markup("").join(newest), earlier_key, lang, catalog)


class SameEntries:
    """A cache key that matches only the very same log entries in the same order (kept alive
    by the key, so their ids cannot be reused while the entry is cached)."""

    __slots__ = ("_hash", "_ids", "entries")

    def __init__(self, entries: tuple[LogEntry, ...]) -> None:
        self.entries = entries
        self._ids = tuple(map(id, entries))
        self._hash = hash(self._ids)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SameEntries) and other._ids == self._ids


@lru_cache(maxsize=VERSION_MEMO)
def _log_earlier(
    key: SameEntries, lang: str, catalog: Catalog, between_items: BetweenItems
) -> Markup:
    """The moves before the newest ones, newest first: the same drawing for the `LOG_CHUNK`
    versions that share them (the log's entries are the same objects from version to version)."""
    log = key.entries
    between = dict(between_items)
    numbers = move_numbers(log)
    before: list[Markup] = []
    for index in reversed(range(len(log))):
        entry = log[index]
        before.append(_entry_html(entry, lang, catalog, numbers[index]))
        before.append(between.get(entry.seq, Markup("")))
    return Markup("").join(before)


def move_numbers(log: Sequence[LogEntry]) -> list[int | None]:
    """Each log entry's number: a move's step in the game as it stood then, None for a takeback."""
    numbers: list[int | None] = []
    in_force = 0
    for entry in log:
        if entry.move.get("type") == TAKEBACK:
            in_force -= int(entry.move["count"])
            numbers.append(None)
        else:
            in_force += 1
            numbers.append(in_force)
    return numbers


#: Counts `clear_caches` calls: the log entries' drawings of an earlier count are not used.
_drawn_generation = 0


def _entry_html(entry: LogEntry, lang: str, catalog: Catalog, number: int | None) -> Markup:
    """One move of the log drawn, kept on the entry itself (`LogEntry.drawn`) as text, which
    the collector does not track: an entry never changes once logged and lives as long as its
    room's position is remembered, so it is drawn once per language (again after `clear_caches`)."""
    key = f"{lang} {number} {_drawn_generation}"
    html = entry.drawn.get(key)
    if html is None:
        words = words_for(lang)
        lines = describe_events(words, entry.events, words.building_names(catalog))
        html = str(macros(lang).log_entry(entry.seq, entry.seat, lines, number))
        entry.drawn[key] = html
    return Markup(html)


@lru_cache(maxsize=65536)
def card_html(lang: str, tile: Tile, is_player: bool) -> Markup:
    """A building's card in the overview (a player's supply card opens its panel). The link is
    relative to the board's room, so one drawing serves every room."""
    return macros(lang).overview_card(tile, is_player)  # type: ignore[no-any-return]


@lru_cache(maxsize=65536)
def tile_html(lang: str, tile: Tile, extra_class: str, is_player: bool) -> Markup:
    """A building's tile on a wheel or among the locked ones (shared by every room, as a card)."""
    return macros(lang).tile_button(tile, extra_class, is_player)  # type: ignore[no-any-return]


#: Parts drawn for one group of viewers, kept for the room's other groups while the hub draws a
#: version (Le Havre's board): (part id, language, whether the viewer is a player, its key) ->
#: (HTML, digest).
Shared = dict[tuple[str, str, bool, Hashable], tuple[str, int]]


class PartMemo:
    """Parts of the board drawn in this process, by (part id, language, whether the viewer is a
    player, the part's key) -> (HTML, digest); the least recently used are forgotten past
    `size`. Only for a part whose key holds everything the part shows beyond the language and
    the viewer's being a player, and nothing of its room or version but marks for them
    (`app.ui.part_keys`): every board of every room then finds it drawn. Boards are drawn on the
    event loop and in worker threads, hence the lock."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._parts: OrderedDict[Hashable, tuple[str, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, memo: Hashable) -> tuple[str, int] | None:
        with self._lock:
            drawn = self._parts.get(memo)
            if drawn is not None:
                self._parts.move_to_end(memo)
            return drawn

    def put(self, memo: Hashable, drawn: tuple[str, int]) -> None:
        with self._lock:
            self._parts[memo] = drawn
            self._parts.move_to_end(memo)
            if len(self._parts) > self._size:
                self._parts.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._parts.clear()

    def __len__(self) -> int:
        return len(self._parts)


#: The parts every room's boards share (`PartMemo`): ~1.5 KB each, so ~25 MB at the most
#: (docs/performance.md measures what they save).
PARTS = PartMemo(16384)


def clear_caches() -> None:
    """Forget every drawn piece (the render benchmark measures first renders with it)."""
    global _drawn_generation
    _drawn_generation += 1
    for memo in (
        wheel.tile,
        cards.card_of,
        _log_list,
        _log_earlier,
        card_html,
        tile_html,
        templates.warehouse_cells,
        templates.drawn,
    ):
        memo.cache_clear()
    PARTS.clear()
