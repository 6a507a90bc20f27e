"""The two kinds of bad input, both ``ValueError``, each with a stable ``code`` and JSON-ready ``params``.

``MalformedMove``: the input cannot be read as a move (or a setup) at all. ``IllegalMove``: it can be
read, but it is not allowed in this position. The engine words nothing for players: the web app turns
the code and its params into a sentence in each viewer's language. ``str(err)`` is a debug message.
"""

from __future__ import annotations

from typing import Any


class _Refusal(ValueError):
    kind = "refused"

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params: dict[str, Any] = params
        detail = ", ".join(f"{k}={v!r}" for k, v in sorted(params.items()))
        super().__init__(f"{self.kind}: {code}" + (f" ({detail})" if detail else ""))


class MalformedMove(_Refusal):
    """The input cannot be read as a move (or a setup)."""

    kind = "malformed"


class IllegalMove(_Refusal):
    """The move is well formed but not allowed in this position."""

    kind = "illegal"
