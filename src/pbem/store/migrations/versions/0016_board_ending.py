"""How each finished board ended (a resignation, a forfeit, an agreed draw,
the game's own rules...), kept beside the result's prose so that pages, the
API and mails can say it without reading the prose. Boards that ended before
are given theirs from that prose.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

# The prose each ending wrote (server/boards/lifecycle.py, tick.py, votes.py), most
# specific first.
FROM_PROSE = (
    ("%declined the challenge%", "declined"),
    ("%never answered the challenge%", "unanswered"),
    ("drawn by agreement%", "agreed draw"),
    ("drawn: the proposal stood unanswered%", "standing draw"),
    ("%ran out of time%", "out of time"),
    ("%forfeited%", "forfeit"),
    ("%resigned%", "resignation"),
)


def upgrade() -> None:
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ending", sa.String(length=16), nullable=True))
    boards = sa.table(
        "boards", sa.column("status"), sa.column("result"), sa.column("ending", sa.String)
    )
    over = boards.c.status != "active"
    for pattern, ending in FROM_PROSE:
        op.execute(
            boards.update()
            .where(over, boards.c.ending.is_(None), boards.c.result.like(pattern))
            .values(ending=ending)
        )
    op.execute(boards.update().where(over, boards.c.ending.is_(None)).values(ending="rules"))


def downgrade() -> None:
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.drop_column("ending")
