"""The periodic job: nags, forfeits, total-time clocks, stalled draw votes,
daily digests and archiving. The server runs it every few minutes (`pbem
tick` runs it once); it only reads the clock it is given, so tests can run
weeks in milliseconds.

For each active board whose player to move is not on vacation:
- at the forfeit time (days since the board last changed), an open draw
  proposal is taken as accepted; otherwise the player to move forfeits;
- a player whose total time (`--totaltime`) runs out forfeits;
- past the nag time, the player to move is reminded once a day.
Finished boards are archived 14 days after they ended.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..games import get_game
from ..store import Board, User, Vote
from ..store.boards import awaits, boards_of, rebuild
from .accounts import main_address
from .board_mail import players_of
from .context import Context
from .messages import Reply
from .turns import end_board, loss_of

ARCHIVE_AFTER = timedelta(days=14)
NAG_EVERY = timedelta(days=1)
DIGEST_EVERY = timedelta(days=1)


def time_used(board: Board, seat: int, now: datetime) -> timedelta:
    """The time `seat` has spent on its moves, and on the current wait if it
    is to move: each move's time runs from the move before it."""
    used = timedelta()
    previous = board.created_at
    for move in board.moves:
        if move.seat == seat:
            used += move.played_at - previous
        previous = move.played_at
    if board.snapshot.get("to_move") == seat:
        used += now - previous
    return used


def tick(session: Session, now: datetime) -> Reply:
    """One run of the periodic job, in the caller's transaction."""
    reply = Reply()
    ctx = Context(session, "", "", now, reply)
    for board in session.scalars(
        select(Board).where(Board.status == "active").order_by(Board.id)
    ).all():
        check_board(ctx, board)
    for board in session.scalars(
        select(Board).where(Board.status == "finished", Board.updated_at <= now - ARCHIVE_AFTER)
    ).all():
        board.status = "archived"
    send_digests(ctx)
    return reply


def check_board(ctx: Context, board: Board) -> None:
    seat = board.snapshot.get("to_move")
    if seat is None:
        return
    player = board.players[seat].user
    if player.vacation:
        return
    names = players_of(board)
    waited = ctx.now - board.updated_at
    if board.total_days and time_used(board, seat, ctx.now) > timedelta(days=board.total_days):
        forfeit(ctx, board, seat, f"{names[seat]} ran out of time ({board.total_days} days in all)")
        return
    if board.forfeit_days and waited >= timedelta(days=board.forfeit_days):
        proposals = ctx.session.scalars(
            select(Vote.kind).where(Vote.board_id == board.id, Vote.kind == "draw")
        ).all()
        if proposals:
            reason = "drawn: the proposal stood unanswered until the forfeit time"
            end_board(ctx, board, rebuild(board), None, reason)
            return
        forfeit(ctx, board, seat, f"{names[seat]} forfeited: no move in {board.forfeit_days} days")
        return
    if board.nag_days and waited >= timedelta(days=board.nag_days):
        last = board.nagged_at
        if last is None or last < board.updated_at or ctx.now - last >= NAG_EVERY:
            board.nagged_at = ctx.now
            nag(ctx, board, player, waited)


def nag(ctx: Context, board: Board, player: User, waited: timedelta) -> None:
    title = get_game(board.game).title
    lines = [f"It has been your move on board {board.id} for {waited.days} days."]
    if board.forfeit_days:
        deadline = board.updated_at + timedelta(days=board.forfeit_days)
        lines.append(f"Without a move by {deadline:%Y-%m-%d %H:%M} UTC you forfeit.")
    lines.append(f"On vacation? 'vacation {player.userid} PASSWORD on' stops the clock.")
    ctx.reply.send(
        main_address(player),
        f"{title} Board {board.id} {player.userid} (reminder)",
        "\n".join(lines) + "\n",
    )


def forfeit(ctx: Context, board: Board, seat: int, reason: str) -> None:
    end_board(ctx, board, rebuild(board), *loss_of(board, seat, reason))


def send_digests(ctx: Context) -> None:
    """Once a day, to each player who chose `digest`: the boards awaiting them."""
    users = ctx.session.scalars(select(User).where(User.mail_preference == "digest")).all()
    for user in users:
        if user.digest_sent_at is not None and ctx.now - user.digest_sent_at < DIGEST_EVERY:
            continue
        waiting = [
            board
            for board in boards_of(ctx.session, user.id, active=True)
            if awaits(board, user.id)
        ]
        user.digest_sent_at = ctx.now
        if not waiting:
            continue
        lines = [f"Boards awaiting your move, {user.userid}:"]
        for board in waiting:
            others = " and ".join(n for n in players_of(board) if n != user.userid)
            days = (ctx.now - board.updated_at).days
            lines.append(
                f"  {get_game(board.game).title} board {board.id} against {others}, "
                f"move {board.version + 1}, waiting {days} days"
            )
        ctx.reply.send(
            main_address(user),
            f"pbem digest {user.userid}: {len(waiting)} boards await you",
            "\n".join(lines) + "\n",
        )
