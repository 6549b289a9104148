"""Hints: `boards.hints` (challenged with --hints, so its players may ask
the engine) and `hint_requests`, the questions a bot worker answers.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "hint_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("board_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("claimed_until", sa.DateTime(), nullable=True),
        sa.Column("answered_at", sa.DateTime(), nullable=True),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["board_id"], ["boards.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_hint_requests_open", "hint_requests", ["answered_at", "board_id"])


def downgrade() -> None:
    op.drop_index("ix_hint_requests_open", table_name="hint_requests")
    op.drop_table("hint_requests")
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.drop_column("hints")
