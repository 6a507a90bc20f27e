"""Every write to the database, one module per kind: `rooms`, `seats`, `moves`, `rematch`,
`presence`.

Each write is a keyword-only function taking a SQLAlchemy `Session`; it ends its transaction
(commit or rollback) before it returns. A write to a room holds the room's lock (`lock`) for
its transaction, commits, and only then publishes the change (`app.live.notify`). A request the
room's rules refuse raises a `ServiceError` (`errors`). Tokens come in as the secrets
themselves and are only ever stored as hashes (`app.edge.tokens`).
"""
