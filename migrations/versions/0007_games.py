"""rooms: the game a room plays ("inland_port" or "lehavre"), its number of seats, its setup and
the computer's seats of a game other than Inland Port

Revision ID: 0007_games
Revises: 0006_roomlife
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_games"
down_revision: str | None = "0006_roomlife"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("game", sa.String(length=16), nullable=False, server_default="inland_port")
        )
        batch_op.add_column(sa.Column("players", sa.Integer(), nullable=False, server_default="2"))
        batch_op.add_column(sa.Column("setup", sa.Text(), nullable=False, server_default="{}"))
        batch_op.add_column(sa.Column("computers", sa.Text(), nullable=False, server_default="{}"))


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("computers")
        batch_op.drop_column("setup")
        batch_op.drop_column("players")
        batch_op.drop_column("game")
