"""The periodic job: nags, forfeits, total-time clocks, stalled draw votes,
daily digests and archiving. The server runs it every few minutes (`pbem
tick` runs it once); it only reads the clock it is given, so tests can run
weeks in milliseconds.

It costs what is due, not what exists: a board says when the job is next
due for it (`boards.due_at`, kept by store/boards.py), and a digest user
when their day is up, and only those are looked at. Each board and each
digest is its own short transaction that first claims its row (`FOR UPDATE
SKIP LOCKED` on PostgreSQL) and checks it is still due, so any number of
servers may run the job at once and each item is done exactly once.

For each due active board whose player to move is not on vacation:
- at the forfeit time (days since the board last changed), an open draw
  proposal is taken as accepted; otherwise the player to move forfeits;
- a player whose total time (`--totaltime`) runs out forfeits;
- past the nag time, the player to move is reminded once a day.
Finished boards are archived 14 days after they ended; the Message-IDs of
mails handled, and the copies of mails delivered, are forgotten after 30.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, Select, and_, delete, or_, select, update
from sqlalchemy.orm import QueryableAttribute, Session, sessionmaker

from ...games import get_game
from ...store import (
    Board,
    BoardPlayer,
    BoardStatus,
    Ending,
    OutboxMessage,
    ProcessedMessage,
    User,
    Vote,
    reading,
)
from ...store.boards import (
    NAG_EVERY,
    finished_here,
    forfeit_time,
    players_of,
    rebuild,
    reschedule,
    time_used,
)
from ..context import Context
from ..language.english import plural
from ..language.messages import MailedBoard, Outgoing, Reply, queue_messages
from ..mailing.board_mail import board_body, view_in
from ..mailing.footers import with_footers
from ..players.accounts import main_address
from ..players.ratings import rate_finished_boards
from .lifecycle import can_decline, end_board, loss_of

ARCHIVE_AFTER = timedelta(days=14)
DIGEST_EVERY = timedelta(days=1)
KEEP_MESSAGE_IDS = timedelta(days=30)  # a mail delivered twice this far apart runs once
KEEP_SENT_MAIL = timedelta(days=30)  # a delivered mail's copy in the outbox, for the host
BATCH = 500  # rows archived or forgotten per transaction
MOST_PER_RUN = 5000  # due boards (and digests) one run takes on; the rest wait for the next

T = TypeVar("T")
Sessions = sessionmaker[Session]


def tick(sessions: Sessions, now: datetime) -> list[Outgoing]:
    """One run of the periodic job; returns the mails it queued."""
    messages: list[Outgoing] = []
    for board_id in due_ids(sessions, select(Board.id).where(board_due(now)), Board.due_at):
        messages += in_transaction(sessions, now, partial(check_due_board, board_id=board_id))
    for user_id in due_ids(sessions, select(User.id).where(digest_due(now)), User.id):
        messages += in_transaction(sessions, now, partial(send_digest, user_id=user_id))
    with sessions.begin() as session:  # boards that ended and were not rated (a crash)
        rate_finished_boards(session, now)
    archive(sessions, now)
    forget_old_message_ids(sessions, now)
    forget_sent_mail(sessions, now)
    return messages


def board_due(now: datetime) -> ColumnElement[bool]:
    return and_(Board.due_at <= now, Board.status == BoardStatus.ACTIVE)


def digest_due(now: datetime) -> ColumnElement[bool]:
    """Chose `digest`, and a day since the last one is up."""
    return and_(
        User.mail_preference == "digest",
        or_(User.digest_sent_at.is_(None), User.digest_sent_at <= now - DIGEST_EVERY),
    )


def due_ids(sessions: Sessions, query: Select[int], order: QueryableAttribute[Any]) -> list[int]:
    """The ids due now, the longest due first (read without a lock: each is
    claimed and checked again in its own transaction)."""
    with reading(sessions)() as session:
        return list(session.scalars(query.order_by(order).limit(MOST_PER_RUN)))


def in_transaction(
    sessions: Sessions, now: datetime, work: Callable[[Context], None]
) -> list[Outgoing]:
    """Run one item's work in a transaction of its own; its mails are queued
    in it (with ratings for a board it finished)."""
    with sessions.begin() as session:
        reply = Reply()
        work(Context(session, "", "", now, reply))
        if finished_here(session):
            rate_finished_boards(session, now)
        messages = with_footers(session, reply.messages)
        queue_messages(session, messages, now, None)
    return messages


def claimed(session: Session, query: Select[T]) -> T | None:
    """The row, locked for this transaction, or None when it is no longer
    due or another server holds it (it is doing this item now)."""
    return session.scalar(query.with_for_update(skip_locked=True))


def check_due_board(ctx: Context, board_id: int) -> None:
    board = claimed(ctx.session, select(Board).where(Board.id == board_id, board_due(ctx.now)))
    if board is not None:
        check_board(ctx, board)


def check_board(ctx: Context, board: Board) -> None:
    seat = board.to_move
    if seat is None:
        return
    player = board.players[seat].user
    if player.vacation:
        board.due_at = None  # not due while away; 'vacation off' sets it again
        return
    waited = ctx.now - board.updated_at
    if out_of_time(ctx, board):
        return
    forfeit_at = forfeit_time(board)
    if forfeit_at is not None and ctx.now >= forfeit_at:
        votes = draw_votes(ctx, board)
        if votes:
            proposed = min(vote.created_at for vote in votes)
            if board.nagged_at is None or board.nagged_at <= proposed:
                # each who has not voted hears of it, a day before it stands
                remind_of_draw(ctx, board, not_voted(board, votes), delay=True)
                return
            reason = "drawn: the proposal stood unanswered until the forfeit time"
            end_board(ctx, board, rebuild(board), None, reason, Ending.STANDING_DRAW)
            return
        reason = f"{player.userid} forfeited: no move in {board.forfeit_days} days"
        forfeit(ctx, board, seat, reason, Ending.FORFEIT)
        return
    if board.nag_days and waited >= timedelta(days=board.nag_days):
        last = board.nagged_at
        if last is None or last < board.updated_at or ctx.now - last >= NAG_EVERY:
            board.nagged_at = ctx.now
            nag(ctx, board, player, waited)
            votes = draw_votes(ctx, board)
            others = [user for user in not_voted(board, votes) if user.id != player.id]
            if votes and others:  # everyone asked about the draw hears of it too
                remind_of_draw(ctx, board, others, delay=False)
    reschedule(ctx.session, board)


def out_of_time(ctx: Context, board: Board) -> bool:
    """Whether the player to move has used up their time for the whole game
    (`--totaltime`): then they forfeit, whether the periodic job finds it
    or a move that comes too late (`board_commands.play_turn`)."""
    seat = board.to_move
    if not board.total_days or seat is None:
        return False
    if time_used(board, board.moves, seat, ctx.now) <= timedelta(days=board.total_days):
        return False
    name = players_of(board)[seat]
    reason = f"{name} ran out of time ({board.total_days} days in all)"
    forfeit(ctx, board, seat, reason, Ending.OUT_OF_TIME)
    return True


def draw_votes(ctx: Context, board: Board) -> Sequence[Vote]:
    return ctx.session.scalars(
        select(Vote).where(Vote.board_id == board.id, Vote.kind == "draw")
    ).all()


def not_voted(board: Board, votes: Sequence[Vote]) -> list[User]:
    """The players who have not voted for the draw proposed on the board."""
    voted = {vote.seat for vote in votes}
    return [player.user for player in board.players if player.seat not in voted]


def remind_of_draw(ctx: Context, board: Board, players: list[User], *, delay: bool) -> None:
    """Tell each player who has not voted that the draw proposed on the
    board is taken as accepted at the forfeit time without their answer
    (`delay`: that time is now, so it waits a day for them)."""
    title = get_game(board.game).title
    if delay:
        board.forfeit_not_before = ctx.now + NAG_EVERY
        board.nagged_at = ctx.now
    deadline = forfeit_time(board)
    for user in players:
        ctx.reply.send(
            main_address(user),
            f"{title} Board {board.id} {user.userid} (reminder: a draw is proposed)",
            f"A draw is proposed on board {board.id} and you have not answered. Without "
            f"an answer by {deadline:%Y-%m-%d %H:%M} UTC the board is drawn: "
            f"'{board.game} accept {board.id} {user.userid} PASSWORD' agrees now, "
            f"'{board.game} reject {board.id} {user.userid} PASSWORD' refuses it.\n",
        )
    reschedule(ctx.session, board)


def nag(ctx: Context, board: Board, player: User, waited: timedelta) -> None:
    title = get_game(board.game).title
    days = waited.days
    lines = [f"It has been your move on board {board.id} for {plural(days, 'day')}."]
    seat = board.to_move
    assert seat is not None  # (a nag goes to the player to move)
    deadline = forfeit_time(board)
    when = "" if deadline is None else f"{deadline:%Y-%m-%d %H:%M} UTC"
    if deadline is not None and draw_votes(ctx, board):
        lines.append(
            f"A draw is proposed on this board: without a move by {when}, the board is drawn."
        )
    elif deadline is not None and can_decline(board, seat):
        lines.append(
            f"You have not taken up this challenge: without a move by {when}, the board "
            "simply ends unplayed, unrated, and nobody wins. To decline it now: "
            f"'{board.game} resign {board.id} {player.userid} PASSWORD'."
        )
    elif deadline is not None:
        lines.append(f"Without a move by {when} you forfeit.")
    lines.append(f"On vacation? 'vacation {player.userid} PASSWORD on' stops the clock.")
    view = view_in(ctx.session, board)
    body = board_body(view, rebuild(board), seat, now=ctx.now)  # the board, as pbmserv's nag had it
    ctx.reply.send(
        main_address(player),
        f"{title} Board {board.id} {player.userid} (reminder)",
        "\n".join(lines) + "\n\n" + body,
        board=MailedBoard(board.id, board.version, seat),
    )


def forfeit(ctx: Context, board: Board, seat: int, reason: str, ending: Ending) -> None:
    """The player at `seat` loses on time; one who never moved on the board
    nor accepted it never took up the challenge, and a challenge nobody
    answered is not rated (or anyone could farm ratings off strangers)."""
    if can_decline(board, seat):
        name = players_of(board)[seat]
        reason = f"{name} never answered the challenge in time; not rated"
        end_board(ctx, board, rebuild(board), None, reason, Ending.UNANSWERED)
        return
    winner, reason = loss_of(board, seat, reason)
    end_board(ctx, board, rebuild(board), winner, reason, ending)


def awaiting(session: Session, user_id: int) -> list[Board]:
    """The active boards where it is this user's move, oldest first."""
    return list(
        session.scalars(
            select(Board)
            .join(BoardPlayer, BoardPlayer.board_id == Board.id)
            .where(
                BoardPlayer.user_id == user_id,
                Board.status == BoardStatus.ACTIVE,
                Board.to_move == BoardPlayer.seat,
            )
            .order_by(Board.id)
        )
    )


