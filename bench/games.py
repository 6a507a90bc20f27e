"""Games played in memory and the room views a socket would get, for the board renderer's tests
(tests/app) and its benchmark (bench/render.py): no server, no database.

The log entries are shared from version to version, as the server's position cache shares them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import engine
from app.reads.roomview import LogEntry, RoomFacts, RoomView

Position = tuple[engine.GameState, tuple[LogEntry, ...]]


def positions(moves: int, choose: Callable[[Sequence[engine.Move]], engine.Move]) -> list[Position]:
    """Every position of a game of `moves` moves (fewer if it ends first), each move picked by
    `choose` among the legal ones (`random.Random(seed).choice` for a seeded random game)."""
    state = engine.new_game()
    log: list[LogEntry] = []
    result: list[Position] = [(state, ())]
    for seq in range(moves):
        seat = state.to_move
        if seat is None:
            break
        move = choose(engine.legal_moves(state))
        state, events = engine.apply_with_events(state, move)
        log.append(LogEntry(seq, seat, move.to_json(), [e.to_json() for e in events]))
        result.append((state, tuple(log)))
    return result


def sample_view(
    room: str,
    state: engine.GameState,
    log: tuple[LogEntry, ...],
    seat: int | None,
    *,
    base_url: str = "http://test",
    online: tuple[bool, bool] = (True, True),
    spectators: int = 1,
    spectator_token: str = "watch",
) -> RoomView:
    """The room as `seat` (None: a spectator) sees it, both seats taken, no rematch."""
    player = seat is not None
    facts = RoomFacts(
        room_id=room,
        version=len(log),
        seats_claimed=(True, True),
        online=online,
        spectators=spectators,
        open_invites=frozenset(),
        rematch_offered_by=(False, False),
        rematch_room_id=None,
        computer=None,
        computer_seat=None,
    )
    return RoomView(
        facts=facts,
        version=len(log),
        state=state,
        viewer_seat=seat,
        log=log,
        invite_link=None,
        spectator_link=f"{base_url}/w/{spectator_token}" if player else None,
        seat_link=f"{base_url}/s/seat" if player else None,
        rematch=None,
    )
