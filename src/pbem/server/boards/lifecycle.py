"""A board's life after its challenge: the position a command may act on,
the queued moves that answer a move, and the one way a board ends by the
server's rules rather than by a move (a resignation, an agreed draw, a
forfeit): result, its kind, what waited on the board dropped, the board
mailed. Ratings follow when the command commits (ratings.py), archiving in
the periodic job (tick.py)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select

from ...games import get_game
from ...games.base import MoveError, State
from ...store import Board, BoardStatus, Ending, PendingMove, QueuedMove, Vote
from ...store.boards import apply_move, finish_board, players_of, rebuild
from ..context import Context
from ..errors import CONFLICT, CommandError
from ..mailing.board_mail import send_board
from ..players.accounts import main_address

RESIGN = "resign"  # a queued resignation's text


def clear_votes(ctx: Context, board: Board) -> None:
    """A move ends every open proposal: they were about the old position."""
    ctx.session.execute(delete(Vote).where(Vote.board_id == board.id))


def active_state(board: Board) -> State[Any]:
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
    state: State[Any],
    winner: int | None,
    reason: str,
    ending: Ending,
    *,
    comment: str = "",
    commenter: str = "",
) -> None:
    """End an active board by the server's rules, not by a move (a
    resignation, an agreed draw, a forfeit): record the result, drop what
    waited on the board (queued and submitted moves, proposals), and mail
    it with the comment of the player who ended it."""
    finish_board(ctx.session, board, winner, reason, ending, ctx.now)
    ctx.session.execute(delete(QueuedMove).where(QueuedMove.board_id == board.id))
    ctx.session.execute(delete(PendingMove).where(PendingMove.board_id == board.id))
    clear_votes(ctx, board)
    send_board(ctx, board, state, comment=comment, commenter=commenter)


def loss_of(board: Board, seat: int, reason: str) -> tuple[int | None, str]:
    """The winner when the player at `seat` loses (the other, in a two-player
    game), and the reason saying so."""
    names = players_of(board)
    if len(names) != 2:
        return None, reason
    return 1 - seat, f"{reason}; {names[1 - seat]} wins"


def end_by_resignation(
    ctx: Context, board: Board, state: State[Any], seat: int, comment: str = ""
) -> None:
    """The player at `seat` gives up (saying `comment`). Before their first
    move, unless they accepted the challenge, that declines it: the board
    ends unrated."""
    name = players_of(board)[seat]
    said = {"comment": comment, "commenter": name}
    if can_decline(board, seat):
        reason = f"{name} declined the challenge; not rated"
        end_board(ctx, board, state, None, reason, Ending.DECLINED, **said)
    else:
        winner, reason = loss_of(board, seat, f"{name} resigned")
        end_board(ctx, board, state, winner, reason, Ending.RESIGNATION, **said)


def after_move(ctx: Context, board: Board, state: State[Any]) -> None:
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
            end_by_resignation(ctx, board, state, seat, chosen.comment)
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