def send_digest(ctx: Context, user_id: int) -> None:
    """Once a day, to a player who chose `digest`: the boards awaiting them."""
    user = claimed(ctx.session, select(User).where(User.id == user_id, digest_due(ctx.now)))
    if user is None:
        return
    user.digest_sent_at = ctx.now
    waiting = awaiting(ctx.session, user.id)
    if not waiting:
        return
    lines = [f"Boards awaiting your move, {user.userid}:"]
    for board in waiting:
        others = " and ".join(n for n in players_of(board) if n != user.userid)
        against = f"against {others}" if others else "(you play both sides)"
        days = (ctx.now - board.updated_at).days
        lines.append(
            f"  {get_game(board.game).title} board {board.id} {against}, "
            f"move {board.version + 1}, waiting {plural(days, 'day')}"
        )
    count = len(waiting)
    await_ = "1 board awaits you" if count == 1 else f"{count} boards await you"
    ctx.reply.send(
        main_address(user),
        f"pbem digest {user.userid}: {await_}",
        "\n".join(lines) + "\n",
    )


def archive(sessions: Sessions, now: datetime) -> None:
    """Finished boards 14 days old become archived, a batch per transaction."""
    while True:
        with sessions.begin() as session:
            ids = list(
                session.scalars(
                    select(Board.id)
                    .where(
                        Board.status == BoardStatus.FINISHED,
                        Board.updated_at <= now - ARCHIVE_AFTER,
                    )
                    .limit(BATCH)
                )
            )
            if ids:
                session.execute(
                    update(Board)
                    .where(Board.id.in_(ids), Board.status == BoardStatus.FINISHED)
                    .values(status=BoardStatus.ARCHIVED)
                )
        if len(ids) < BATCH:
            return


