"""rooms: the catalog each room is played with (id and SHA-256); existing rooms keep provisional-1

Revision ID: 0005_catalogs
Revises: 0004_chat
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_catalogs"
down_revision: str | None = "0004_chat"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Every game stored before this revision was played with engine/catalog.json as it is today.
PROVISIONAL_1 = "provisional-1"
PROVISIONAL_1_SHA256 = "9493fd45a591aaf5841a28a13e12497628180d0e366b3f65dac96af97b801456"


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("catalog_id", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("catalog_sha256", sa.String(length=64), nullable=True))
    rooms = sa.table(
        "rooms",
        sa.column("catalog_id", sa.String(length=64)),
        sa.column("catalog_sha256", sa.String(length=64)),
    )
    op.execute(rooms.update().values(catalog_id=PROVISIONAL_1, catalog_sha256=PROVISIONAL_1_SHA256))
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.alter_column("catalog_id", existing_type=sa.String(length=64), nullable=False)
        batch_op.alter_column("catalog_sha256", existing_type=sa.String(length=64), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("catalog_sha256")
        batch_op.drop_column("catalog_id")
