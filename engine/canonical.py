"""The canonical text of JSON data (SPEC §5, §8): sorted keys and no spaces, so equal data is equal text."""

from __future__ import annotations

import json
from typing import Any


def canonical_json(data: Any) -> str:
    """``data`` (a move's or a summary's JSON form) as its one canonical JSON text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