def forget_old_message_ids(sessions: Sessions, now: datetime) -> None:
    """Drop the Message-IDs of mails handled long ago."""
    stamps = (ProcessedMessage.processed_at,)
    forget(sessions, ProcessedMessage.key, stamps, now - KEEP_MESSAGE_IDS)


def forget_sent_mail(sessions: Sessions, now: datetime) -> None:
    """Drop the copies of mails delivered long ago (unsent ones stay until
    they go): the outbox would otherwise keep every board mail ever sent,
    most of the database on a busy server. Mails delivery gave up on go
    as long after they were given up."""
    stamps = (OutboxMessage.sent_at, OutboxMessage.failed_at)
    forget(sessions, OutboxMessage.id, stamps, now - KEEP_SENT_MAIL)


def forget(
    sessions: Sessions,
    key: QueryableAttribute[Any],
    stamps: Sequence[QueryableAttribute[Any]],
    before: datetime,
) -> None:
    """Delete the rows with any of `stamps` before `before` (found by their
    indexes: the cost is what is due), a batch per transaction."""
    old = or_(*(stamp < before for stamp in stamps))
    while True:
        with sessions.begin() as session:
            keys = list(session.scalars(select(key).where(old).limit(BATCH)))
            if keys:
                session.execute(delete(key.class_).where(key.in_(keys)))
        if len(keys) < BATCH:
            return
