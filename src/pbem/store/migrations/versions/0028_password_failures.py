"""Failed password and token checks, kept in the database so that every
process and every server counts the same failures (`pbem receive`, the SMTP
listener, the web and the API): one row per failure and key (`user:<userid>`
for the account tried, `from:<client>` for the client), counted over a
window by `ix_password_failures_key_at` and pruned by `ix_password_failures_at`.

Revision ID: 0028
Revises: 0027
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "password_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_password_failures_key_at", "password_failures", ["key", "at"])
    op.create_index("ix_password_failures_at", "password_failures", ["at"])


def downgrade() -> None:
    op.drop_index("ix_password_failures_at", table_name="password_failures")
    op.drop_index("ix_password_failures_key_at", table_name="password_failures")
    op.drop_table("password_failures")
