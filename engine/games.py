"""The small interface the server needs from any game, and the games this engine plays.

A game is its setup plus its moves. The server stores a room's game id, its setup (JSON) and its
canonical moves, and asks the game only this: the start position of a setup, the player to move,
a move parsed and applied (or refused with an ``IllegalMove`` / ``MalformedMove``), its canonical
text, the legal moves, whether the game is over, the scores and the summary JSON. A third game
adds a class here and a package beside ``engine.lehavre``; the server does not change.

Inland Port's catalog is chosen per room by the server (``setup`` is then ``{}``); Le Havre's
setup is the JSON object of docs/le-havre/spec.md §3, its catalog the package's own.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache, partial
from typing import Any, ClassVar, Protocol

from . import lehavre
from .ai import LEVELS, choose_move
from .analysis import TurnReview
from .analysis import review_turn as inland_review_turn
from .analysis import turns_of as inland_turns
from .canonical import canonical_json
from .catalog import Catalog, content_hash, default_catalog
from .errors import IllegalMove, MalformedMove
from .gamerecord import CatalogFinder, GameRecord, RecordEnding
from .lehavre import ai as lehavre_ai
from .lehavre import analysis as lehavre_analysis
from .lehavre import record as lehavre_record
from .lehavre.loader import DEFAULT_PATH as LEHAVRE_CATALOG
from .moves import canonical as inland_canonical
from .moves import parse_move as inland_parse
from .notation import record_text as inland_record_text
from .record import read_record as inland_read_record
from .record import record_json as inland_record_json
from .rules import apply as inland_apply
from .rules import legal_moves as inland_legal
from .state import is_finished as inland_finished
from .state import new_game as inland_new_game
from .state import scores as inland_scores
from .state import summary as inland_summary


class Refusal(Protocol):
    """What a game's refusal of a move carries (both kinds, each game's own ``ValueError``): a
    stable code and JSON params, put into words by the server."""

    code: str
    params: dict[str, Any]


class Game(Protocol):
    """What the server asks of a game. States and moves are the game's own (opaque here)."""

    id: ClassVar[str]
    #: The exceptions the game refuses a move with (each a `Refusal`).
    refusals: ClassVar[tuple[type[ValueError], ...]]
    #: The player counts the game is played with, smallest first.
    player_counts: ClassVar[tuple[int, ...]]
    #: The variants ("full", "short"...) the game is played in; the first is the default.
    variants: ClassVar[tuple[str, ...]]
    #: The computer player's strengths, weakest first.
    strengths: ClassVar[tuple[str, ...]]

    def choose(self, state: Any, strength: str, rng: random.Random) -> Any:
        """The computer's move at `strength` for the player to move (randomness from `rng`)."""
        ...

    def random_setup(self, players: int, variant: str, seed: int | None) -> dict[str, Any]: ...

    def numbers(self) -> tuple[str, str]:
        """The id and SHA-256 of the numbers a game started without a catalog is played with."""
        ...

    def start(self, setup: Mapping[str, Any], catalog: Any = None) -> Any: ...

    def to_move(self, state: Any) -> int | None: ...

    def parse(self, move: Any) -> Any: ...

    def canonical(self, move: Any) -> str: ...

    def apply(self, state: Any, move: Any) -> Any: ...

    def legal_moves(self, state: Any) -> list[Any]: ...

    def finished(self, state: Any) -> bool: ...

    def scores(self, state: Any) -> list[int]: ...

    def summary(self, state: Any) -> dict[str, Any]: ...

    #: The kinds of file the game's record is written in ("json", "txt"), the first the main one.
    record_kinds: ClassVar[tuple[str, ...]]
    #: Whether a record of a game under way shows nothing the table does not (False: its setup
    #: holds what is still hidden, and it is given out only once the game is over).
    record_while_playing: ClassVar[bool]

    def is_record(self, text: str) -> bool:
        """Whether `text` is meant as a record of this game (`record_game`)."""
        ...

    def record_of(
        self,
        setup: Mapping[str, Any],
        seats: tuple[str, ...],
        moves: Sequence[str],
        ending: RecordEnding | None,
        catalog: Any = None,
    ) -> Any:
        """The game record of a setup, its seats' names, its canonical moves and how it ended
        early. A record has `moves` (each a position of the game), `prefix(at)`, `ending` and
        `seats`."""
        ...

    def read_record(self, text: str, catalogs: CatalogFinder | None = None) -> Any:
        """A record read and replayed (`engine.gamerecord.RecordError` names what is wrong)."""
        ...

    def write_record(self, record: Any, kind: str, catalog: Any = None) -> str: ...

    def record_start(self, record: Any, catalog: Any = None) -> tuple[dict[str, Any], list[Any]]:
        """The setup (JSON) a record's game starts from, and each of its positions."""
        ...

    def analysis_turns(
        self, setup: Mapping[str, Any], moves: Sequence[str], catalog: Any = None
    ) -> list[Any]:
        """The turns of a game its analysis weighs, one at a time (`turn_reviewer`)."""
        ...

    def turn_reviewer(self, iterations: int, horizon: int) -> Callable[[Any], TurnReview]:
        """What weighs one turn: a pure function of it that any worker process can run.
        `iterations` and `horizon` are Inland Port's search budget; Le Havre's strong player
        works with its own fixed one."""
        ...


