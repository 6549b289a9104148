"""Turns beyond a plain move: resigning, and moves queued ahead of a turn.

A queued move waits for the player's next turn; on their own turn `queue`
is `move`. It may carry a condition, the opponent's move it answers (`queue
7 bob pw c3,1 if b2,0`): when the turn comes, the first queued move whose
condition is the move just played (or that has none) is played at once and
marked auto; the rest are dropped, since a queue answers one move. A new
queued move replaces the one with the same condition (pbmserv's queue held
one move). A resignation sent out of turn is queued the same way and takes
effect when the turn comes; sending it again takes it back.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ...games.base import Game, IllegalMove, MoveError, MoveSyntaxError, State
from ...store import Board, QueuedMove, User
from ..context import Context, board_of, login, seat_of
from ..errors import CONFLICT, CommandError
from ..language import commands
from ..language.messages import Effect, MailedBoard
from ..language.registry import runs
from ..mailing.board_mail import board_body, view_in
from ..players.accounts import main_address
from .lifecycle import RESIGN, active_state, can_decline, end_by_resignation


@runs(commands.Resign)
def resign(ctx: Context, game: Game, command: commands.Resign) -> None:
    """Resign now on your turn (or decline a challenge); out of turn, the
    resignation waits for the turn and only the resigner is told (sending
    it again takes it back)."""
    board = board_of(ctx, game, command.board)
    user = login(ctx, command.userid, command.password)
    seat = seat_of(board, user)
    state = active_state(board)
    if state.to_move == seat or can_decline(board, seat):
        end_by_resignation(ctx, board, state, seat, command.comment)
        ctx.reply.did(Effect.RESIGNED)
        return
    waiting = ctx.session.scalars(
        select(QueuedMove).where(
            QueuedMove.board_id == board.id, QueuedMove.seat == seat, QueuedMove.text == RESIGN
        )
    ).all()
    if waiting:
        for row in waiting:
            ctx.session.delete(row)
        ctx.reply.send(
            main_address(user),
            f"{game.title} Board {board.id} resignation taken back",
            f"Your resignation on board {board.id} is taken back: you play on.\n",
        )
        ctx.reply.did(Effect.QUEUED)
        return
    queue_entry(ctx, board, seat, RESIGN, "", command.comment)
    ctx.reply.send(
        main_address(user),
        f"{game.title} Board {board.id} {user.userid} will resign",
        f"You resign board {board.id}; as it is not your move, the resignation takes "
        f"effect when your turn comes, and only you are told until then. To take it "
        f"back, send '{game.name} resign {board.id} {user.userid} PASSWORD' again.\n",
    )
    ctx.reply.did(Effect.RESIGN_QUEUED)


def queue(
    ctx: Context, game: Game, board: Board, user: User, state: State[Any], command: commands.Queue
) -> None:
    """Queue the player's move for their next turn (the caller plays it at
    once when it is their turn already): it replaces their queued move with
    the same condition (pbmserv's queue holds one move); they get the board
    with what is queued."""
    seat = seat_of(board, user)
    condition = ""
    if command.condition:
        try:
            reply = state.parse_move(command.condition)
            state.play(reply)  # the opponent must be able to play it now
            condition = state.move_text(reply)
        except MoveError as error:
            raise CommandError(
                f"The condition {command.condition[:40]} is no move the opponent can make: "
                f"{error.reason}.",
                board.id,
                kind=CONFLICT,
            ) from None
    try:
        state.parse_move(command.move)  # readable now; whether legal is decided when played
    except MoveSyntaxError as error:
        raise CommandError(
            f"Cannot read the move {command.move[:40]}: {error.reason}.", board.id
        ) from None
    except IllegalMove:
        pass
    replaced = ctx.session.scalars(
        select(QueuedMove).where(
            QueuedMove.board_id == board.id,
            QueuedMove.seat == seat,
            QueuedMove.condition == condition,
            QueuedMove.text != RESIGN,
        )
    ).all()
    for row in replaced:
        ctx.session.delete(row)
    queue_entry(ctx, board, seat, command.move, condition, command.comment)
    queued = ctx.session.scalars(
        select(QueuedMove)
        .where(QueuedMove.board_id == board.id, QueuedMove.seat == seat)
        .order_by(QueuedMove.id)
    ).all()
    lines = [
        "You have the following move queued:"
        if len(queued) == 1
        else "You have the following moves queued (the first that fits is played):"
    ]
    for row in queued:
        when = f" if the reply is {row.condition}" if row.condition else ""
        lines.append(f"  {row.text}{when}")
    if replaced:
        lines.append(f"(it replaces {', '.join(row.text for row in replaced)})")
    view = view_in(ctx.session, board)
    ctx.reply.send(
        main_address(user),
        f"{game.title} Board {board.id} queued",
        "\n".join(lines) + "\n\n" + board_body(view, state, seat, now=ctx.now),
        board=MailedBoard(board.id, board.version, seat),
    )
    ctx.reply.did(Effect.QUEUED)


def queue_entry(
    ctx: Context, board: Board, seat: int, text: str, condition: str, comment: str
) -> None:
    ctx.session.add(
        QueuedMove(
            board_id=board.id,
            seat=seat,
            text=text,
            condition=condition,
            comment=comment,
            created_at=ctx.now,
        )
    )
    ctx.session.flush()
