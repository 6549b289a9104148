"""The commands that look without changing anything: show (a board, or the
boards of players), showas, preview, games and help."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import and_, func, select

from ...games import GAMES
from ...games.base import Game, MoveError, MoveSyntaxError, OptionError, State
from ...games.documents import rules_text
from ...store import Board, BoardPlayer, BoardStatus
from ...store.boards import rebuild
from ..context import Context, board_of, login, seat_of, sender_account
from ..errors import CONFLICT, MALFORMED, CommandError
from ..language import commands
from ..language.english import counted
from ..language.help_subjects import HELP_SUBJECTS, game_help
from ..language.messages import MailedBoard
from ..language.registry import command_list, runs
from ..language.words import game_named
from ..mailing.board_mail import board_body, subject, view_in
from ..players.accounts import user_named
from ..views.listings import LISTED, board_line


def board_at(ctx: Context, game: Game, number: int, at: int | None) -> tuple[Board, State[Any]]:
    """The board, as it was after move `at` (None: now)."""
    board = board_of(ctx, game, number)
    if at is not None and not 0 <= at <= board.version:
        raise CommandError(
            f"Board {board.id} has moves 0 to {board.version}: write {board.id}#N with N "
            f"from 0 to {board.version}.",
            board.id,
        )
    return board, rebuild(board, at)


@runs(commands.Show)
def show(ctx: Context, game: Game, command: commands.Show) -> None:
    """Each board named, a mail each: drawn for the sender if they play on
    it, or (`showas`) for the player named."""
    if command.player is not None and command.password is not None:
        login(ctx, command.player, command.password)  # pbmserv's form asks for it
    for number, at in ((command.board, command.at), *command.also):
        show_one(ctx, game, number, at, command.player)


def show_one(ctx: Context, game: Game, number: int, at: int | None, player: str | None) -> None:
    board, state = board_at(ctx, game, number, at)
    if player is not None:
        seat: int | None = seat_of(board, user_named(ctx.session, player))
    else:
        sender_user = sender_account(ctx)
        seat = None
        if sender_user is not None:
            seats = [p.seat for p in board.players if p.user_id == sender_user.id]
            seat = seats[0] if seats else None
    picture = MailedBoard(board.id, len(state.moves), seat)
    view = view_in(ctx.session, board)
    topic, first = subject(view, state), ""
    if at is not None:
        topic = f"{game.title} Board {board.id} after move {at}"
        now = "game over" if board.status.over else f"at move {board.version + 1}"
        first = (
            f"Board {board.id} as it was after move {at}, not as it is now ({now}: "
            f"'{game.name} show {board.id}' shows it).\n\n"
        )
    ctx.reply.send(
        ctx.sender, topic, first + board_body(view, state, seat, now=ctx.now), board=picture
    )


MOST_SHOWN = 20  # boards drawn in one `show` by players
MOST_LISTED = 300  # boards listed in one `games`


def chosen_boards(
    ctx: Context, game: Game, user_ids: list[int], selector: str, most: int
) -> tuple[list[Board], int]:
    """The boards of the game of any of the users (none: every board),
    chosen by the selector (`next`: those awaiting one of the users' move,
    the longest waiting first; else by number), at most `most` of them
    (the newest), and how many there are in all. A fixed number of
    statements, however many boards there are."""
    if selector not in commands.SHOW_SELECTORS:
        raise CommandError(f"Choose the boards by one of {', '.join(commands.SHOW_SELECTORS)}.")
    query = select(Board).options(LISTED).where(Board.game == game.name)
    if selector == "next":
        query = query.join(
            BoardPlayer, and_(BoardPlayer.board_id == Board.id, BoardPlayer.seat == Board.to_move)
        ).where(BoardPlayer.user_id.in_(user_ids), Board.status == BoardStatus.ACTIVE)
    elif user_ids:
        seats = select(BoardPlayer.board_id).where(BoardPlayer.user_id.in_(user_ids))
        query = query.where(Board.id.in_(seats))
    if selector == "active":
        query = query.where(Board.status == BoardStatus.ACTIVE)
    elif selector == "inactive":
        query = query.where(Board.status != BoardStatus.ACTIVE)
    total = ctx.session.scalar(select(func.count()).select_from(query.subquery())) or 0
    if selector == "next":
        found = list(ctx.session.scalars(query.order_by(Board.updated_at, Board.id).limit(most)))
    else:
        newest = ctx.session.scalars(query.order_by(Board.id.desc()).limit(most))
        found = sorted(newest, key=lambda board: board.id)
    return found, total


@runs(commands.ShowPlayers)
def show_players(ctx: Context, game: Game, command: commands.ShowPlayers) -> None:
    """The boards of any of the named players: active ones (the default),
    all, inactive (finished) ones, or `next`: every board awaiting one of
    them, the longest waiting first."""
    if not 1 <= len(command.players) <= 4:
        raise CommandError("Name one to four players.")
    if command.password is not None:  # pbmserv's showas: the password is checked
        login(ctx, command.players[0], command.password)
    users = [user_named(ctx.session, name) for name in command.players]
    choice = command.selector
    boards, total = chosen_boards(ctx, game, [user.id for user in users], choice, MOST_SHOWN)
    names = " ".join(user.userid for user in users)
    if not boards:
        ctx.reply.send(
            ctx.sender,
            f"{game.title} show {names}",
            f"No {choice} {game.title} boards of {names}.\n",
        )
        return
    ids = {user.id for user in users}
    parts = []
    if total > len(boards):
        parts.append(
            f"{total} boards; the {len(boards)} newest here ('{game.name} games {names} "
            f"{choice}' lists them all).\n"
        )
    for board in boards:
        state = rebuild(board)
        seats = [p.seat for p in board.players if p.user_id in ids]
        seat = board.to_move if board.to_move in seats else (seats[0] if seats else None)
        view = view_in(ctx.session, board)
        parts.append(
            f"== {subject(view, state)} ==\n\n" + board_body(view, state, seat, now=ctx.now)
        )
    ctx.reply.send(ctx.sender, f"{game.title} show {names} {choice}", "\n".join(parts))


@runs(commands.Preview)
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


def play_moves(state: State[Any], moves: Iterable[str]) -> State[Any]:
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


@runs(commands.Games)
def games(ctx: Context, game: Game, command: commands.Games) -> None:
    """The boards of the game: of any of the players named, or every board
    (`next` with no player: those awaiting the sender's move), a line each."""
    users = [user_named(ctx.session, name) for name in command.players]
    if command.selector == "next" and not users:
        found = sender_account(ctx)
        if found is None:
            raise CommandError(
                f"Name the player: {game.name} games USERID next (this address has no account)."
            )
        users = [found]
    ids = [user.id for user in users]
    boards, total = chosen_boards(ctx, game, ids, command.selector, MOST_LISTED)
    names = " ".join(user.userid for user in users)
    which = "" if command.selector == "all" else f"{command.selector} "
    lines = [f"{game.title} {which}boards" + (f" of {names}:" if names else ":")]
    if total > len(boards):
        lines.append(f"  ({total} in all; the {len(boards)} newest are listed)")
    for board in boards:
        line = board_line(board)
        said = (
            f"Move {line.move}: {line.to_move} to move."
            if line.to_move
            else f"{line.status} ({counted(line.move, 'move')})."
        )
        lines.append(f"  {board.id:>5}  {' against '.join(line.players)}  {said}")
    if not boards:
        lines.append("  none yet" if command.selector == "all" else "  none")
    topic = f"{game.title} games" + "".join(f" {word}" for word in (names, which.strip()) if word)
    ctx.reply.send(ctx.sender, topic, "\n".join(lines) + "\n")


@runs(commands.Help)
def help_text(ctx: Context, command: commands.Help) -> None:
    """The list of commands, a game's rules, or another help subject; a
    mail for each subject named."""
    first = command.game or command.subject
    for topic in (first, *command.more):
        if topic in GAMES:  # how to play it by mail first, then its rules, as plain text
            game = game_named(topic)
            ctx.reply.send(ctx.sender, f"{game.title} help", game_help(game, rules_text(game)))
        elif topic in HELP_SUBJECTS:
            ctx.reply.send(ctx.sender, f"pbem help {topic}", HELP_SUBJECTS[topic])
        else:  # (a mail shows no Markdown: 'pbem send', not `pbem send`)
            ctx.reply.send(ctx.sender, "pbem help", command_list().replace("`", "'"))
