"""The review pages as a test reads them."""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi.testclient import TestClient

SUMMARY = re.compile(r'<script type="application/json" id="review-summary">(.*?)</script>')


def open_link(client: TestClient, token: str) -> None:
    """Open a seat link: the client then holds the room's cookie."""
    assert client.get(f"/s/{token}").status_code == 200


def review_summary(html: str) -> dict[str, Any]:
    """The position's summary a review page carries for its script."""
    found = SUMMARY.search(html)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data
