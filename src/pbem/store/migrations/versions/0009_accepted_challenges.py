"""Players who accepted their challenge (no longer able to decline it).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("board_players", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("accepted", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("board_players", schema=None) as batch_op:
        batch_op.drop_column("accepted")
