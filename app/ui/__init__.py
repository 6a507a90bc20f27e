"""What a player sees: game state + viewer -> template context and HTML, one module per thing.

- `board`      the whole table for one viewer (`board_context`, `render_board`, `draw_board`)
- `wheel`      the production wheel: sectors, wedges, where tiles sit, the building `Tile`
- `warehouse`  a player's side of the table: goods counters, francs, score (`Mat`)
- `supply`     the buildings by round: in the supply, built, or to come; the round track
- `cards`      what a building's card prints: name, cost, value, effect
- `log`        the move log in words: one describer per engine event kind
- `panel`      the action panel of one building; `choices` and `fields` turn its moves into controls
- `review`     the review page: any position of a game, its moves, its analysis
- `scoregraph` the score graph of a game, drawn as SVG
- `words`      names and amounts in the viewer's language
- `templates`  the Jinja environments per language; `cache` the drawn pieces, made once
"""
