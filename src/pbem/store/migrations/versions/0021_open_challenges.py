"""Open challenges (`open_challenges`: a challenge to anyone, taken by the
first player who wants it) and unrated boards (`boards.unrated`: a friendly
game, never in the ratings).

Revision ID: 0021
Revises: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("unrated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "open_challenges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("unrated", sa.Boolean(), nullable=False),
        sa.Column("min_rating", sa.Integer(), nullable=True),
        sa.Column("max_rating", sa.Integer(), nullable=True),
        sa.Column("nag_days", sa.Integer(), nullable=True),
        sa.Column("forfeit_days", sa.Integer(), nullable=True),
        sa.Column("total_days", sa.Integer(), nullable=True),
        sa.Column("hints", sa.Boolean(), nullable=False),
        sa.Column("comment", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("board_id", sa.Integer(), nullable=True),
        sa.Column("taken_by", sa.Integer(), nullable=True),
        sa.Column("withdrawn_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["board_id"], ["boards.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["taken_by"], ["users.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_open_challenges_listed",
        "open_challenges",
        ["board_id", "withdrawn_at", "expires_at"],
    )
    op.create_index("ix_open_challenges_user_id", "open_challenges", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_open_challenges_user_id", table_name="open_challenges")
    op.drop_index("ix_open_challenges_listed", table_name="open_challenges")
    op.drop_table("open_challenges")
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.drop_column("unrated")
