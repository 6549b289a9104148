"""Turns beyond a plain move: resigning, and moves queued ahead of a turn.

A queued move waits for the player's next turn. It may carry a condition,
the opponent's move it answers (`queue 7 bob pw c3,1 if b2,0`): when the
turn comes, the first queued move whose condition is the move just played
(or that has none) is played at once and marked auto; the rest are dropped,
since a queue answers one move. A resignation sent out of turn is queued the
same way and takes effect when the turn comes.
"""

from __future__ import annotations

from sqlalchemy import delete, select

from ..games import get_game
from ..games.base import Game, IllegalMove, MoveError, MoveSyntaxError, State
from ..store import Board, BoardStatus, Ending, PendingMove, QueuedMove, Vote
from ..store.boards import apply_move, finish_board, rebuild
from . import commands
from .accounts import main_address
from .board_mail import players_of
from .context import Context, board_of, login, seat_of, send_board
from .errors import CONFLICT, CommandError
from .messages import Effect

RESIGN = "resign"


def clear_votes(ctx: Context, board: Board) -> None:
    """A move ends every open proposal: they were about the old position."""
    ctx.session.execute(delete(Vote).where(Vote.board_id == board.id))


def resign(ctx: Context, game: Game, command: commands.Resign) -> None:
    board = board_of(ctx, game, command.board)
    user = login(ctx, command.userid, command.password)
    seat = seat_of(board, user)
    state = active_state(board)
    if state.to_move == seat or can_decline(board, seat):
        end_by_resignation(ctx, board, state, seat)
        ctx.reply.did(Effect.RESIGNED)
        return
    queue_entry(ctx, board, seat, RESIGN, "")
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
    queue_entry(ctx, board, seat, command.move, condition)
    when = f"if the reply is {condition}" if condition else "whatever the reply"
    ctx.reply.send(
        main_address(user),
        f"{game.title} Board {board.id} queued",
        f"On board {board.id}, {command.move} will be played for {user.userid} at their next "
        f"turn, {when}.\n",
    )
    ctx.reply.did(Effect.QUEUED)


def queue_entry(ctx: Context, board: Board, seat: int, text: str, condition: str) -> None:
    ctx.session.add(
        QueuedMove(
            board_id=board.id,
            seat=seat,
            text=text,
            condition=condition,
            comment=ctx.body,
            created_at=ctx.now,
        )
    )
    ctx.session.flush()


def active_state(board: Board) -> State:
    state = rebuild(board)
    if state.result is not None:
        raise CommandError(
            f"Board {board.id} is over: {state.status_line()}", board.id, kind=CONFLICT
        )
    if board.status is not BoardStatus.ACTIVE:
        raise CommandError(f"Board {board.id} is over: {board.result}.", board.id, kind=CONFLICT)
    return state


def has_moved(board: Board, seat: int) -> bool:
    return any(move.seat == seat for move in board.moves)


def can_decline(board: Board, seat: int) -> bool:
    """Whether resigning now declines the challenge: the player has neither
    moved nor accepted it."""
    return not has_moved(board, seat) and not board.players[seat].accepted


def end_board(
    ctx: Context,
    board: Board,
    state: State,
    winner: int | None,
    reason: str,
    ending: Ending,
) -> None:
    """End an active board by the server's rules, not by a move (a
    resignation, an agreed draw, a forfeit): record the result, drop what
    waited on the board (queued and submitted moves, proposals), and mail it."""
    finish_board(ctx.session, board, winner, reason, ending, ctx.now)
    ctx.session.execute(delete(QueuedMove).where(QueuedMove.board_id == board.id))
    ctx.session.execute(delete(PendingMove).where(PendingMove.board_id == board.id))
    clear_votes(ctx, board)
    send_board(ctx, board, state)


def loss_of(board: Board, seat: int, reason: str) -> tuple[int | None, str]:
    """The winner when the player at `seat` loses (the other, in a two-player
    game), and the reason saying so."""
    names = players_of(board)
    if len(names) != 2:
        return None, reason
    return 1 - seat, f"{reason}; {names[1 - seat]} wins"


def end_by_resignation(ctx: Context, board: Board, state: State, seat: int) -> None:
    """The player at `seat` gives up. Before their first move, unless they
    accepted the challenge, that declines it: the board ends unrated."""
    name = players_of(board)[seat]
    if can_decline(board, seat):
        reason = f"{name} declined the challenge; not rated"
        end_board(ctx, board, state, None, reason, Ending.DECLINED)
    else:
        winner, reason = loss_of(board, seat, f"{name} resigned")
        end_board(ctx, board, state, winner, reason, Ending.RESIGNATION)


def after_move(ctx: Context, board: Board, state: State) -> None:
    """Play the queued moves that answer the move just made, one after another."""
    while state.result is None and board.status is BoardStatus.ACTIVE and state.to_move is not None:
        seat = state.to_move
        waiting = ctx.session.scalars(
            select(QueuedMove)
            .where(QueuedMove.board_id == board.id, QueuedMove.seat == seat)
            .order_by(QueuedMove.id)
        ).all()
        if not waiting:
            return
        answered = board.moves[-1].text if board.moves else ""
        chosen = next((q for q in waiting if q.condition in ("", answered)), None)
        ctx.session.execute(
            delete(QueuedMove).where(QueuedMove.board_id == board.id, QueuedMove.seat == seat)
        )
        if chosen is None:
            return
        if chosen.text == RESIGN:
            end_by_resignation(ctx, board, state, seat)
            return
        try:
            state = apply_move(
                ctx.session, board, board.version, chosen.text, ctx.now,
                comment=chosen.comment, auto=True,
            )  # fmt: skip
        except MoveError as error:
            player = board.players[seat].user
            ctx.reply.send(
                main_address(player),
                f"{get_game(board.game).title} Board {board.id} queued move dropped",
                f"Your queued move {chosen.text} on board {board.id} could not be played: "
                f"{error.reason}. It is your move.\n",
            )
            return
        clear_votes(ctx, board)
        names = players_of(board)
        send_board(ctx, board, state, comment=chosen.comment, commenter=names[seat])
