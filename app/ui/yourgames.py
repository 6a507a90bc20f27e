"""The home page's list of this browser's games (`app.reads.yourgames`), put into the viewer's words:
the opponent, the round, whose turn, the last activity, the result once finished."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from app.reads.yourgames import YourGame
from app.ui.words import words_for


@dataclass(frozen=True)
class GameRow:
    room_id: str
    opponent: str
    round: str
    state: str
    your_turn: bool
    finished: bool
    when: str
    iso: str


def opponent_text(lang: str, game: YourGame) -> str:
    t = words_for(lang).lang
    if game.opponent == "lehavre":
        return t.ngettext("Le Havre, %(num)s player", "Le Havre, %(num)s players", game.players)
    return {
        "friend": t.gettext("against a friend"),
        "waiting": t.gettext("waiting for your opponent"),
        "easy": t.gettext("against the computer (easy)"),
        "normal": t.gettext("against the computer (normal)"),
        "strong": t.gettext("against the computer (strong)"),
    }.get(game.opponent, game.opponent)


def state_text(lang: str, game: YourGame) -> str:
    """Whose turn it is, or how the game ended (with the score, yours first)."""
    words = words_for(lang)
    t = words.lang
    if game.ending == "aborted":
        return t.gettext("Aborted")
    if game.finished and game.players != 2 and game.scores:
        score = words.number(game.scores[game.seat])
        if game.winner == game.seat:
            return t.gettext("You won, %(score)s", score=score)
        return t.gettext("Game over, %(score)s", score=score)
    if game.finished and len(game.scores) == 2:
        yours, theirs = game.scores[game.seat], game.scores[1 - game.seat]
        score = f"{words.number(yours)}–{words.number(theirs)}"
        if game.winner is None:
            return t.gettext("Draw, %(score)s", score=score)
        if game.winner == game.seat:
            return t.gettext("You won, %(score)s", score=score)
        return t.gettext("You lost, %(score)s", score=score)
    if game.opponent == "waiting":
        return t.gettext("Not started")
    if game.your_turn:
        return t.gettext("Your turn")
    return t.gettext("Your opponent's turn")


def ago_text(lang: str, then: datetime, now: datetime) -> str:
    """How long ago `then` was: "just now", "5 minutes ago", "3 hours ago", "2 days ago"."""
    t = words_for(lang).lang
    minutes = max(0, int((now - then).total_seconds() // 60))
    if minutes < 1:
        return t.gettext("just now")
    if minutes < 60:
        return t.ngettext("%(num)s minute ago", "%(num)s minutes ago", minutes)
    hours = minutes // 60
    if hours < 24:
        return t.ngettext("%(num)s hour ago", "%(num)s hours ago", hours)
    days = hours // 24
    return t.ngettext("%(num)s day ago", "%(num)s days ago", days)


def game_rows(games: list[YourGame], lang: str, now: datetime | None = None) -> list[GameRow]:
    now = now or datetime.now(UTC)
    t = words_for(lang).lang
    return [
        GameRow(
            room_id=game.room_id,
            opponent=opponent_text(lang, game),
            round=t.gettext("Round %(letter)s", letter=game.round_letter),
            state=state_text(lang, game),
            your_turn=game.your_turn,
            finished=game.finished,
            when=ago_text(lang, game.updated_at, now),
            iso=game.updated_at.isoformat(),
        )
        for game in games
    ]
