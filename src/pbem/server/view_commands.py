"""The commands that look without changing anything: show (a board, or the
boards of players), showas, preview, games and help."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select

from ..documents import rules_text
from ..games.base import Game, MoveError, MoveSyntaxError, OptionError, State
from ..store import Board, BoardPlayer, BoardStatus
from ..store.boards import awaits, boards_of, rebuild
from . import commands
from .accounts import (
    user_named,
)
from .board_mail import as_shown, board_body, players_of, subject, view_in
from .context import Context, board_of, game_named, seat_of, sender_account
from .errors import CONFLICT, MALFORMED, CommandError
from .messages import BoardView
from .registry import command_list


def board_at(ctx: Context, game: Game, number: int, at: int | None) -> tuple[Board, State]:
    """The board, as it was after move `at` (None: now)."""
    board = board_of(ctx, game, number)
    if at is not None and not 0 <= at <= board.version:
        raise CommandError(
            f"Board {board.id} has moves 0 to {board.version}: write {board.id}#N with N "
            f"from 0 to {board.version}.",
            board.id,
        )
    return board, rebuild(board, at)


def show(ctx: Context, game: Game, command: commands.Show) -> None:
    """The board, drawn for the sender if they play on it, or (`showas`)
    for the player named."""
    board, state = board_at(ctx, game, command.board, command.at)
    if command.player is not None:
        seat: int | None = seat_of(board, user_named(ctx.session, command.player))
    else:
        sender_user = sender_account(ctx)
        seat = None
        if sender_user is not None:
            seats = [p.seat for p in board.players if p.user_id == sender_user.id]
            seat = seats[0] if seats else None
    picture = BoardView(board.id, len(state.moves), seat)
    view = view_in(ctx.session, board)
    topic, first = subject(view, state), ""
    if command.at is not None:
        topic = f"{game.title} Board {board.id} after move {command.at}"
        now = "game over" if board.status.over else f"at move {board.version + 1}"
        first = (
            f"Board {board.id} as it was after move {command.at}, not as it is now ({now}: "
            f"'{game.name} show {board.id}' shows it).\n\n"
        )
    ctx.reply.send(ctx.sender, topic, first + board_body(view, state, seat), board=picture)


def show_players(ctx: Context, game: Game, command: commands.ShowPlayers) -> None:
    """The boards the named players share: active ones (the default), all,
    inactive (finished) ones, or `next`: the first board awaiting the first
    player's move."""
    choice = command.selector
    if choice not in commands.SHOW_SELECTORS:
        raise CommandError(f"Choose the boards by one of {', '.join(commands.SHOW_SELECTORS)}.")
    if not 1 <= len(command.players) <= 4:
        raise CommandError("Name one to four players.")
    users = [user_named(ctx.session, name) for name in command.players]
    query = select(Board).where(Board.game == game.name).order_by(Board.id)
    for user in users:
        query = query.where(Board.players.any(BoardPlayer.user_id == user.id))
    boards = list(ctx.session.scalars(query).all())
    if choice == "active":
        boards = [b for b in boards if b.status is BoardStatus.ACTIVE]
    elif choice == "inactive":
        boards = [b for b in boards if b.status.over]
    elif choice == "next":
        waiting = [board for board in boards if awaits(board, users[0].id)]
        boards = sorted(waiting, key=lambda board: board.updated_at)[:1]
    names = " ".join(user.userid for user in users)
    if not boards:
        ctx.reply.send(
            ctx.sender,
            f"{game.title} show {names}",
            f"No {choice} {game.title} boards of {names}.\n",
        )
        return
    parts = []
    for board in boards:
        state = rebuild(board)
        seat = next((p.seat for p in board.players if p.user_id == users[0].id), None)
        view = view_in(ctx.session, board)
        parts.append(f"== {subject(view, state)} ==\n\n" + board_body(view, state, seat))
    ctx.reply.send(ctx.sender, f"{game.title} show {names} {choice}", "\n".join(parts))


def preview(ctx: Context, game: Game, command: commands.Preview) -> None:
    """What moves would do, on a board (as it is, or after move N) or on a
    new one; nothing is stored."""
    moves = command.moves
    if not moves:
        raise CommandError("Name the moves to preview.")
    if command.board is None:
        try:
            start = game.new_state(game.parse_options(list(command.options)))
        except OptionError as error:
            raise CommandError(str(error)) from None
        title = f"{game.title} preview"
        heading = ""
    else:
        board, start = board_at(ctx, game, command.board, command.at)
        title = f"{game.title} Board {board.id} preview"
        heading = f"Board {board.id} after {' '.join(moves)} (a preview: nothing was played).\n\n"
    ctx.reply.send(ctx.sender, title, heading + play_moves(start, moves).text_board())


def play_moves(state: State, moves: Iterable[str]) -> State:
    """The state after the moves, played on a copy (a preview: nothing is
    stored); a move that cannot be played is refused, malformed when it
    cannot be read, a conflict when the rules refuse it."""
    for number, text in enumerate(moves, start=len(state.history) + 1):
        try:
            state = state.play_text(text)
        except MoveError as error:
            kind = MALFORMED if isinstance(error, MoveSyntaxError) else CONFLICT
            raise CommandError(
                f"Move {number} ({text[:40]}) cannot be played: {error.reason}.", kind=kind
            ) from None
    return state


def games(ctx: Context, game: Game, command: commands.Games) -> None:
    """A player's boards of the game (default: the sender's)."""
    if command.player is not None:
        user = user_named(ctx.session, command.player)
    else:
        found = sender_account(ctx)
        if found is None:
            raise CommandError(
                f"Name the player: {game.name} games USERID (this address has no account)."
            )
        user = found
    boards = boards_of(ctx.session, user.id, game=game.name)
    lines = [f"{game.title} boards of {user.userid}:"]
    for board in boards:
        state = as_shown(rebuild(board), board.status, board.version, board.result, board.winner)
        names = " against ".join(players_of(board))
        lines.append(f"  {board.id:>5}  {names}  {state.status_line()}")
    if not boards:
        lines.append("  none yet")
    ctx.reply.send(ctx.sender, f"{game.title} games {user.userid}", "\n".join(lines) + "\n")


def help_text(ctx: Context, command: commands.Help) -> None:
    """The list of commands, or a game's rules."""
    if command.game is None:
        ctx.reply.send(ctx.sender, "pbem help", command_list())
    else:
        game = game_named(command.game)
        ctx.reply.send(ctx.sender, f"{game.title} help", rules_text(game))
