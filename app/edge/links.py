"""The addresses of a room's capability links (the tokens themselves: `app.edge.tokens`)."""

from __future__ import annotations


def seat_link(base_url: str, token: str) -> str:
    return f"{base_url}/s/{token}"


def invite_link(base_url: str, token: str) -> str:
    return f"{base_url}/i/{token}"


def spectator_link(base_url: str, token: str) -> str:
    return f"{base_url}/w/{token}"


def review_link(base_url: str, token: str) -> str:
    """An imported record's one link: it opens the review."""
    return f"{base_url}/r/{token}"
