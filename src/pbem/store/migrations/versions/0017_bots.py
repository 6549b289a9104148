"""Built-in AI opponents: `users.bot_level` marks a bot (its level), the bot
users themselves (one per level, for every game), and `bot_leases`, which
keeps two bot workers from thinking about the same board at once.

A bot has no address and the password hash `!`, which no password matches.
A name some person already signed up with is left to them: that level then
has no bot in this database.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

BOTS = (("easybot", "easy"), ("mediumbot", "medium"), ("hardbot", "hard"))
NO_PASSWORD = "!"


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot_level", sa.String(length=16), nullable=True))
    op.create_table(
        "bot_leases",
        sa.Column("board_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("holder", sa.String(length=100), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["board_id"], ["boards.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("board_id"),
    )
    users = sa.table(
        "users",
        sa.column("userid", sa.String),
        sa.column("userid_key", sa.String),
        sa.column("password_hash", sa.String),
        sa.column("mail_preference", sa.String),
        sa.column("vacation", sa.Boolean),
        sa.column("signed_off", sa.Boolean),
        sa.column("created_at", sa.DateTime),
        sa.column("session_generation", sa.Integer),
        sa.column("bot_level", sa.String),
    )
    connection = op.get_bind()
    taken = set(connection.scalars(sa.select(users.c.userid_key)))
    now = datetime.now(UTC).replace(tzinfo=None)
    for userid, level in BOTS:
        if userid in taken:
            continue
        connection.execute(
            users.insert().values(
                userid=userid,
                userid_key=userid,
                password_hash=NO_PASSWORD,
                mail_preference="none",
                vacation=False,
                signed_off=False,
                created_at=now,
                session_generation=0,
                bot_level=level,
            )
        )


def downgrade() -> None:
    users = sa.table("users", sa.column("bot_level", sa.String))
    op.execute(users.delete().where(users.c.bot_level.is_not(None)))
    op.drop_table("bot_leases")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("bot_level")
