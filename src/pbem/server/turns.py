"""Turns beyond a plain move: resigning, and moves queued ahead of a turn.

A queued move waits for the player's next turn. It may carry a condition,
the opponent's move it answers (`queue 7 bob pw c3,1 if b2,0`): when the
turn comes, the first queued move whose condition is the move just played
(or that has none) is played at once and marked auto; the rest are dropped,
since a queue answers one move. A resignation sent out of turn is queued the
same way and takes effect when the turn comes.
"""

from __future__ import annotations

from ..games.base import Game, IllegalMove, MoveError, MoveSyntaxError
from ..store import Board, QueuedMove
from . import commands
from .accounts import main_address
from .context import Context, board_of, login, seat_of
from .errors import CONFLICT, CommandError
from .lifecycle import RESIGN, active_state, can_decline, end_by_resignation
from .messages import Effect


def resign(ctx: Context, game: Game, command: commands.Resign) -> None:
    board = board_of(ctx, game, command.board)
    user = login(ctx, command.userid, command.password)
    seat = seat_of(board, user)
    state = active_state(board)
    if state.to_move == seat or can_decline(board, seat):
        end_by_resignation(ctx, board, state, seat, command.comment)
        ctx.reply.did(Effect.RESIGNED)
        return
    queue_entry(ctx, board, seat, RESIGN, "", command.comment)
    for player in board.players:
        ctx.reply.send(
            main_address(player.user),
            f"{game.title} Board {board.id} {user.userid} will resign",
            f"{user.userid} resigns board {board.id}; as it is not their move, the "
            "resignation takes effect when their turn comes.\n",
        )
    ctx.reply.did(Effect.RESIGN_QUEUED)


def queue(ctx: Context, game: Game, command: commands.Queue) -> None:
    board = board_of(ctx, game, command.board)
    user = login(ctx, command.userid, command.password)
    seat = seat_of(board, user)
    state = active_state(board)
    if state.to_move == seat:
        raise CommandError(
            f"It is your move on board {board.id}: play it with '{game.name} move' "
            "instead of queueing it.",
            board.id,
            kind=CONFLICT,
        )
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
    queue_entry(ctx, board, seat, command.move, condition, command.comment)
    when = f"if the reply is {condition}" if condition else "whatever the reply"
    ctx.reply.send(
        main_address(user),
        f"{game.title} Board {board.id} queued",
        f"On board {board.id}, {command.move} will be played for {user.userid} at their next "
        f"turn, {when}.\n",
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
