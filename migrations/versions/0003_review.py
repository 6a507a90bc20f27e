"""rooms: where a room's game began (an imported record, a fork); analyses of games

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("origin", sa.String(length=16), nullable=True))
        batch_op.add_column(
            sa.Column("start_moves", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.add_column(sa.Column("origin_room_id", sa.String(length=32), nullable=True))
    op.create_table(
        "analyses",
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id"),
    )


def downgrade() -> None:
    op.drop_table("analyses")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("origin_room_id")
        batch_op.drop_column("start_moves")
        batch_op.drop_column("origin")
