"""The mail door: an outbox row's Message-ID and board, and processed incoming mail.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "processed_messages",
        sa.Column("key", sa.String(length=400), nullable=False),
        sa.Column("processed_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("message_id", sa.String(length=300), nullable=True))
        batch_op.add_column(sa.Column("board_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("board_version", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("board_seat", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_outbox_message_id"), ["message_id"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_outbox_message_id"))
        batch_op.drop_column("board_seat")
        batch_op.drop_column("board_version")
        batch_op.drop_column("board_id")
        batch_op.drop_column("message_id")

    op.drop_table("processed_messages")
