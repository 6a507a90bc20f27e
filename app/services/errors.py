"""The requests a room refuses: every one a `ServiceError`, its message for the player.

`RoomNotFound`, `InvalidLink`, `SeatTaken`, `NotYourTurn`, `StaleVersion`, `MoveRefused`,
`RematchRefused`, `NotAnalysable`. The routes map them to HTTP statuses (`app.routes.refusals`).
"""

from __future__ import annotations


class ServiceError(Exception):
    """A request the rules of the room refuse; the message is for the player."""


class RoomNotFound(ServiceError):
    def __init__(self, room_id: str) -> None:
        super().__init__("There is no such room.")
        self.room_id = room_id


class InvalidLink(ServiceError):
    def __init__(self) -> None:
        super().__init__("This link is not valid.")


class SeatTaken(ServiceError):
    def __init__(self, room_id: str) -> None:
        super().__init__("This invite was already used: the seat is taken.")
        self.room_id = room_id


class NotYourTurn(ServiceError):
    """A move by a spectator, a stranger, the player not to move, or after the game ended."""


class StaleVersion(ServiceError):
    def __init__(self, room_id: str, current_version: int) -> None:
        super().__init__(
            f"The board changed: it is now at version {current_version}. Look again and retry."
        )
        self.room_id = room_id
        self.current_version = current_version


class MoveRefused(ServiceError):
    """The engine refused the move (malformed or illegal); the message is the engine's reason."""


class RematchRefused(ServiceError):
    pass


class NotAnalysable(ServiceError):
    """The game can still change: only finished games and imported records are analysed."""
