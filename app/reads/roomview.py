"""Everything a page or a socket needs to draw one room for one viewer.

`app.reads.queries.load_room_view` builds a `RoomView`; `app.ui.board.render_board` turns it into HTML.
A view is the room's `RoomFacts` (the same for every viewer: one database read serves all the
sockets of a room) plus the position and what only this viewer sees (its own links). All of
them are frozen values: safe to hand to a template, another thread or a cache.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from engine import GameState

ViewerKind = Literal["seat", "spectator", "invite"]


@dataclass(frozen=True)
class Viewer:
    """Who holds a token: a player's seat, a spectator, or an invite that may claim a seat.

    `token` is the secret itself (it is needed to show the viewer its own links again: the
    database only stores hashes). An invite whose seat is already taken reads as a spectator
    with `seat_taken=True`.
    """

    room_id: str
    seat: int | None
    kind: ViewerKind
    token: str
    seat_taken: bool = False


@dataclass(frozen=True)
class LogEntry:
    """One move of the log: its sequence number (0-based), who made it, and what happened."""

    seq: int
    seat: int
    move: dict[str, Any]
    events: list[dict[str, Any]]
    #: The entry as the move log shows it, by language (`app.ui.cache`).
    drawn: dict[str, str] = field(default_factory=dict, init=False, compare=False, repr=False)


@dataclass(frozen=True)
class RoomEventEntry:
    """A happening of the room that is not a move (`app.services.events`): its kind, the seat
    it concerns, and after how many moves it happened."""

    seq: int
    kind: str
    seat: int | None
    at_version: int


@dataclass(frozen=True)
class Ending:
    """How a game ended before its last move: "resigned", "claimed" (the opponent left) or
    "aborted" (no result), the seat whose act ended it, and the winner (None: no result)."""

    kind: str
    seat: int

    @property
    def winner(self) -> int | None:
        if self.kind == "resigned":
            return 1 - self.seat
        if self.kind == "claimed":
            return self.seat
        return None


@dataclass(frozen=True)
class RematchInfo:
    """The rematch offered after a finished game.

    `offered_by[s]` is True once seat `s` asked for it; when every player did, `room_id` is the
    new room (Inland Port: the same players, seats swapped so the other player moves first;
    another game: each player in their seat) and `seat_link` is this viewer's link into it
    (None for spectators).
    """

    offered_by: tuple[bool, ...]
    room_id: str | None
    seat_link: str | None


@dataclass(frozen=True)
class RoomView:
    """One room as one viewer sees it right now: the room's `facts` (alike for every viewer),
    the position, and what only this viewer sees (its seat, its own links)."""

    facts: RoomFacts
    version: int
    #: The position: the game's own state (`engine.GameState` for Inland Port).
    state: GameState
    viewer_seat: int | None
    log: tuple[LogEntry, ...]
    invite_link: str | None
    spectator_link: str | None
    seat_link: str | None
    rematch: RematchInfo | None
    seat_taken: bool = False
    #: The invite links this player may still hand out, by seat (`invite_link` is the first).
    invite_links: tuple[tuple[int, str], ...] = ()
    #: An imported record's review link (`/r/...`): the one link of the room, held by all its
    #: viewers.
    review_link: str | None = None
    #: Whether the move log shows all the room's happenings (the review) or the newest only.
    all_events: bool = False

    @property
    def room_id(self) -> str:
        return self.facts.room_id

    def moves_in_force(self) -> list[LogEntry]:
        """The log's entries of the moves in force, oldest first: a takeback's row takes its
        moves out (`app.reads.positions.effective_of` does the same for the move texts)."""
        played: list[LogEntry] = []
        for entry in self.log:
            if entry.move.get("type") == "takeback":
                del played[len(played) - int(entry.move["count"]) :]
            else:
                played.append(entry)
        return played

    def with_facts(self, **changes: Any) -> RoomView:
        """This view with some of the room's facts changed (the review's past positions, tests)."""
        return replace(self, facts=replace(self.facts, **changes))

    @property
    def started(self) -> bool:
        """The game starts when both seats are taken."""
        return all(self.facts.seats_claimed)

    @property
    def over(self) -> bool:
        """The game ended: its last move was played, or it ended early (`ending`)."""
        return self.facts.ending is not None or self.state.to_move is None


@dataclass(frozen=True)
class RoomFacts:
    """What every viewer of a room sees alike, apart from the position: seats, presence, rematch.

    `open_invites` holds the hashes of the room's unused invite links (a player is shown its
    invite link only while it is unused). `version` is the room's version when this was read.
    """

    room_id: str
    version: int
    seats_claimed: tuple[bool, ...]
    online: tuple[bool, ...]
    spectators: int
    open_invites: frozenset[str]
    rematch_offered_by: tuple[bool, ...]
    rematch_room_id: str | None
    computer: str | None
    computer_seat: int | None
    host_seat: int | None = None
    ending: Ending | None = None
    standin_seat: int | None = None
    events: tuple[RoomEventEntry, ...] = ()
    seats_held: tuple[bool, ...] = (False, False)
    start_moves: int = 0
    absent: tuple[bool, ...] = (False, False)
    takeback_seat: int | None = None
    #: "import" for a record opened read-only, "fork" for a game played on from another's.
    origin: str | None = None
    #: The game the room plays (an `engine.games` id) and its number of seats.
    game: str = "inland_port"
    players: int = 2
    #: The computer's seats in a room of another game, with its strength, by seat.
    computers: tuple[tuple[int, str], ...] = ()
