"""A room's position in any game but Inland Port: its setup plus its moves, replayed through the
game's interface (`engine.games`) and cached per process like Inland Port's (`app.reads.positions`,
which also keeps Inland Port's move events).

The log rows are the game's canonical moves and, agreed by the other players, takebacks (the row
`app.reads.positions.takeback_text`: the last `n` moves in force are undone; the log itself is
never rewritten); the start is the room's setup (JSON). A position cached at version V stays true
for ever, so a newer version replays only the moves after V.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Row, or_, select
from sqlalchemy.orm import Session

from app.models import Move, Room, RoomEvent
from app.reads.positions import Played, PositionCache, takeback_count, takeback_entry
from app.reads.roomview import LogEntry
from engine.canonical import canonical_json
from engine.games import Game, game


@dataclass(frozen=True)
class GamePosition:
    """The position after the first `version` rows of a room's log, the log that led there, and
    the moves in force (`played`: a takeback row undoes the last ones)."""

    version: int
    state: Any
    log: tuple[LogEntry, ...]
    played: tuple[Played, ...] = ()
    game: str = field(default="", kw_only=True)
    """The game's id (`engine.games`), so that a move notified by another process can be followed
    (`follow_move`); "" for a position that is not kept."""


game_positions: PositionCache[GamePosition] = PositionCache(maxsize=4096)


@dataclass(frozen=True)
class ComputerTurn:
    """The computer is to move in `room_id`: its strength, its seat, the position (the game's
    own state) and its version."""

    room_id: str
    level: str
    seat: int
    version: int
    state: Any
    game: str = "inland_port"


def game_of(room: Room | Row[Any]) -> Game:
    return game(room.game)


def computer_seats(room: Room | Row[Any]) -> dict[int, str]:
    """The seats the computer plays in a room of another game, with its strength."""
    return {int(seat): strength for seat, strength in json.loads(room.computers).items()}


def computers_json(computers: Mapping[int, str]) -> str:
    """The computer's seats as a room stores them (`computer_seats` reads them back)."""
    return canonical_json({str(seat): strength for seat, strength in sorted(computers.items())})


def standins_of(events: Iterable[tuple[str, int | None]]) -> set[int]:
    """The seats the computer stands in for, from the room's log of happenings (kind, seat)."""
    seats: set[int] = set()
    for kind, seat in events:
        if kind == "standin_started" and seat is not None:
            seats.add(seat)
        elif kind == "standin_ended":
            seats.discard(seat)
    return seats


def standin_seats(session: Session, room: Room | Row[Any]) -> set[int]:
    """The seats the computer stands in for in a room of another game, where it may stand in
    for several absent players at once (`rooms.standin_seat` is one of them, None: none)."""
    if room.standin_seat is None:
        return set()
    rows = session.execute(
        select(RoomEvent.kind, RoomEvent.seat)
        .where(
            RoomEvent.room_id == room.id,
            RoomEvent.kind.in_(("standin_started", "standin_ended")),
        )
        .order_by(RoomEvent.seq)
    ).all()
    return standins_of((kind, seat) for kind, seat in rows)


def start_of(room: Room | Row[Any]) -> Any:
    """The room's start position: its game's start for its setup."""
    return game_of(room).start(json.loads(room.setup))


def entry_of(seq: int, seat: int, text: str) -> LogEntry:
    """The log entry of a move (the game's canonical text)."""
    return LogEntry(seq=seq, seat=seat, move=json.loads(text), events=[])


