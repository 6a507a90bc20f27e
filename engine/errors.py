"""The two kinds of bad input. Both are ``ValueError``; the message says why in a player's words."""


class MalformedMove(ValueError):
    """The input cannot be read as a move at all (not an object, unknown type or building, bad fields)."""


class IllegalMove(ValueError):
    """The move can be read, but it is not allowed in this position."""
