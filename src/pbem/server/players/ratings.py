"""pbmserv's rating system, one rating per player and game (docs/ratings.md).

Everyone starts at 1600. A player with fewer than 20 games is provisional:
each game's value is the opponent's rating plus 400 times the outcome (-1,
0, 1) against an established opponent, or the average of both ratings plus
200 times the outcome against a provisional one, and the new rating is
pbmserv's (R*g + v)/(g+1) + (1720 - R)/5: R the player's rating before the
game, g their games before it, v the value (the last term pbmserv's pull
towards 1720). An established player's rating moves by the Elo formula
K * (w - 1 / (1 + 10^((r2 - r1) / 400))) with w 1, 0.5 or 0 and K = 32,
scaled by n/20 against a provisional opponent with n games. Both players'
changes are worked out from the ratings before the game; ratings are kept
as whole numbers, as pbmserv kept them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Insert, false, select
from sqlalchemy.orm import Session

from ...store import Board, BoardStatus, Rating, RatingEvent

START = 1600.0
ESTABLISHED = 20  # games
K = 32.0
TARGET = 1720.0  # where pbmserv's pull draws a provisional rating
PULL = 5  # a provisional rating gets (TARGET - its rating before the game) / PULL
INACTIVE_AFTER = timedelta(days=180)  # no game finished for this long: inactive


@dataclass(frozen=True)
class Standing:
    """What the formulas need of a player before a game."""

    rating: float
    games: int
    provisional_sum: float = 0.0  # R*g + v of the last provisional game (kept, not needed)

    @property
    def established(self) -> bool:
        return self.games >= ESTABLISHED


def provisional_value(me: Standing, opponent: Standing, outcome: int) -> float:
    """A provisional player's value for one game (outcome -1, 0 or 1)."""
    if opponent.established:
        return opponent.rating + 400 * outcome
    mine = me.rating if me.games else START
    theirs = opponent.rating if opponent.games else START
    return (mine + theirs) / 2 + 200 * outcome


def established_change(me: Standing, opponent: Standing, score: float) -> float:
    """An established player's change for one game (score 1, 0.5 or 0)."""
    k = K if opponent.established else K * opponent.games / ESTABLISHED
    expected = 1 / (1 + 10 ** ((opponent.rating - me.rating) / 400))
    return k * (score - expected)


def after_game(me: Standing, opponent: Standing, score: float) -> Standing:
    """The player's standing after one game against `opponent`, the rating
    a whole number: pbmserv's (R*g + v)/(g+1) + (1720 - R)/5 while
    provisional (R and g the player's rating and games before the game, v
    its `provisional_value`), the Elo change once established."""
    games = me.games + 1
    if me.established:
        return Standing(round(me.rating + established_change(me, opponent, score)), games)
    rating = me.rating if me.games else START
    total = rating * me.games + provisional_value(me, opponent, round(2 * score) - 1)
    return Standing(round(total / games + pull_of(rating)), games, total)


def pull_of(rating: float) -> float:
    """pbmserv's pull on a provisional rating of `rating` before the game:
    a fifth of how far it is below 1720 (negative above)."""
    return (TARGET - rating) / PULL


def rating_row(session: Session, user_id: int, game: str) -> Rating:
    """A player's rating row in a game, made if missing, and locked until the
    transaction ends (`FOR UPDATE` on PostgreSQL; SQLite's write lock covers
    it), so two boards ending at once both count. Callers locking two rows
    take them in user-id order, so two transactions never wait on each other."""
    query = (
        select(Rating)
        .where(Rating.user_id == user_id, Rating.game == game)
        .with_for_update()
        .execution_options(populate_existing=True)  # the locked values, not a stale copy
    )
    row = session.scalar(query)
    if row is None:
        new = {
            "user_id": user_id,
            "game": game,
            "rating": START,
            "games": 0,
            "wins": 0,
            "losses": 0,
            "draws": 0,
            "provisional_sum": 0.0,
            "seeking": 0,
            "rejects": False,
        }
        # Each dialect's INSERT (for its ON CONFLICT) imported only here: a
        # process on SQLite never imports the PostgreSQL dialect (31 ms of
        # CPU of a `pbem receive`), nor one on PostgreSQL SQLite's.
        twin = ["user_id", "game"]  # (a row made meanwhile by another transaction)
        made: Insert
        if session.get_bind().dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as postgresql_insert

            made = postgresql_insert(Rating).values(new).on_conflict_do_nothing(index_elements=twin)
        else:
            from sqlalchemy.dialects.sqlite import insert as sqlite_insert

            made = sqlite_insert(Rating).values(new).on_conflict_do_nothing(index_elements=twin)
        session.execute(made)
        row = session.scalar(query)
        assert row is not None  # made just now, or by a transaction that just committed
    return row


def rate_finished_boards(session: Session, now: datetime) -> None:
    """Rate every finished two-player board not rated yet (each exactly once)."""
    boards = session.scalars(
        select(Board)
        # (PostgreSQL answers it from the index on (rated, status) only with
        # the extended statistics of migration 0024, which tell it how few
        # finished boards wait for their rating)
        .where(Board.status == BoardStatus.FINISHED, Board.rated == false())
        .order_by(Board.id)
        .with_for_update(skip_locked=True)  # a board another transaction rates is its
        .execution_options(populate_existing=True)
    ).all()
    for board in boards:
        board.rated = True
        ids = [player.user_id for player in board.players]
        if len(set(ids)) != 2:  # (a player alone on a board, trying the game: never rated)
            continue
        if board.unrated:  # (challenged --unrated: a friendly game)
            continue
        locked = {uid: rating_row(session, uid, board.game) for uid in sorted(set(ids))}
        first, second = (locked[uid] for uid in ids)
        scores = (
            (0.5, 0.5)
            if board.winner is None
            else ((1.0, 0.0) if board.winner == 0 else (0.0, 1.0))
        )
        before = [Standing(r.rating, r.games, r.provisional_sum) for r in (first, second)]
        for index, row in enumerate((first, second)):
            mine, theirs = before[index], before[1 - index]
            new = after_game(mine, theirs, scores[index])
            row.rating, row.games, row.provisional_sum = new.rating, new.games, new.provisional_sum
            row.wins += scores[index] == 1.0
            row.losses += scores[index] == 0.0
            row.draws += scores[index] == 0.5
            row.last_played = now
            session.add(
                RatingEvent(
                    board_id=board.id,
                    user_id=row.user_id,
                    opponent_id=(second if index == 0 else first).user_id,
                    game=board.game,
                    outcome=scores[index],
                    before=mine.rating,
                    after=new.rating,
                    created_at=now,
                )
            )
    session.flush()
