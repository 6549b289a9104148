"""Outbox mails that failed for good: a relay's 5xx for the recipient, or
a temporary failure that lasted longer than `delivery_give_up_days`. Such a
mail is never tried again; it stays, with its `last_error`, for
`pbem outbox failed` to show, and is dropped with the sent mails' copies.

Revision ID: 0027
Revises: 0026
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("failed_at", sa.DateTime(), nullable=True))
        batch_op.create_index("ix_outbox_failed_at", ["failed_at"])


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_outbox_failed_at")
        batch_op.drop_column("failed_at")
