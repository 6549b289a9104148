"""Proposals every player must accept: a draw, or taking back the last move.

`propose` (a draw) and `undo` (take back the last move) cast the proposer's
vote; `accept` votes for every open proposal; `reject` withdraws them all.
When every player has voted for a proposal it is carried out. A move ends
every open proposal.
"""

from __future__ import annotations

from sqlalchemy import select

from ...games import get_game
from ...games.base import Game
from ...store import Board, Ending, User, Vote
from ...store.boards import players_of, take_back
from ..context import Context, board_of, login, seat_of
from ..errors import CONFLICT, CommandError
from ..language import commands
from ..language.messages import Effect
from ..language.registry import runs
from ..mailing.board_mail import quoted, send_board, starred, subscribers
from ..players.accounts import main_address
from .lifecycle import active_state, clear_votes, end_board

WHAT = {"draw": "a draw", "undo": "taking back the last move"}


@runs(commands.Propose)
def propose(ctx: Context, game: Game, command: commands.Propose) -> None:
    vote(ctx, game, command, "draw")


@runs(commands.Undo)
def undo(ctx: Context, game: Game, command: commands.Undo) -> None:
    vote(ctx, game, command, "undo")


def vote(ctx: Context, game: Game, command: commands.OnBoard, kind: str) -> None:
    board, _, user = voter(ctx, game, command)
    if kind == "undo" and board.version == 0:
        raise CommandError(
            f"Board {board.id} has no move to take back yet.", board.id, kind=CONFLICT
        )
    if not game.can_undo and kind == "undo":
        raise CommandError(f"{game.title} does not allow taking moves back.", board.id)
    cast(ctx, board, user, kind)
    if not carry(ctx, board, kind, user, command.comment):
        announce(ctx, board, f"{user.userid} proposes {WHAT[kind]}", kind, user, command.comment)


@runs(commands.Accept)
def accept(ctx: Context, game: Game, command: commands.OnBoard) -> None:
    """Vote for every proposal open on the board."""
    board, _, user = voter(ctx, game, command)
    for kind in open_kinds(ctx, board):
        cast(ctx, board, user, kind)
        if not carry(ctx, board, kind, user, command.comment):
            what = f"{user.userid} accepts {WHAT[kind]}"
            announce(ctx, board, what, kind, user, command.comment)


@runs(commands.Reject)
def reject(ctx: Context, game: Game, command: commands.OnBoard) -> None:
    """End every proposal open on the board."""
    board, _, user = voter(ctx, game, command)
    kinds = open_kinds(ctx, board)
    clear_votes(ctx, board)
    for reader in readers(ctx, board):
        ctx.reply.send(
            main_address(reader),
            starred(
                f"{get_game(board.game).title} Board {board.id} proposal rejected", command.comment
            ),
            f"{user.userid} rejects {' and '.join(WHAT[k] for k in kinds)} on board "
            f"{board.id}; play goes on.\n" + quoted(command.comment, user.userid),
        )
    ctx.reply.did(Effect.PROPOSAL_REJECTED)


def readers(ctx: Context, board: Board) -> list[User]:
    """Who hears of proposals and their answers: the players, then the
    board's subscribers."""
    players = [player.user for player in board.players]
    return players + [u for u in subscribers(ctx.session, board) if u not in players]


def voter(ctx: Context, game: Game, command: commands.OnBoard) -> tuple[Board, int, User]:
    """The board, the voter's seat and the voter, checked."""
    board = board_of(ctx, game, command.board)
    user = login(ctx, command.userid, command.password)
    seat = seat_of(board, user)
    active_state(board)
    return board, seat, user


def open_kinds(ctx: Context, board: Board) -> list[str]:
    """What is proposed on the board; a CommandError when nothing is."""
    kinds = sorted(set(ctx.session.scalars(select(Vote.kind).where(Vote.board_id == board.id))))
    if not kinds:
        raise CommandError(
            f"Nothing is proposed on board {board.id}: '{board.game} propose' or "
            f"'{board.game} undo' proposes.",
            board.id,
            kind=CONFLICT,
        )
    return kinds


def voted_seats(ctx: Context, board: Board, kind: str) -> set[int]:
    return set(
        ctx.session.scalars(select(Vote.seat).where(Vote.board_id == board.id, Vote.kind == kind))
    )


def cast(ctx: Context, board: Board, user: User, kind: str) -> None:
    """The user's vote, for each of their seats (a player alone on a board
    holds both)."""
    for seat in (player.seat for player in board.players if player.user_id == user.id):
        exists = ctx.session.scalar(
            select(Vote).where(Vote.board_id == board.id, Vote.kind == kind, Vote.seat == seat)
        )
        if exists is None:
            ctx.session.add(Vote(board_id=board.id, kind=kind, seat=seat, created_at=ctx.now))
            ctx.session.flush()


def carry(ctx: Context, board: Board, kind: str, user: User, comment: str) -> bool:
    """Carry out the proposal if every player voted for it (the last vote
    `user`'s, saying `comment`); whether it was."""
    if voted_seats(ctx, board, kind) != {player.seat for player in board.players}:
        return False
    said = {"comment": comment, "commenter": user.userid}
    if kind == "draw":
        state = active_state(board)
        end_board(ctx, board, state, None, "drawn by agreement", Ending.AGREED_DRAW, **said)
        ctx.reply.did(Effect.DRAWN)
        return True
    taken = board.moves[-1]
    state = take_back(ctx.session, board, ctx.now)
    clear_votes(ctx, board)  # the position changed: every proposal ends
    opening = (
        f"UNDO successful: move {taken.number} ({taken.text} by "
        f"{players_of(board)[taken.seat]}) was taken back, as every player agreed.\n\n"
    )
    send_board(ctx, board, state, opening=opening, comment=comment, commenter=user.userid)
    ctx.reply.did(Effect.TAKEN_BACK)
    return True


def announce(ctx: Context, board: Board, what: str, kind: str, user: User, comment: str) -> None:
    title = get_game(board.game).title
    names = players_of(board)
    voted = voted_seats(ctx, board, kind)
    missing = ", ".join(names[p.seat] for p in board.players if p.seat not in voted)
    waiting_for = {p.user_id for p in board.players if p.seat not in voted}
    for reader in readers(ctx, board):
        answer = ""
        if reader.id in waiting_for:  # (not who voted, nor a subscriber: they have no vote)
            answer = (
                f" Reply with '{board.game} accept {board.id} {reader.userid} PASSWORD' or "
                f"'{board.game} reject {board.id} {reader.userid} PASSWORD'."
            )
        ctx.reply.send(
            main_address(reader),
            starred(f"{title} Board {board.id} {kind} proposed", comment),
            f"{what} on board {board.id}. Waiting for: {missing}.{answer}\n"
            + quoted(comment, user.userid),
        )
    ctx.reply.did(Effect.VOTED)
