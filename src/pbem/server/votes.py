"""Proposals every player must accept: a draw, or taking back the last move.

`propose` (a draw) and `undo` (take back the last move) cast the proposer's
vote; `accept` votes for every open proposal; `reject` withdraws them all.
When every player has voted for a proposal it is carried out. A move ends
every open proposal.
"""

from __future__ import annotations

from sqlalchemy import delete, select

from ..games import get_game
from ..games.base import Game
from ..store import Board, Vote
from ..store.boards import finish_board, take_back
from .accounts import authenticate, main_address
from .board_mail import players_of
from .context import Context, board_numbered, seat_of, send_board, stop_line, usage
from .errors import CommandError
from .turns import active_state, clear_votes

WHAT = {"draw": "a draw", "undo": "taking back the last move"}


def propose(ctx: Context, game: Game, words: list[str]) -> None:
    vote(ctx, game, words, "draw", f"{game.name} propose BOARD USERID PASSWORD")


def undo(ctx: Context, game: Game, words: list[str]) -> None:
    vote(ctx, game, words, "undo", f"{game.name} undo BOARD USERID PASSWORD")


def vote(ctx: Context, game: Game, words: list[str], kind: str, form: str) -> None:
    usage(form, words, 3)
    board = board_numbered(ctx, game, words[0])
    user = authenticate(ctx.session, words[1], words[2])
    seat = seat_of(board, user)
    active_state(board)
    if kind == "undo" and board.version == 0:
        raise CommandError(f"Board {board.id} has no move to take back yet.", board.id)
    if not game.can_undo and kind == "undo":
        raise CommandError(f"{game.title} does not allow taking moves back.", board.id)
    cast(ctx, board, seat, kind)
    if not carry(ctx, board, kind):
        announce(ctx, board, f"{user.userid} proposes {WHAT[kind]}", kind)


def accept(ctx: Context, game: Game, words: list[str]) -> None:
    usage(f"{game.name} accept BOARD USERID PASSWORD", words, 3)
    board, seat, user = voter(ctx, game, words)
    kinds = open_kinds(ctx, board)
    if not kinds:
        raise CommandError(f"Nothing is proposed on board {board.id}.", board.id)
    for kind in kinds:
        cast(ctx, board, seat, kind)
        if not carry(ctx, board, kind):
            announce(ctx, board, f"{user.userid} accepts {WHAT[kind]}", kind)


def reject(ctx: Context, game: Game, words: list[str]) -> None:
    usage(f"{game.name} reject BOARD USERID PASSWORD", words, 3)
    board, _, user = voter(ctx, game, words)
    kinds = open_kinds(ctx, board)
    if not kinds:
        raise CommandError(f"Nothing is proposed on board {board.id}.", board.id)
    clear_votes(ctx, board)
    for player in board.players:
        ctx.reply.send(
            main_address(player.user),
            f"{get_game(board.game).title} Board {board.id} proposal rejected",
            f"{user.userid} rejects {' and '.join(WHAT[k] for k in kinds)} on board "
            f"{board.id}; play goes on.\n\n{stop_line(player.user)}\n",
        )


def voter(ctx: Context, game: Game, words: list[str]) -> tuple[Board, int, object]:
    board = board_numbered(ctx, game, words[0])
    user = authenticate(ctx.session, words[1], words[2])
    seat = seat_of(board, user)
    active_state(board)
    return board, seat, user


def open_kinds(ctx: Context, board: Board) -> list[str]:
    kinds = ctx.session.scalars(select(Vote.kind).where(Vote.board_id == board.id)).all()
    return sorted(set(kinds))


def cast(ctx: Context, board: Board, seat: int, kind: str) -> None:
    exists = ctx.session.scalar(
        select(Vote).where(Vote.board_id == board.id, Vote.kind == kind, Vote.seat == seat)
    )
    if exists is None:
        ctx.session.add(Vote(board_id=board.id, kind=kind, seat=seat, created_at=ctx.now))
        ctx.session.flush()


def carry(ctx: Context, board: Board, kind: str) -> bool:
    """Carry out the proposal if every player voted for it; whether it was."""
    seats = set(
        ctx.session.scalars(
            select(Vote.seat).where(Vote.board_id == board.id, Vote.kind == kind)
        ).all()
    )
    if seats != {player.seat for player in board.players}:
        return False
    ctx.session.execute(delete(Vote).where(Vote.board_id == board.id, Vote.kind == kind))
    if kind == "draw":
        state = active_state(board)
        finish_board(ctx.session, board, None, "drawn by agreement", ctx.now)
        clear_votes(ctx, board)
    else:
        state = take_back(ctx.session, board, ctx.now)
        clear_votes(ctx, board)
    send_board(ctx, board, state)
    return True


def announce(ctx: Context, board: Board, what: str, kind: str) -> None:
    title = get_game(board.game).title
    names = players_of(board)
    voted = set(
        ctx.session.scalars(
            select(Vote.seat).where(Vote.board_id == board.id, Vote.kind == kind)
        ).all()
    )
    missing = ", ".join(names[p.seat] for p in board.players if p.seat not in voted)
    for player in board.players:
        ctx.reply.send(
            main_address(player.user),
            f"{title} Board {board.id} {kind} proposed",
            f"{what} on board {board.id}. Waiting for: {missing}. Reply with "
            f"'{board.game} accept {board.id} USERID PASSWORD' or '... reject ...'.\n\n"
            f"{stop_line(player.user)}\n",
        )
