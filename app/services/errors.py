"""The requests a room refuses: each a `ServiceError` with a refusal ``code`` (a key of
`app.refusals.table.REFUSALS`, which holds its HTTP status and its words in each language) and
its JSON ``params``; the classes below group the codes by where they arise.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import IllegalMove, MalformedMove
from engine.games import Refusal


class ServiceError(Exception):
    """A request the rules of the room refuse: ``code``, ``params`` and, when its raiser already
    has one, ``reason``: its English sentence (the engine's own, for a move the engine refused)."""

    code = ""
    """The refusal's code when none is given (a key of ``app.refusals.table.REFUSALS``)."""
    game: str | None = None
    """The game whose rules refused (its codes have their own words); None: the platform's or
    Inland Port's."""

    def __init__(
        self,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
        *,
        reason: str | None = None,
    ) -> None:
        self.code = code or type(self).code
        self.params: dict[str, Any] = dict(params or {})
        self.reason = reason
        super().__init__(reason or (f"{self.code} {self.params}" if params else self.code))


class _InRoom(ServiceError):
    """A refusal that names its room (``room_id``) and has no params."""

    def __init__(self, room_id: str) -> None:
        super().__init__()
        self.room_id = room_id


class RoomNotFound(_InRoom):
    code = "room_not_found"


class InvalidLink(ServiceError):
    code = "invalid_link"


class SeatTaken(_InRoom):
    code = "seat_taken"


class InviteClosed(_InRoom):
    """An invite of a room that ended (aborted, resigned, won) before the guest took the seat."""

    code = "invite_closed"


class NotYourTurn(ServiceError):
    """A move by a spectator or a stranger (``not_a_player``), by the player not to move
    (``not_your_turn``), or after the game ended (``game_over``)."""

    code = "not_your_turn"


class StaleVersion(ServiceError):
    code = "stale_version"

    def __init__(self, room_id: str, current_version: int) -> None:
        super().__init__(params={"current_version": current_version})
        self.room_id = room_id
        self.current_version = current_version


class NotInThisGame(_InRoom):
    """What the room's game does not offer (Inland Port's room life, review and records, for now)."""

    code = "not_in_this_game"


class MoveRefused(ServiceError):
    """A move the engine refused (malformed or illegal: its code, params and English sentence),
    or a ``client_move_id`` the room cannot keep (``bad_client_move_id``)."""

    @classmethod
    def by_engine(cls, refusal: MalformedMove | IllegalMove) -> MoveRefused:
        """Inland Port's refusal, with the engine's own English sentence."""
        return cls(refusal.code, refusal.params, reason=str(refusal))

    @classmethod
    def by_game(cls, game: str, refusal: Refusal) -> MoveRefused:
        """The refusal of another game's engine: its words are the game's (`app.refusals`)."""
        refused = cls(refusal.code, refusal.params)
        refused.game = game
        return refused


class ClientMoveIdReused(ServiceError):
    """A `client_move_id` this seat already used, sent again with another move."""

    code = "client_move_id_reused"


class RematchRefused(ServiceError):
    code = "rematch_refused"


class AnalysesBusy(ServiceError):
    """As many analyses as the server runs at once are under way: try again later."""

    code = "analyses_busy"


class TooManyAnalyses(ServiceError):
    """This address asked for many new analyses in a short time (params: retry_after)."""

    code = "too_many_analyses"


class NotAnalysable(ServiceError):
    """The game can still change: only finished games and imported records are analysed."""

    code = "not_analysable"


class UnknownCatalog(ServiceError):
    """A new room asked for a catalog this server does not have."""

    code = "unknown_catalog"

    def __init__(self, catalog_id: str) -> None:
        super().__init__(params={"catalog": catalog_id})


class CatalogMissing(ServiceError):
    """The room is pinned to numbers (catalog id and SHA-256) this server does not have."""

    code = "catalog_missing"

    def __init__(self, room_id: str, catalog_id: str) -> None:
        super().__init__(params={"catalog": catalog_id})
        self.room_id = room_id


class NoAccess(ServiceError):
    """A JSON API request without a token (``needs_token``), with a token of another room
    (``wrong_token``), or with a spectator's token where a seat's is needed (``not_a_player``)."""


class ReissueRefused(ServiceError):
    """A new seat link asked for by someone but the host (``not_the_host``), for a seat no
    person holds (``no_seat_to_reissue``), or once too often (``too_many_reissues``
    ``{"limit"}``)."""

    code = "not_the_host"


class NotStarted(ServiceError):
    """A move before both seats are taken: the game has not started."""

    code = "not_started"


class EndingRefused(ServiceError):
    """A resignation, abort or claim the room does not allow now (the code says why)."""

    code = "game_over"
