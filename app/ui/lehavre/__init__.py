"""What a player of *Le Havre* sees: pure presentation (a position and a viewer -> template
context), one module per thing; no database, no web framework.

- `words`  the names of its goods, buildings and ships, and amounts, in the viewer's language
- `cards`  a building card as printed: cost, value, price, entry fee, what it does in one line
- `table`  the whole table for one viewer: offers, supply tiles, round card, proposal stacks,
           the town, ship piles, every player's holdings, whose turn and what is due
- `panel`  the move panel of the player to move: the legal moves grouped, each group one form
"""
