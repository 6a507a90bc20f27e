"""One building's legal moves as the choices a player makes, and back to exactly one move.

The engine lists every legal move as one canonical move; a player instead thinks "build it, paying
with this", "use it with 2 steps of fish and 2 of wood". A `ChoiceGroup` holds the legal moves of
one building and one action, offers their fields (`app.ui.fields`) as form controls, and maps the
values a player picked back to exactly one move *from that list*. The browser never decides what
is legal: a combination that is not in the list gets a reason instead of a move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import GameState, Move

from .fields import FIELDS, Control, Field
from .words import Words, words_for

Key = tuple[tuple[str, str], ...]
"""A move's choice as sorted form values."""


def _settled(values: dict[str, str]) -> dict[str, str]:
    """A move done 0 times names no good (weekly market): its good is no choice."""
    if values.get("times") == "0":
        values.pop("good", None)
    return values


class ChoiceGroup:
    """The legal moves of one building and one action type, with their choice keys."""

    def __init__(self, state: GameState, moves: Sequence[Move], words: Words | None = None) -> None:
        self.state = state
        self.words = words or words_for()
        self.moves = list(moves)
        data = [m.to_json() for m in self.moves]
        self.fields: list[Field] = [
            kind(data) for name, kind in FIELDS.items() if any(name in d for d in data)
        ]
        self.keys: list[Key] = [self._key(d) for d in data]
        self._default = max(
            range(len(data)), key=lambda i: (sum(f.amount(data[i]) for f in self.fields), -i)
        )

    def _key(self, move: Mapping[str, object]) -> Key:
        values: dict[str, str] = {}
        for field in self.fields:
            values.update(field.values(move))
        return tuple(sorted(_settled(values).items()))

    def selection(self, form: Mapping[str, str] | None) -> dict[str, str]:
        """The values picked in the form; an untouched form starts from the move that does the
        most (most goods, times, repetitions)."""
        base = dict(self.keys[self._default])
        if form is None:
            return base
        picked: dict[str, str] = {}
        for field in self.fields:
            picked.update(field.pick(form, base))
        return _settled(picked)

    def find(self, picked: Mapping[str, str]) -> int | None:
        """The index of the move the picked values choose, None when they choose none."""
        wanted = tuple(sorted(picked.items()))
        return next((i for i, key in enumerate(self.keys) if key == wanted), None)

    def controls(self, picked: Mapping[str, str], need: int) -> tuple[Control, ...]:
        """The form's controls; ``need`` is what a build costs (a payment over it overpays)."""
        return tuple(
            control
            for field in self.fields
            for control in field.controls(picked, self.state, self.words, need)
        )

    def problem(self, picked: Mapping[str, str]) -> str:
        """Why the picked values are not one of the legal moves."""
        t = self.words.lang
        for field in self.fields:
            if field.counts and not all(picked[n].isdigit() for n in field.names if n in picked):
                return t.gettext("Enter whole numbers only.")
        for field in self.fields:
            problem = field.problem(picked, self.words)
            if problem:
                return problem
        return t.gettext("That combination is not possible right now.")