class InlandPort:
    """*Le Havre: The Inland Port* (2012), two players; the catalog is the room's (SPEC.md)."""

    id: ClassVar[str] = "inland_port"
    refusals: ClassVar[tuple[type[ValueError], ...]] = (MalformedMove, IllegalMove)
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    variants: ClassVar[tuple[str, ...]] = ("standard",)
    strengths: ClassVar[tuple[str, ...]] = LEVELS

    def choose(self, state: Any, strength: str, rng: random.Random) -> Any:
        return choose_move(state, level=strength, rng=rng)

    def random_setup(self, players: int, variant: str, seed: int | None) -> dict[str, Any]:
        """Inland Port has no chance: every game starts alike."""
        _check_choice("players", players, self.player_counts)
        _check_choice("variant", variant, self.variants)
        return {}

    def numbers(self) -> tuple[str, str]:
        catalog = default_catalog()
        return catalog.name, catalog.sha256

    def start(self, setup: Mapping[str, Any], catalog: Catalog | None = None) -> Any:
        return inland_new_game(catalog)

    def to_move(self, state: Any) -> int | None:
        return state.to_move  # type: ignore[no-any-return]

    def parse(self, move: Any) -> Any:
        return inland_parse(move)

    def canonical(self, move: Any) -> str:
        return inland_canonical(move)

    def apply(self, state: Any, move: Any) -> Any:
        return inland_apply(state, move)

    def legal_moves(self, state: Any) -> list[Any]:
        return list(inland_legal(state))

    def finished(self, state: Any) -> bool:
        return inland_finished(state)

    def scores(self, state: Any) -> list[int]:
        return list(inland_scores(state))

    def summary(self, state: Any) -> dict[str, Any]:
        return inland_summary(state)

    record_kinds: ClassVar[tuple[str, ...]] = ("json", "txt")
    record_while_playing: ClassVar[bool] = True

    def is_record(self, text: str) -> bool:
        """Any text not another game's: JSON or the notation (docs/notation.md)."""
        return True

    def record_of(
        self,
        setup: Mapping[str, Any],
        seats: tuple[str, ...],
        moves: Sequence[str],
        ending: RecordEnding | None,
        catalog: Catalog | None = None,
    ) -> GameRecord:
        return GameRecord.of(moves, seats=(seats[0], seats[1]), catalog=catalog, ending=ending)

    def read_record(self, text: str, catalogs: CatalogFinder | None = None) -> GameRecord:
        return inland_read_record(text, catalogs)

    def write_record(self, record: Any, kind: str, catalog: Catalog | None = None) -> str:
        write = inland_record_json if kind == "json" else inland_record_text
        return write(record, catalog)

    def record_start(
        self, record: Any, catalog: Catalog | None = None
    ) -> tuple[dict[str, Any], list[Any]]:
        return {}, record.positions(catalog)

    def analysis_turns(
        self, setup: Mapping[str, Any], moves: Sequence[str], catalog: Catalog | None = None
    ) -> list[Any]:
        return list(inland_turns(moves, catalog))

    def turn_reviewer(self, iterations: int, horizon: int) -> Callable[[Any], TurnReview]:
        return partial(inland_review_turn, iterations=iterations, horizon=horizon)