def game_position(session: Session, room: Room | Row[Any], version: int) -> GamePosition:
    """The position after the first `version` moves of `room`'s log."""
    cached = game_positions.get(room.id)
    if cached is not None and cached.version == version:
        return cached
    played: list[Played]
    if cached is not None and cached.version < version:
        state, log, start, played = cached.state, list(cached.log), cached.version, [*cached.played]
    else:
        state, log, start, played = start_of(room), [], 0, []
    rows = session.execute(
        select(Move.seq, Move.seat, Move.move)
        .where(Move.room_id == room.id, Move.seq >= start, Move.seq < version)
        .order_by(Move.seq)
    ).all()
    if len(rows) != version - start:
        raise RuntimeError(f"room {room.id}: the move log has a gap before version {version}")
    rules = game_of(room)
    for seq, seat, text in rows:
        count = takeback_count(text)
        if count is not None:
            del played[len(played) - count :]
            state = replay_played(room, played)
            log.append(takeback_entry(seq, seat, count))
            continue
        state = rules.apply(state, rules.parse(text))
        log.append(entry_of(seq, seat, text))
        played.append((seq, seat, text))
    found = GamePosition(version, state, tuple(log), tuple(played), game=room.game)
    return game_positions.put(room.id, found)


def follow_move(room_id: str, version: int, seat: int, text: str) -> bool:
    """Bring the cached position of a room of another game to `version` with the move that led
    there, made in another process (its notification carries it), as
    `app.reads.positions.remember_move` does for Inland Port: only a position cached at `version
    - 1` is advanced, else the next read replays the log. Returns whether it was advanced."""
    cached = game_positions.get(room_id)
    if cached is None or cached.version != version - 1 or takeback_count(text) is not None:
        return False
    rules = game(cached.game)
    remember_after(room_id, cached, seat, text, rules.apply(cached.state, rules.parse(text)))
    return True


def remember_after(
    room_id: str, before: GamePosition, seat: int, text: str, after: Any
) -> GamePosition:
    """Cache the position `after` the move `text` of `seat` made on `before` (the next read
    needs no replay)."""
    found = GamePosition(
        before.version + 1,
        after,
        (*before.log, entry_of(before.version, seat, text)),
        (*before.played, (before.version, seat, text)),
        game=before.game,
    )
    return game_positions.put(room_id, found)


def replay_played(room: Room | Row[Any], played: Sequence[Played]) -> Any:
    """The position the moves in force give, from the room's start."""
    rules = game_of(room)
    state = start_of(room)
    for _, _, text in played:
        state = rules.apply(state, rules.parse(text))
    return state


def final_result(session: Session, room: Room) -> dict[str, Any]:
    """A finished room's result: each seat's score and the winners (every seat with the best)."""
    scores = game_of(room).scores(game_position(session, room, room.version).state)
    return {
        "scores": scores,
        "winners": [seat for seat, score in enumerate(scores) if score == max(scores)],
    }


def legal_moves_now(session: Session, room: Room, seat: int) -> list[dict[str, Any]]:
    """The legal moves of `seat` as canonical JSON objects ([] when it is not its turn)."""
    rules = game_of(room)
    state = game_position(session, room, room.version).state
    if rules.to_move(state) != seat:
        return []
    return [json.loads(rules.canonical(move)) for move in rules.legal_moves(state)]


def computer_turn_in(session: Session, room: Room) -> tuple[bool, ComputerTurn | None]:
    """Whether the room of another game has a computer seat (its own, or one it stands in for
    at its steadier strength), and its turn when it is to move."""
    computers = computer_seats(room)
    for standin in standin_seats(session, room):
        computers.setdefault(standin, game_of(room).strengths[0])
    if not computers:
        return False, None
    if room.finished or room.ending is not None:
        return True, None
    state = game_position(session, room, room.version).state
    seat = game_of(room).to_move(state)
    if seat not in computers:
        return True, None
    return True, ComputerTurn(room.id, computers[seat], seat, room.version, state, room.game)


def computer_rooms_waiting(session: Session) -> list[str]:
    """The unfinished rooms of other games where the computer is to move (by the snapshot)."""
    rows = session.execute(
        select(Room.id, Room.computers, Room.standin_seat, Room.snapshot).where(
            Room.game != "inland_port",
            or_(Room.computers != "{}", Room.standin_seat.is_not(None)),
            Room.finished.is_(False),
        )
    ).all()
    waiting = []
    for room_id, computers, standin, snapshot in rows:
        current = json.loads(snapshot).get("current")
        if str(current) in json.loads(computers) or standin is not None:
            waiting.append(room_id)
    return waiting
