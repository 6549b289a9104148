"""Which mailed command an outbox mail answers, to cap the replies one address gets.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("answers", sa.String(length=320), nullable=True))
        batch_op.create_index("ix_outbox_answers_created_at", ["answers", "created_at"])


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_outbox_answers_created_at")
        batch_op.drop_column("answers")
