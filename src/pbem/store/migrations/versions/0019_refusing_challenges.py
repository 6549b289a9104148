"""Refusing challenges: `ratings.rejects`, set by pbmserv's standing `GAME
reject USERID PASSWORD` (and `limit ... reject`): the player takes no new
challenge of the game until they accept again.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("rejects", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_column("rejects")
