"""Boards a bot plays on (`boards.with_bot`, set when the board is made, and
`ix_boards_with_bot`, an index of those boards alone by status and last
change), so the bot worker's look for boards waiting for a bot, once a
second, walks the bots' active boards and not every active board.

Revision ID: 0022
Revises: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("with_bot", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    boards = sa.table("boards", sa.column("id", sa.Integer), sa.column("with_bot", sa.Boolean))
    seats = sa.table("board_players", sa.column("board_id"), sa.column("user_id"))
    users = sa.table("users", sa.column("id"), sa.column("bot_level"))
    with_a_bot = (
        sa.select(seats.c.board_id)
        .join(users, users.c.id == seats.c.user_id)
        .where(users.c.bot_level.is_not(None))
    )
    op.execute(boards.update().where(boards.c.id.in_(with_a_bot)).values(with_bot=sa.true()))
    op.create_index(
        "ix_boards_with_bot",
        "boards",
        ["status", "updated_at"],
        sqlite_where=sa.text("with_bot = 1"),
        postgresql_where=sa.text("with_bot"),
    )


def downgrade() -> None:
    op.drop_index("ix_boards_with_bot", table_name="boards")
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.drop_column("with_bot")
