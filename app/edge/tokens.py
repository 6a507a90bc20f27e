"""Capability links: random tokens, their hashes, and the tokens derived from them.

Every link is a capability URL: the token is at least 128 random bits from `secrets` (we use 256)
and the database only stores its SHA-256. Links a viewer needs to see again (the invite link and
the spectator link for a player, the rematch seat link) are derived from the player's own seat
token with HMAC, so they can be shown again without ever being stored.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from functools import lru_cache

TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh URL-safe token with 256 random bits."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_room_id() -> str:
    """A room id: short and random, but not a secret (the links are)."""
    return secrets.token_urlsafe(9)


def token_hash(token: str) -> str:
    """What the database stores for a token (hex SHA-256)."""
    return hashlib.sha256(token.encode()).hexdigest()


def derive_token(token: str, purpose: str) -> str:
    """A token only the holder of `token` can compute: HMAC-SHA256(token, purpose), URL-safe."""
    digest = hmac.new(token.encode(), purpose.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def invite_token_for(host_token: str, seat: int | None = None) -> str:
    """The invite of a two-seat room's other seat (`seat` None), or of `seat` in a room of more."""
    return derive_token(host_token, "invite" if seat is None else f"invite-{seat}")


@lru_cache(maxsize=8192)
def spectator_token_for(seat_token: str) -> str:
    """The spectator link's token of a seat's holder (remembered: every board a player is
    drawn shows it)."""
    return derive_token(seat_token, "spectator")


def rematch_token_for(seat_token: str) -> str:
    return derive_token(seat_token, "rematch")


def looks_like_token(value: str) -> bool:
    """Cheap shape check before touching the database: URL-safe base64, sensible length."""
    return 20 <= len(value) <= 128 and all(c.isalnum() or c in "-_" for c in value)
