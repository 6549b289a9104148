"""Refusing challenges and fair clocks: `ratings.rejects`, set by pbmserv's
standing `GAME reject USERID PASSWORD` (and `limit ... reject`): the player
takes no new challenge of the game until they accept again; and
`boards.forfeit_not_before`, the earliest a forfeit may come (a full nag
period after a vacation ends, a day after the nag about a draw vote).

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
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.add_column(sa.Column("forfeit_not_before", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.drop_column("forfeit_not_before")
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_column("rejects")
