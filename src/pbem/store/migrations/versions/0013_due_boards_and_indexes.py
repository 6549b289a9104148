"""Boards know whose move it is and when the periodic job is due for them;
the indexes the pages, the tick and the outbox need as the database grows.

Existing active boards are marked due at once: the first tick after the
upgrade looks at each of them one time and sets its real due time.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

INDEXES = {
    "boards": [
        ("ix_boards_due_at", ["due_at"]),
        ("ix_boards_status_updated_at", ["status", "updated_at"]),
        ("ix_boards_game_status_updated_at", ["game", "status", "updated_at"]),
    ],
    "board_players": [("ix_board_players_user_id", ["user_id"])],
    "addresses": [("ix_addresses_user_id", ["user_id"])],
    "users": [("ix_users_digest", ["mail_preference", "digest_sent_at"])],
    "outbox": [("ix_outbox_sent_at", ["sent_at"])],
    "processed_messages": [("ix_processed_messages_processed_at", ["processed_at"])],
    "queued_moves": [("ix_queued_moves_board_id", ["board_id"])],
    "ratings": [("ix_ratings_game_rating", ["game", "rating"])],
    "rating_events": [
        ("ix_rating_events_board_id", ["board_id"]),
        ("ix_rating_events_user_id", ["user_id"]),
    ],
    "subscriptions": [
        ("ix_subscriptions_board_id", ["board_id"]),
        ("ix_subscriptions_game_kind", ["game", "kind"]),
    ],
}


def upgrade() -> None:
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.add_column(sa.Column("to_move", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("due_at", sa.DateTime(), nullable=True))
    boards = sa.table(
        "boards",
        sa.column("id", sa.Integer()),
        sa.column("status", sa.String()),
        sa.column("snapshot", sa.JSON()),
        sa.column("updated_at", sa.DateTime()),
        sa.column("to_move", sa.Integer()),
        sa.column("due_at", sa.DateTime()),
    )
    connection = op.get_bind()
    active = connection.execute(
        sa.select(boards.c.id, boards.c.snapshot, boards.c.updated_at).where(
            boards.c.status == "active"
        )
    ).all()
    for board_id, snapshot, updated_at in active:
        to_move = (snapshot or {}).get("to_move")
        connection.execute(
            sa.update(boards)
            .where(boards.c.id == board_id)
            .values(to_move=to_move, due_at=updated_at if to_move is not None else None)
        )
    for table, indexes in INDEXES.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for name, columns in indexes:
                batch_op.create_index(name, columns, unique=False)


def downgrade() -> None:
    for table, indexes in INDEXES.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for name, _ in indexes:
                batch_op.drop_index(name)
    with op.batch_alter_table("boards", schema=None) as batch_op:
        batch_op.drop_column("due_at")
        batch_op.drop_column("to_move")
