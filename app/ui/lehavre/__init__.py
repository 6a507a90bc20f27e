"""What a player of *Le Havre* sees: the game's words, one module per thing.

- `words`  the names of its goods, buildings and ships, and amounts, in the viewer's language
"""
