"""Open challenges: a challenge to anyone, for players who know nobody yet.

`GAME open USERID PASSWORD [-OPTION ...] [--rating=LOW-HIGH] [--days=N] ...`
posts one; `GAME games open` (the game's page, the home page, the API)
lists those still open; `GAME take NUMBER USERID PASSWORD` takes one: the
first taker whose rating is in the range gets a board against the poster,
who moves first, with both players' consent already given (resigning
before the first move is a loss, not a declined challenge); `GAME withdraw
NUMBER USERID PASSWORD` takes one's own back. An open challenge expires
after its days (7 unless set), and a poster keeps at most `MAX_OPEN` open
in a game: the count is taken under a lock on the poster's user row, so
posts racing on PostgreSQL's READ COMMITTED cannot each count four. A take
is claimed with one guarded UPDATE, so of two players taking it at once on
any server exactly one gets the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, func, select, update
from sqlalchemy.orm import Session

from ...games.base import Game, OptionError
from ...store import OpenChallenge, User
from ...store.database import rows_changed
from ..context import Context, login, sending_user
from ..errors import CONFLICT, NOT_FOUND, CommandError
from ..language import commands
from ..language.english import plural
from ..language.messages import Effect
from ..language.registry import runs
from ..language.words import MAX_DAYS
from ..players.accounts import main_address
from ..players.ratings import rating_row
from .board_commands import TakenOffer, start_board

DEFAULT_DAYS = 7  # until an open challenge expires
MOST_DAYS = 60
MAX_OPEN = 5  # open challenges one player may have in one game at once
RATINGS = (0, 9999)  # the range a rating bound may take


@dataclass(frozen=True)
class Listed:
    """An open challenge as the doors list it."""

    id: int
    game: str
    poster: str
    options: str
    unrated: bool
    min_rating: int | None
    max_rating: int | None
    hints: bool
    comment: str
    created_at: datetime
    expires_at: datetime

    @property
    def range_text(self) -> str:
        """'1400-1800', '1500 and up', 'up to 1700', or 'anyone'."""
        low, high = self.min_rating, self.max_rating
        if low is None and high is None:
            return "anyone"
        if high is None:
            return f"{low} and up"
        if low is None:
            return f"up to {high}"
        return f"{low}-{high}"

    @property
    def terms(self) -> str:
        """The options and conditions in a few words, for a list."""
        words = [self.options or "the usual options"]
        words.append("unrated" if self.unrated else "rated")
        if self.hints:
            words.append("hints allowed")
        words.append(f"ratings: {self.range_text}")
        return ", ".join(words)


def _still_open(now: datetime) -> ColumnElement[bool]:
    """Not taken, not withdrawn, not expired."""
    return and_(
        OpenChallenge.board_id.is_(None),
        OpenChallenge.taken_by.is_(None),
        OpenChallenge.withdrawn_at.is_(None),
        OpenChallenge.expires_at > now,
    )


def listed(session: Session, game: str | None, now: datetime, limit: int = 100) -> list[Listed]:
    """The open challenges, oldest first (of one game, or of all): one statement."""
    query = (
        select(OpenChallenge, User.userid)
        .join(User, User.id == OpenChallenge.user_id)
        .where(_still_open(now))
        .order_by(OpenChallenge.id)
        .limit(limit)
    )
    if game is not None:
        query = query.where(OpenChallenge.game == game)
    return [_listed(row, userid) for row, userid in session.execute(query)]


@runs(commands.PostOpen)
def post(ctx: Context, game: Game, command: commands.PostOpen) -> None:
    user = login(ctx, command.userid, command.password)
    if user.is_bot:
        raise CommandError("Bots take challenges; they do not post them.")
    try:
        options = game.parse_options(command.options)
    except OptionError as error:
        raise CommandError(f"{error} Write the options as in a challenge: -size=12.") from None
    low, high = command.min_rating, command.max_rating
    for bound in (low, high):
        if bound is not None and not RATINGS[0] <= bound <= RATINGS[1]:
            raise CommandError(f"A rating bound is a number from 0 to 9999, not {bound}.")
    if low is not None and high is not None and low > high:
        raise CommandError(
            f"The lowest rating ({low}) is above the highest ({high}): write --rating=LOW-HIGH."
        )
    days = DEFAULT_DAYS if command.days is None else command.days
    if not 1 <= days <= MOST_DAYS:
        raise CommandError(f"An open challenge stays open 1 to {MOST_DAYS} days, not {days}.")
    for name, value in (
        ("nagtime", command.nag_days),
        ("forfeittime", command.forfeit_days),
        ("totaltime", command.total_days),
    ):
        if value is not None and not 1 <= value <= MAX_DAYS:
            raise CommandError(f"The {name} is 1 to {MAX_DAYS} days, not {value}.")
    # The poster's row, locked until the transaction ends (FOR UPDATE on
    # PostgreSQL; SQLite's write lock serialises writers already): a second
    # post by the same poster waits here and then counts the first one.
    ctx.session.execute(select(User.id).where(User.id == user.id).with_for_update())
    mine = ctx.session.scalar(
        select(func.count())
        .select_from(OpenChallenge)
        .where(OpenChallenge.user_id == user.id, OpenChallenge.game == game.name)
        .where(_still_open(ctx.now))
    )
    if (mine or 0) >= MAX_OPEN:
        raise CommandError(
            f"You have {mine} open {game.title} challenges already, the most at once: "
            f"withdraw one first ('{game.name} withdraw NUMBER {user.userid} PASSWORD').",
            kind=CONFLICT,
        )
    row = OpenChallenge(
        game=game.name,
        user_id=user.id,
        options=options.args(),
        unrated=command.unrated,
        min_rating=low,
        max_rating=high,
        nag_days=command.nag_days,
        forfeit_days=command.forfeit_days,
        total_days=command.total_days,
        hints=command.hints,
        comment=command.comment.strip()[:500],
        created_at=ctx.now,
        expires_at=ctx.now + timedelta(days=days),
    )
    ctx.session.add(row)
    ctx.session.flush()
    shown = _listed(row, user.userid)
    ctx.reply.did(Effect.OPEN_POSTED)
    ctx.reply.send(
        main_address(user),
        f"{game.title} open challenge {row.id} by {user.userid}",
        f"Your open {game.title} challenge {row.id} is posted ({shown.terms}). The first "
        f"player to take it gets a board against you, and you move first; you will get the "
        f"board by mail. It expires on {row.expires_at:%Y-%m-%d %H:%M} UTC. To take it "
        f"back: '{game.name} withdraw {row.id} {user.userid} PASSWORD'.\n",
    )


@runs(commands.TakeOpen)
def take(ctx: Context, game: Game, command: commands.TakeOpen) -> None:
    user = login(ctx, command.userid, command.password)
    offer = ctx.session.get(OpenChallenge, command.number)
    if offer is None or offer.game != game.name:
        raise CommandError(
            f"There is no open {game.title} challenge {command.number}: "
            f"'{game.name} games open' lists them.",
            kind=NOT_FOUND,
        )
    if offer.user_id == user.id:
        raise CommandError(
            f"Open challenge {offer.id} is your own: another player takes it (to take it "
            f"back, '{game.name} withdraw {offer.id} {user.userid} PASSWORD').",
            kind=CONFLICT,
        )
    still_open(offer, ctx.now)
    rating = round(rating_row(ctx.session, user.id, game.name).rating)
    low, high = offer.min_rating, offer.max_rating
    if (low is not None and rating < low) or (high is not None and rating > high):
        raise CommandError(
            f"Open challenge {offer.id} is for ratings {_listed(offer, '').range_text}; "
            f"your {game.title} rating is {rating}.",
            kind=CONFLICT,
        )
    claimed = ctx.session.execute(
        update(OpenChallenge)
        .where(OpenChallenge.id == offer.id, _still_open(ctx.now))
        .values(taken_by=user.id, board_id=None)
        .execution_options(synchronize_session=False)
    )
    if rows_changed(claimed) != 1:  # (another player took it a moment ago)
        ctx.session.expire(offer)
        raise CommandError(f"Open challenge {offer.id} was just taken.", kind=CONFLICT)
    poster = offer.user
    board = start_board(
        ctx,
        game,
        commands.Challenge(
            game=game.name,
            players=(poster.userid, user.userid),
            options=tuple(offer.options),
            nag_days=offer.nag_days,
            forfeit_days=offer.forfeit_days,
            total_days=offer.total_days,
            hints=offer.hints,
            unrated=offer.unrated,
        ),
        TakenOffer(offer.id, offer.comment, command.comment),
    )  # both players chose it: neither declines it by resigning
    ctx.session.execute(
        update(OpenChallenge)
        .where(OpenChallenge.id == offer.id)
        .values(board_id=board.id)
        .execution_options(synchronize_session=False)
    )
    ctx.reply.did(Effect.OPEN_TAKEN)


@runs(commands.WithdrawOpen)
def withdraw(ctx: Context, game: Game, command: commands.WithdrawOpen) -> None:
    user = login(ctx, command.userid, command.password)
    offer = ctx.session.get(OpenChallenge, command.number)
    if offer is None or offer.game != game.name or offer.user_id != user.id:
        raise CommandError(
            f"You have no open {game.title} challenge {command.number}: "
            f"'{game.name} games open' lists the open ones.",
            kind=NOT_FOUND,
        )
    still_open(offer, ctx.now)
    offer.withdrawn_at = ctx.now
    ctx.reply.did(Effect.OPEN_WITHDRAWN)
    ctx.reply.send(
        main_address(user),
        f"{game.title} open challenge {offer.id} withdrawn",
        f"Your open {game.title} challenge {offer.id} is withdrawn; nobody can take it now.\n",
    )


@runs(commands.OpenChallenges)
def open_list(ctx: Context, game: Game, command: commands.OpenChallenges) -> None:
    """`GAME games open`: the open challenges, mailed to the sender."""
    found = listed(ctx.session, game.name, ctx.now)
    reader = sending_user(ctx)
    who = "USERID" if reader is None else reader.userid  # a known reader's own userid
    if not found:
        body = (
            f"No {game.title} challenge is open now. Post one for anyone to take: "
            f"'{game.name} open {who} PASSWORD [-OPTION ...] [--rating=LOW-HIGH]'.\n"
        )
    else:
        lines = [
            f"{plural(len(found), f'open {game.title} challenge')}; "
            f"take one with "
            f"'{game.name} take NUMBER {who} PASSWORD' (its poster moves first):",
            "",
        ]
        for item in found:
            lines.append(
                f"  {item.id:>5}  {item.poster:<16} {item.terms}; "
                f"expires {item.expires_at:%Y-%m-%d}"
            )
            if item.comment:
                lines.append(f"         {item.comment.splitlines()[0][:70]}")
        body = "\n".join(lines) + "\n"
    ctx.reply.send(ctx.sender, f"{game.title} open challenges", body)


def still_open(offer: OpenChallenge, now: datetime) -> None:
    """Refuse (saying why) an open challenge that was taken, withdrawn or has
    expired: it can be neither taken nor withdrawn."""
    gone = ""
    if offer.board_id is not None or offer.taken_by is not None:
        gone = f"was taken: it became board {offer.board_id}"
    elif offer.withdrawn_at is not None:
        gone = "was withdrawn"
    elif offer.expires_at <= now:
        gone = f"expired on {offer.expires_at:%Y-%m-%d %H:%M} UTC"
    if gone:
        raise CommandError(f"Open challenge {offer.id} {gone}.", kind=CONFLICT)


def _listed(row: OpenChallenge, poster: str) -> Listed:
    return Listed(
        id=row.id,
        game=row.game,
        poster=poster,
        options=" ".join(row.options),
        unrated=row.unrated,
        min_rating=row.min_rating,
        max_rating=row.max_rating,
        hints=row.hints,
        comment=row.comment,
        created_at=row.created_at,
        expires_at=row.expires_at,
    )