class LeHavre:
    """*Le Havre* (2008), one to five players, the full or the short game (docs/le-havre/spec.md)."""

    id: ClassVar[str] = "lehavre"
    refusals: ClassVar[tuple[type[ValueError], ...]] = (lehavre.MalformedMove, lehavre.IllegalMove)
    player_counts: ClassVar[tuple[int, ...]] = (1, 2, 3, 4, 5)
    variants: ClassVar[tuple[str, ...]] = ("full", "short")
    strengths: ClassVar[tuple[str, ...]] = tuple(lehavre_ai.STRENGTHS)

    def choose(self, state: Any, strength: str, rng: random.Random) -> Any:
        return lehavre_ai.choose(state, strength, rng)

    def random_setup(self, players: int, variant: str, seed: int | None) -> dict[str, Any]:
        _check_choice("players", players, self.player_counts)
        _check_choice("variant", variant, self.variants)
        return lehavre.random_setup(players, variant, seed).to_json()

    def numbers(self) -> tuple[str, str]:
        return "lehavre", _lehavre_sha256()

    def start(self, setup: Mapping[str, Any], catalog: Any = None) -> Any:
        return lehavre.new_game(lehavre.Setup.from_json(setup))

    def to_move(self, state: Any) -> int | None:
        return lehavre.current_player(state)

    def parse(self, move: Any) -> Any:
        return lehavre.parse_move(move)

    def canonical(self, move: Any) -> str:
        return canonical_json(lehavre.canonical(lehavre.parse_move(move)))

    def apply(self, state: Any, move: Any) -> Any:
        return lehavre.apply(state, move)

    def legal_moves(self, state: Any) -> list[Any]:
        return list(lehavre.legal_moves(state))

    def finished(self, state: Any) -> bool:
        return lehavre.is_finished(state)

    def scores(self, state: Any) -> list[int]:
        return list(lehavre.scores(state))

    def summary(self, state: Any) -> dict[str, Any]:
        return lehavre.summary(state)

    record_kinds: ClassVar[tuple[str, ...]] = ("json",)
    #: The setup orders the face-down supply tiles and the special buildings.
    record_while_playing: ClassVar[bool] = False

    def is_record(self, text: str) -> bool:
        return lehavre_record.is_record(text)

    def record_of(
        self,
        setup: Mapping[str, Any],
        seats: tuple[str, ...],
        moves: Sequence[str],
        ending: RecordEnding | None,
        catalog: Any = None,
    ) -> lehavre_record.LeHavreRecord:
        parsed = tuple(lehavre.parse_move(m) for m in moves)
        return lehavre_record.LeHavreRecord(lehavre.Setup.from_json(setup), seats, parsed, ending)

    def read_record(
        self, text: str, catalogs: CatalogFinder | None = None
    ) -> lehavre_record.LeHavreRecord:
        return lehavre_record.read_record(text)

    def write_record(self, record: Any, kind: str, catalog: Any = None) -> str:
        if kind != "json":
            raise ValueError(f"a Le Havre record is JSON, not {kind!r}")
        return lehavre_record.record_json(record)

    def record_start(self, record: Any, catalog: Any = None) -> tuple[dict[str, Any], list[Any]]:
        return record.setup.to_json(), record.positions()

    def analysis_turns(
        self, setup: Mapping[str, Any], moves: Sequence[str], catalog: Any = None
    ) -> list[Any]:
        return list(lehavre_analysis.turns_of(lehavre.Setup.from_json(setup), moves))

    def turn_reviewer(self, iterations: int, horizon: int) -> Callable[[Any], TurnReview]:
        return lehavre_analysis.review_turn


GAMES: dict[str, Game] = {game.id: game for game in (InlandPort(), LeHavre())}
"""Every game by its id."""


def game(game_id: str) -> Game:
    """The game `game_id` (``KeyError`` for one this engine does not play)."""
    return GAMES[game_id]


def record_game(text: str) -> Game:
    """The game a record's text is of: the first game that takes it as its own (Inland Port,
    whose records are any JSON or text not another game's, last)."""
    return next(g for g in reversed(GAMES.values()) if g.is_record(text))


def summary_json(game: Game, state: Any) -> str:
    """The summary as canonical JSON (sorted keys, no spaces): what a room stores as its snapshot."""
    return canonical_json(game.summary(state))


@cache
def _lehavre_sha256() -> str:
    return content_hash(json.loads(LEHAVRE_CATALOG.read_text(encoding="utf-8")))


def _check_choice(name: str, value: object, allowed: tuple[object, ...]) -> None:
    if value not in allowed or isinstance(value, bool):
        shown = ", ".join(str(a) for a in allowed)
        raise ValueError(f"{name} must be one of {shown}, not {value!r}")
