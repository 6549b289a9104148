"""Storage: SQLAlchemy models, the database connection and Alembic migrations.

SQLite at ./var/pbem.sqlite3 by default; PostgreSQL through PBEM_DATABASE_URL.
"""

from .database import database_url, make_engine, reading, session_factory, upgrade
from .models import (
    MAX_ID,
    Address,
    ApiToken,
    Base,
    Board,
    BoardPlayer,
    BotLease,
    ChatLine,
    HintRequest,
    MoveRow,
    OpenChallenge,
    OutboxMessage,
    PendingMove,
    ProcessedMessage,
    QueuedMove,
    Rating,
    RatingEvent,
    Subscription,
    User,
    Vote,
)
from .status import BoardStatus, Ending, SubscriptionKind

__all__ = [
    "MAX_ID",
    "Address",
    "ApiToken",
    "Base",
    "Board",
    "BoardPlayer",
    "BoardStatus",
    "BotLease",
    "ChatLine",
    "Ending",
    "HintRequest",
    "MoveRow",
    "OpenChallenge",
    "OutboxMessage",
    "PendingMove",
    "ProcessedMessage",
    "QueuedMove",
    "Rating",
    "RatingEvent",
    "Subscription",
    "SubscriptionKind",
    "User",
    "Vote",
    "database_url",
    "make_engine",
    "reading",
    "session_factory",
    "upgrade",
]
