"""A counter on each board that every change of it moves on, so a view of the
board kept in memory is known to be current by one small read (a version or a
time may repeat after an undo; the counter never does).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.add_column(sa.Column("revision", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.drop_column("revision")
