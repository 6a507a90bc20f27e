"""rooms: the host's seat, how a game ended early, the computer standing in, a takeback asked
for; seats: when their player was last seen; room events

Revision ID: 0006_roomlife
Revises: 0005_catalogs
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_roomlife"
down_revision: str | None = "0005_catalogs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("host_seat", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("ending", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("ending_seat", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("standin_seat", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("takeback_seat", sa.Integer(), nullable=True))
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "room_events",
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("at_version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("room_events")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("last_seen_at")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("takeback_seat")
        batch_op.drop_column("standin_seat")
        batch_op.drop_column("ending_seat")
        batch_op.drop_column("ending")
        batch_op.drop_column("host_seat")
