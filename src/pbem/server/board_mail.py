"""Board mails in pbmserv's form: the subject names the board and the player
to move; the body has the heading, the status, the recent moves in columns,
the text board drawn for the reader, the comment, and how to stop the mail."""

from __future__ import annotations

from ..games import get_game
from ..games.base import State
from ..store import Board
from ..store.boards import options_of
from ..store.positions import text_board

RECENT_MOVES = 20  # the move list shows the last ones; `show` on the web has them all


def players_of(board: Board) -> list[str]:
    return [player.user.userid for player in board.players]


def subject(board: Board, state: State, commented: bool = False) -> str:
    """'Vasco Board 101 alice': the player to move, or 'game over'."""
    title = get_game(board.game).title
    names = players_of(board)
    seat = state.to_move
    who = "game over" if seat is None or board.status.over else names[seat]
    return f"{title} Board {board.id} {who}" + (" **" if commented else "")


def heading(board: Board, state: State) -> list[str]:
    game = get_game(board.game)
    names = players_of(board)
    seats = " against ".join(
        f"{name} as {state.side_text(seat)}" for seat, name in enumerate(names)
    )
    lines = [f"{game.title} board {board.id}: {seats}."]
    options = options_of(board).args()
    timing = []
    if board.nag_days:
        timing.append(f"nags after {board.nag_days} days")
    if board.forfeit_days:
        timing.append(f"forfeits after {board.forfeit_days} days")
    if board.total_days:
        timing.append(f"each player has {board.total_days} days in all")
    extras = []
    if options:
        extras.append("Options: " + " ".join(options) + ".")
    if timing:
        extras.append("Timing: " + ", ".join(timing) + ".")
    if extras:
        lines.append(" ".join(extras))
    return lines


def move_columns(board: Board, state: State) -> list[str]:
    """The recent moves, two to a line: number, player, move (note)."""
    names = players_of(board)
    records = list(state.history)
    first = max(0, len(records) - RECENT_MOVES)
    cells = []
    for number, record in enumerate(records[first:], start=first + 1):
        comment = "*" if number <= len(board.moves) and board.moves[number - 1].comment else ""
        cells.append(f"{number:>3}. {names[record.player]:<10} {record.text}{comment}")
    if not cells:
        return ["No moves yet."]
    width = max(len(cell) for cell in cells) + 3
    lines = ["Moves (* came with a comment):" if "*" in "".join(cells) else "Moves:"]
    if first:
        lines.append(f"  ... {first} earlier moves")
    for i in range(0, len(cells), 2):
        lines.append("  " + "".join(cell.ljust(width) for cell in cells[i : i + 2]).rstrip())
    return lines


def board_body(
    board: Board,
    state: State,
    reader: int | None,
    *,
    comment: str = "",
    commenter: str = "",
    watchers: list[str] | None = None,
) -> str:
    """The whole body of a board mail for one reader (a seat, or None)."""
    lines = heading(board, state)
    if board.status.over and state.result is None and board.result:
        lines.append(f"Game over: {board.result}.")
    lines.append("")
    lines.extend(move_columns(board, state))
    lines.append("")
    lines.append(text_board(state, reader).rstrip("\n"))
    if watchers:
        lines.append("")
        lines.append("Subscribers: " + ", ".join(watchers) + ".")
    if comment.strip():
        lines.append("")
        lines.append(f"Comment from {commenter}:")
        lines.extend(f"> {line}" for line in comment.strip().splitlines())
    return "\n".join(lines) + "\n"
