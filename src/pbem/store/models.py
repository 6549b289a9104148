"""The tables: users and their addresses, boards with their players and move
records, and the outbox of mail waiting to be delivered."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Enum,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from .status import BoardStatus, Ending


def _stored_as_value(kind: type[BoardStatus] | type[Ending], length: int) -> Enum:
    """An enum kept in a plain string column, as its value."""
    return Enum(
        kind,
        native_enum=False,
        create_constraint=False,
        length=length,
        values_callable=lambda members: [member.value for member in members],
    )


# PARTIAL: two indexes are partial (`ix_boards_with_bot`, `ix_board_players_active`),
# their WHERE written per dialect in their migrations. Here they name their
# columns only: a dialect's keyword (`postgresql_where=`) makes SQLAlchemy
# import that dialect's whole package when the class is made, and every
# process imports these tables (the PostgreSQL dialect was 31 ms of CPU of a
# `pbem receive` on SQLite, which never uses it: tests/test_start_cost.py).
# Alembic compares an index's name and columns, not its WHERE.

# The largest id a table holds (its primary keys are PostgreSQL's `integer`;
# SQLite's go to 2**63 - 1): a number above it names no row, and asking the
# database for one is an error there, not an empty answer.
MAX_ID = 2**31 - 1


class Base(DeclarativeBase):
    pass


class User(Base):
    """A player. `userid` keeps the case it was signed up with; `userid_key`
    (lower case) makes comparisons case-insensitive."""

    __tablename__ = "users"
    # The digest job asks for the digest users whose day is up.
    __table_args__ = (Index("ix_users_digest", "mail_preference", "digest_sent_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    userid: Mapped[str] = mapped_column(String(32))
    userid_key: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    mail_preference: Mapped[str] = mapped_column(String(8), default="every")
    vacation: Mapped[bool] = mapped_column(default=False)
    digest_sent_at: Mapped[datetime | None]  # the last daily digest
    signed_off: Mapped[bool] = mapped_column(default=False)  # left; cannot be challenged
    created_at: Mapped[datetime]
    # Web sessions carry the count they were made under; logging out and a
    # new password move it on, which voids every older session.
    session_generation: Mapped[int] = mapped_column(default=0, server_default="0")
    # A built-in AI opponent plays as this user: its level's name (ai/levels.py).
    # A bot has no address and a password hash nothing matches.
    bot_level: Mapped[str | None] = mapped_column(String(16), default=None)

    @property
    def is_bot(self) -> bool:
        return self.bot_level is not None

    addresses: Mapped[list[Address]] = relationship(
        back_populates="user", cascade="all, delete-orphan", order_by="Address.id", lazy="selectin"
    )


class BotLease(Base):
    """A bot worker is thinking about this board at `version` until
    `expires_at`: another worker leaves the board alone until then, and a
    worker that died lets go when it passes."""

    __tablename__ = "bot_leases"

    board_id: Mapped[int] = mapped_column(
        ForeignKey("boards.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int]
    holder: Mapped[str] = mapped_column(String(100))
    expires_at: Mapped[datetime]


class HintRequest(Base):
    """A player asked the engine about a board at `version` (`GAME hint`).
    A bot worker claims it (`claimed_until`), searches, and writes the
    `answer` (one line per move) and mails it to the asker alone."""

    __tablename__ = "hint_requests"
    __table_args__ = (Index("ix_hint_requests_open", "answered_at", "board_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    version: Mapped[int]
    created_at: Mapped[datetime]
    claimed_until: Mapped[datetime | None]
    answered_at: Mapped[datetime | None]
    answer: Mapped[str | None] = mapped_column(Text)


class ChatLine(Base):
    """What someone said on a board (`GAME chat`, the board page), after the
    board's first `after` moves: the board page shows it among the moves."""

    __tablename__ = "chat_lines"
    __table_args__ = (Index("ix_chat_lines_board", "board_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    after: Mapped[int]
    text: Mapped[str] = mapped_column(Text)
    said_at: Mapped[datetime]


class OpenChallenge(Base):
    """A challenge to anyone (`GAME open`): the first player who takes it
    (and whose rating is within the range, if one is set) gets a board
    against the poster, who moves first; until then the poster may
    withdraw it, and after `expires_at` nobody may take it."""

    __tablename__ = "open_challenges"
    __table_args__ = (Index("ix_open_challenges_listed", "board_id", "withdrawn_at", "expires_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    options: Mapped[list[str]] = mapped_column(JSON)  # the option words, as written
    unrated: Mapped[bool] = mapped_column(default=False)
    min_rating: Mapped[int | None]
    max_rating: Mapped[int | None]
    nag_days: Mapped[int | None]
    forfeit_days: Mapped[int | None]
    total_days: Mapped[int | None]
    hints: Mapped[bool] = mapped_column(default=False)
    comment: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    board_id: Mapped[int | None] = mapped_column(ForeignKey("boards.id", ondelete="SET NULL"))
    taken_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    withdrawn_at: Mapped[datetime | None]

    user: Mapped[User] = relationship(foreign_keys=[user_id], lazy="joined", innerjoin=True)


class Address(Base):
    """A mail address a user sends from and receives at (the first is main)."""

    __tablename__ = "addresses"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    address: Mapped[str] = mapped_column(String(320))
    address_key: Mapped[str] = mapped_column(String(320), unique=True)

    user: Mapped[User] = relationship(back_populates="addresses")


class Board(Base):
    """One game. Its record is `moves`; `snapshot` is the state's JSON after
    the last move, and `version` the number of moves, which a command must
    name to change the board (so two racing commands cannot both apply).
    `to_move` is the seat to move (None once over), and `due_at` the next
    time the periodic job must look at the board (a nag, a forfeit, a
    clock running out; None: never), so it looks only at boards due."""

    __tablename__ = "boards"
    __table_args__ = (
        # Every command looks for finished boards not rated yet; keep that cheap.
        Index("ix_boards_rated_status", "rated", "status"),
        # The periodic job asks for the active boards due by now, soonest first.
        Index("ix_boards_status_due_at", "status", "due_at"),
        # Lists, newest first: all boards, and a game's (by status).
        Index("ix_boards_status_updated_at", "status", "updated_at"),
        Index("ix_boards_game_status_updated_at", "game", "status", "updated_at"),
        # The bot worker's look for boards waiting for a bot, once a second:
        # the bots' boards alone (a partial index: WHERE with_bot, as
        # migration 0022 made it; see PARTIAL), by status and last change.
        Index("ix_boards_with_bot", "status", "updated_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[BoardStatus] = mapped_column(
        _stored_as_value(BoardStatus, 10), default=BoardStatus.ACTIVE
    )
    version: Mapped[int] = mapped_column(Integer, default=0)
    # Moved on by every change of the board (a version repeats after an undo).
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSON)
    winner: Mapped[int | None]
    result: Mapped[str | None] = mapped_column(Text)
    ending: Mapped[Ending | None] = mapped_column(_stored_as_value(Ending, 16))
    nag_days: Mapped[int | None]
    forfeit_days: Mapped[int | None]
    total_days: Mapped[int | None]
    rated: Mapped[bool] = mapped_column(default=False)  # its result is in the ratings
    # Challenged with --hints: its players may ask the engine (`GAME hint`).
    hints: Mapped[bool] = mapped_column(default=False, server_default=false())
    # Challenged with --unrated: a friendly game, never in the ratings.
    unrated: Mapped[bool] = mapped_column(default=False, server_default=false())
    # A bot sits at one of its seats (set when it is made: seats never change).
    with_bot: Mapped[bool] = mapped_column(default=False, server_default=false())
    nagged_at: Mapped[datetime | None]  # the last reminder to the player to move
    # no forfeit before this (a full nag period after a vacation; a day
    # after the players who had not voted on a draw were reminded)
    forfeit_not_before: Mapped[datetime | None]
    to_move: Mapped[int | None]
    due_at: Mapped[datetime | None]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]

    players: Mapped[list[BoardPlayer]] = relationship(
        back_populates="board",
        cascade="all, delete-orphan",
        order_by="BoardPlayer.seat",
        lazy="selectin",
    )
    moves: Mapped[list[MoveRow]] = relationship(
        back_populates="board", cascade="all, delete-orphan", order_by="MoveRow.number"
    )


class BoardPlayer(Base):
    """Who sits at which seat of a board (seat 0 moves first)."""

    __tablename__ = "board_players"
    __table_args__ = (
        # A player's boards being played, by index: the standings count them
        # for every player they list (the player's finished boards stay out).
        # (a partial index: WHERE active, as migration 0025 made it; see PARTIAL)
        Index("ix_board_players_active", "user_id"),
    )

    board_id: Mapped[int] = mapped_column(
        ForeignKey("boards.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    # Accepted the challenge ('GAME accept USERID PASSWORD'): resigning before
    # the first move is then a rated resignation, no longer a decline.
    accepted: Mapped[bool] = mapped_column(default=False)
    # The board is being played (its status is active): true when it is made,
    # false from the moment it ends (store/boards.py, the one place it ends).
    active: Mapped[bool] = mapped_column(default=True, server_default=false())

    board: Mapped[Board] = relationship(back_populates="players")
    user: Mapped[User] = relationship(lazy="joined", innerjoin=True)


class MoveRow(Base):
    """One move of a board's record: the canonical text, who played it, when,
    the comment that came with it, and whether the server played it (auto)."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("board_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", ondelete="CASCADE"))
    number: Mapped[int]
    seat: Mapped[int]
    text: Mapped[str] = mapped_column(String(64))
    note: Mapped[str] = mapped_column(Text, default="")
    comment: Mapped[str] = mapped_column(Text, default="")
    auto: Mapped[bool] = mapped_column(default=False)
    played_at: Mapped[datetime]

    board: Mapped[Board] = relationship(back_populates="moves")


class OutboxMessage(Base):
    """A mail to deliver, written in the same transaction as the change that
    caused it; the delivery loop marks it sent once a relay accepted it."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_answers_created_at", "answers", "created_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    created_at: Mapped[datetime]
    recipients: Mapped[list[str]] = mapped_column(JSON)
    subject: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text)
    in_reply_to: Mapped[str | None] = mapped_column(String(300))
    # Fixed when queued, so a retried delivery carries the same Message-ID.
    message_id: Mapped[str | None] = mapped_column(String(300), index=True, unique=True)
    # The board the mail shows (its move number and the reader's seat, None
    # for an onlooker), for the picture in the HTML part.
    board_id: Mapped[int | None]
    board_version: Mapped[int | None]
    board_seat: Mapped[int | None]
    # The address (lower case) of the mailed command this mail answers, when it
    # goes back to that address: the replies one address got in an hour are
    # counted from these (no pair of robots can loop through the server).
    answers: Mapped[str | None] = mapped_column(String(320))
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime | None]
    sent_at: Mapped[datetime | None] = mapped_column(index=True)
    # When the mail was given up: the relay refused a recipient for good
    # (5xx), or it kept failing for `delivery_give_up_days`. Never tried again.
    failed_at: Mapped[datetime | None] = mapped_column(index=True)
    last_error: Mapped[str | None] = mapped_column(Text)


class ApiToken(Base):
    """A key for the JSON API (`Authorization: Bearer ...`); only its SHA-256
    is kept, so the database never holds a usable token."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    label: Mapped[str] = mapped_column(String(100))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    last_used_at: Mapped[datetime | None]

    user: Mapped[User] = relationship(lazy="joined", innerjoin=True)


class PasswordFailure(Base):
    """A wrong password or an unknown API token, kept for a while under the
    account tried (`user:<userid>`) and under the client (`from:<client>`):
    see `pbem.server.players.throttle`."""

    __tablename__ = "password_failures"
    __table_args__ = (
        Index("ix_password_failures_key_at", "key", "at"),  # counted per key in the window
        Index("ix_password_failures_at", "at"),  # the old pruned
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(300))
    at: Mapped[datetime]


class ProcessedMessage(Base):
    """An incoming mail already handled (by Message-ID, one row per command
    line): the same mail delivered twice runs once."""

    __tablename__ = "processed_messages"

    key: Mapped[str] = mapped_column(String(400), primary_key=True)
    processed_at: Mapped[datetime] = mapped_column(index=True)


class Vote(Base):
    """A player's yes to a proposal on a board: a draw, or taking back the
    last move. A proposal carries when every player has voted for it."""

    __tablename__ = "votes"
    __table_args__ = (UniqueConstraint("board_id", "kind", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(8))  # "draw" or "undo"
    seat: Mapped[int]
    created_at: Mapped[datetime]


class QueuedMove(Base):
    """A move a player sent ahead of their turn: played (and marked auto)
    when the turn comes, if the opponent's move was `condition` (any move
    when it is empty). `text` may be "resign"."""

    __tablename__ = "queued_moves"

    id: Mapped[int] = mapped_column(primary_key=True)
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    text: Mapped[str] = mapped_column(String(64))
    condition: Mapped[str] = mapped_column(String(64), default="")
    comment: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime]


class Rating(Base):
    """A player's standing in one game (docs/ratings.md): the rating, the
    games played and their outcomes, and while provisional the sum of the
    per-game values whose average the rating is."""

    __tablename__ = "ratings"
    __table_args__ = (
        UniqueConstraint("user_id", "game"),
        Index("ix_ratings_game_rating", "game", "rating"),  # standings, best first
        Index("ix_ratings_game_last_played", "game", "last_played"),  # the inactive
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(20))
    rating: Mapped[float] = mapped_column(default=1600.0)
    games: Mapped[int] = mapped_column(default=0)
    wins: Mapped[int] = mapped_column(default=0)
    losses: Mapped[int] = mapped_column(default=0)
    draws: Mapped[int] = mapped_column(default=0)
    provisional_sum: Mapped[float] = mapped_column(default=0.0)
    limit: Mapped[int | None]  # the most boards of this game at once, if set
    seeking: Mapped[int] = mapped_column(default=0)  # new boards wanted
    rejects: Mapped[bool] = mapped_column(default=False)  # takes no new challenge of the game
    last_played: Mapped[datetime | None]

    user: Mapped[User] = relationship()


class RatingEvent(Base):
    """One line of a player's history: a finished board and what it did to
    their rating."""

    __tablename__ = "rating_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(20))
    outcome: Mapped[float]  # 1 win, 0.5 draw, 0 loss
    before: Mapped[float]
    after: Mapped[float]
    created_at: Mapped[datetime]


class Subscription(Base):
    """A user's wish for mail about boards they do not play on: copies of
    one board's mails (`board_id`), copies of every future board of a game
    (kind "all"), or one mail per new board of a game (kind "notify")."""

    __tablename__ = "subscriptions"
    __table_args__ = (
        UniqueConstraint("user_id", "game", "kind", "board_id"),
        Index("ix_subscriptions_board_id", "board_id"),
        Index("ix_subscriptions_game_kind", "game", "kind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(20))
    kind: Mapped[str] = mapped_column(String(8))  # a SubscriptionKind
    board_id: Mapped[int | None] = mapped_column(ForeignKey("boards.id", ondelete="CASCADE"))
    created_at: Mapped[datetime]

    user: Mapped[User] = relationship()


class PendingMove(Base):
    """A move sent with `submit`: shown to its player, played on `confirm`
    if the board is still at `version` then."""

    __tablename__ = "pending_moves"
    __table_args__ = (UniqueConstraint("board_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", ondelete="CASCADE"))
    seat: Mapped[int]
    text: Mapped[str] = mapped_column(String(64))
    version: Mapped[int]
    comment: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime]
