"""The commands that look without changing anything: show (a board, or the
boards of players), showas, preview and games."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select

from ..games.base import Game, MoveError, MoveSyntaxError, OptionError, State, is_option
from ..store import Board, BoardPlayer, BoardStatus
from ..store.boards import awaits, boards_of, rebuild
from .accounts import (
    user_named,
)
from .board_mail import board_body, players_of, subject
from .context import (
    Context,
    board_numbered,
    seat_of,
    sender_account,
    usage,
)
from .errors import CONFLICT, MALFORMED, CommandError
from .messages import BoardView


def board_at(ctx: Context, game: Game, word: str, form: str) -> tuple[Board, State]:
    """The board named by `BOARD[#N]`, as it was after move N (default: now)."""
    number_text, _, at = word.partition("#")
    board = board_numbered(ctx, game, number_text)
    upto = None
    if at:
        if not at.isdigit() or not 0 <= int(at) <= board.version:
            raise CommandError(
                f"Board {board.id} has moves 0 to {board.version}: write {form}.", board.id
            )
        upto = int(at)
    return board, rebuild(board, upto)


SHOW_FILTERS = ("all", "active", "inactive", "next")


def show(ctx: Context, game: Game, words: list[str]) -> None:
    form = f"{game.name} show BOARD[#N], or {game.name} show USERID ... [all|active|inactive|next]"
    if not words:
        raise CommandError(f"Write this command as: {form}")
    if not words[0].partition("#")[0].isdigit():
        show_players(ctx, game, words)
        return
    usage(form, words, 1)
    board, state = board_at(ctx, game, words[0], form)
    sender_user = sender_account(ctx)
    seat = None
    if sender_user is not None:
        seats = [p.seat for p in board.players if p.user_id == sender_user.id]
        seat = seats[0] if seats else None
    view = BoardView(board.id, len(state.moves), seat)
    ctx.reply.send(ctx.sender, subject(board, state), board_body(board, state, seat), board=view)


def show_players(ctx: Context, game: Game, words: list[str]) -> None:
    """The boards the named players share: active ones (the default), all,
    inactive (finished) ones, or `next`: the first board awaiting the first
    player's move."""
    choice = "active"
    if words[-1].lower() in SHOW_FILTERS:
        choice = words[-1].lower()
        words = words[:-1]
    if not words or len(words) > 4:
        raise CommandError(
            f"Name one to four players: {game.name} show USERID ... [{'|'.join(SHOW_FILTERS)}]"
        )
    users = [user_named(ctx.session, name) for name in words]
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
        parts.append(f"== {subject(board, state)} ==\n\n" + board_body(board, state, seat))
    ctx.reply.send(ctx.sender, f"{game.title} show {names} {choice}", "\n".join(parts))


def showas(ctx: Context, game: Game, words: list[str]) -> None:
    """The board drawn as one of its players sees it."""
    form = f"{game.name} showas BOARD[#N] USERID"
    usage(form, words, 2)
    board, state = board_at(ctx, game, words[0], form)
    seat = seat_of(board, user_named(ctx.session, words[1]))
    view = BoardView(board.id, len(state.moves), seat)
    ctx.reply.send(ctx.sender, subject(board, state), board_body(board, state, seat), board=view)


def preview(ctx: Context, game: Game, words: list[str]) -> None:
    """What moves would do, on a board (as it is, or after move N) or on a
    new one; nothing is stored."""
    form = f"{game.name} preview BOARD[#N] MOVE ... or {game.name} preview new PLAYERS MOVE ..."
    if len(words) < 2:
        raise CommandError(f"Write this command as: {form}")
    if words[0].lower() == "new":
        if words[1] != str(game.players):
            raise CommandError(
                f"{game.title} is played by {game.players}: write {game.name} preview new "
                f"{game.players} [-OPTION ...] MOVE ..."
            )
        options = [word for word in words[2:] if is_option(word)]
        moves = [word for word in words[2:] if not is_option(word)]
        try:
            start = game.new_state(game.parse_options(options))
        except OptionError as error:
            raise CommandError(str(error)) from None
        title = f"{game.title} preview"
        heading = ""
    else:
        board, start = board_at(ctx, game, words[0], form)
        moves = words[1:]
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


def games(ctx: Context, game: Game, words: list[str]) -> None:
    usage(f"{game.name} games [USERID]", words, 0, 1)
    if words:
        user = user_named(ctx.session, words[0])
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
        state = rebuild(board)
        names = " against ".join(players_of(board))
        lines.append(f"  {board.id:>5}  {names}  move {board.version + 1}: {state.status_line()}")
    if not boards:
        lines.append("  none yet")
    ctx.reply.send(ctx.sender, f"{game.title} games {user.userid}", "\n".join(lines) + "\n")
