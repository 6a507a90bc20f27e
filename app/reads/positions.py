"""A room's position is its start plus its moves: the replay of the log, cached per process.

The log holds the engine's moves and, agreed by both players, *takebacks*: a row whose move is
`{"type": "takeback", "count": n}` undoes the last `n` moves in force (the log itself is never
rewritten). Replaying the log applies the moves and, at a takeback, goes back to the position
before those `n` moves; `effective_of` gives the moves in force, the game as it stands.

The start is the new game of the room's own catalog (`app.reads.catalogs.of_room`).

Each process keeps the latest replayed position of each room it served (`positions`, an LRU).
The log is append-only, so a position cached at version V stays true for ever and a newer
version only needs the moves after V. `remember_move` advances a cached position with a move
made in another process (its notification carries the move), without reading the log.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from app.models import Move, Room
from app.reads import catalogs
from app.reads.roomview import LogEntry

V = TypeVar("V")


TAKEBACK = "takeback"
"""The type of a log row that takes moves back."""

Played = tuple[int, int, str]
"""A move in force: its seq in the log, its seat and its canonical text."""


def takeback_text(count: int) -> str:
    """The log row's text of a takeback of the last `count` moves in force."""
    return json.dumps({"count": count, "type": TAKEBACK}, separators=(",", ":"), sort_keys=True)


def takeback_count(text: str) -> int | None:
    """How many moves a log row takes back (None: the row is an engine move)."""
    if TAKEBACK not in text:
        return None
    data = json.loads(text)
    if isinstance(data, dict) and data.get("type") == TAKEBACK:
        return int(data["count"])
    return None


def effective_of(rows: Iterable[tuple[int, int, str]]) -> list[Played]:
    """The moves in force after the log rows `(seq, seat, text)`, oldest first."""
    played: list[Played] = []
    for seq, seat, text in rows:
        count = takeback_count(text)
        if count is None:
            played.append((seq, seat, text))
        else:
            del played[len(played) - count :]
    return played


def own_moves_to_take_back(played: Sequence[Played], seat: int, start_moves: int) -> int:
    """The number of `seat`'s own moves in force since the opponent last acted (the moves of a
    fork's start record excepted): what `seat` may ask to take back."""
    count = 0
    for seq, by, _ in reversed(played):
        if by != seat or seq < start_moves:
            break
        count += 1
    return count


def replay_played(played: Sequence[Played], catalog: engine.Catalog) -> engine.GameState:
    """The position the moves in force give, from the new game of the room's `catalog`."""
    state = engine.new_game(catalog)
    for _, _, text in played:
        state = engine.apply(state, engine.parse_move(text, catalog))
    return state


@dataclass(frozen=True)
class Position:
    """The position after the first `version` rows of the log, the log that led there, and the
    moves in force (`played`)."""

    version: int
    state: engine.GameState
    log: tuple[LogEntry, ...]
    played: tuple[Played, ...] = ()


class Memory(Generic[V]):
    """A bounded map from strings, forgetting the least recently used first; thread-safe."""

    def __init__(self, maxsize: int) -> None:
        self._items: OrderedDict[str, V] = OrderedDict()
        self._lock = threading.Lock()
        self._maxsize = maxsize

    def get(self, key: str) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: str, value: V) -> V:
        with self._lock:
            current = self._items.get(key)
            if current is None or self._replaces(value, current):
                self._items[key] = value
                self._items.move_to_end(key)
            while len(self._items) > self._maxsize:
                self._items.popitem(last=False)
        return value

    def forget(self, keep: Callable[[V], bool]) -> None:
        """Drop every item for which `keep` is false."""
        with self._lock:
            for key in [key for key, value in self._items.items() if not keep(value)]:
                del self._items[key]

    def clear(self) -> None:
        """Forget everything (the next read of each room replays its log)."""
        with self._lock:
            self._items.clear()

    def _replaces(self, new: V, old: V) -> bool:
        return True


class Versioned(Protocol):
    @property
    def version(self) -> int: ...


P = TypeVar("P", bound=Versioned)


class PositionCache(Memory[P]):
    """The latest replayed position per room: a newer version replaces an older one, never back."""

    def _replaces(self, new: P, old: P) -> bool:
        return new.version >= old.version


positions: PositionCache[Position] = PositionCache(maxsize=4096)


def takeback_entry(seq: int, seat: int, count: int) -> LogEntry:
    """The log entry of `seat`'s last `count` moves taken back (the opponent agreed)."""
    return LogEntry(
        seq=seq,
        seat=seat,
        move={"type": TAKEBACK, "count": count},
        events=[{"kind": TAKEBACK, "seat": seat, "count": count}],
    )


def log_entry(seq: int, seat: int, move: engine.Move, events: tuple[engine.Event, ...]) -> LogEntry:
    return LogEntry(
        seq=seq, seat=seat, move=move.to_json(), events=[event.to_json() for event in events]
    )


def position(session: Session, room_id: str, version: int) -> Position:
    """The position after the first `version` moves of the room's log."""
    cached = positions.get(room_id)
    if cached is not None and cached.version == version:
        return cached
    played: list[Played]
    if cached is not None and cached.version < version:
        state, log, start = cached.state, list(cached.log), cached.version
        played = list(cached.played)
    else:
        start_state = engine.new_game(room_catalog(session, room_id, cached))
        state, log, start, played = start_state, [], 0, []
    rows = session.execute(
        select(Move.seq, Move.seat, Move.move)
        .where(Move.room_id == room_id, Move.seq >= start, Move.seq < version)
        .order_by(Move.seq)
    ).all()
    if len(rows) != version - start:
        raise RuntimeError(f"room {room_id}: the move log has a gap before version {version}")
    for seq, seat, text_move in rows:
        count = takeback_count(text_move)
        if count is not None:
            del played[len(played) - count :]
            state = replay_played(played, state.catalog)
            log.append(takeback_entry(seq, seat, count))
            continue
        move = engine.parse_move(text_move)
        state, events = engine.apply_with_events(state, move)
        log.append(log_entry(seq, seat, move, events))
        played.append((seq, seat, text_move))
    found = Position(version=version, state=state, log=tuple(log), played=tuple(played))
    positions.put(room_id, found)
    return found


def room_catalog(session: Session, room_id: str, cached: Position | None) -> engine.Catalog:
    """The catalog the room is pinned to (`app.reads.catalogs`): its numbers never change."""
    if cached is not None:
        return cached.state.catalog
    room = session.get(Room, room_id)
    if room is None:
        raise RuntimeError(f"room {room_id}: no such room")
    return catalogs.of_room(room)


def remember_move(room_id: str, version: int, seat: int, move: str) -> bool:
    """Bring the cached position of a room to `version` with the move that led there.

    For a move made in another process (its notification carries the move). Only a position
    cached at `version - 1` is advanced; otherwise nothing happens and the next read replays
    the log. Returns whether the cache was advanced.
    """
    cached = positions.get(room_id)
    if cached is None or cached.version != version - 1 or takeback_count(move) is not None:
        return False
    parsed = engine.parse_move(move)
    state, events = engine.apply_with_events(cached.state, parsed)
    entry = log_entry(cached.version, seat, parsed, events)
    played = (*cached.played, (cached.version, seat, move))
    positions.put(room_id, Position(version, state, (*cached.log, entry), played))
    return True
