"""Structured events: what a move did, in ids and numbers only, so any language can render the log."""

from __future__ import annotations

from typing import Any


class Event:
    """One thing that happened (``kind`` plus JSON-ready fields). Immutable once made."""

    __slots__ = ("_fields", "kind")

    kind: str
    _fields: tuple[tuple[str, Any], ...]

    def __init__(self, kind: str, **fields: Any) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "_fields", tuple(fields.items()))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("events are immutable")

    def __getitem__(self, key: str) -> Any:
        return dict(self._fields)[key]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **dict(self._fields)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash((self.kind, repr(self._fields)))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._fields)
        return f"Event({self.kind!r}, {args})"


def gains_nothing(events: tuple[Event, ...]) -> bool:
    """Whether a use brought its player nothing: no goods gained, no francs from the effect or
    the sector — it only paid the fee (if any) and sent the building back to sector 0.

    Any other move (a build, a sell, a pass) is never "nothing"."""
    for event in events:
        if event.kind == "use":
            gained = event["gained"]
            return not any(gained.values()) and event["francs"] <= 0 and not event["bonus"]
    return False
