"""A board's record to keep: the game, players, options, dates and result,
then every move with who played it, when, its note and its comment, and the
chat in the order it came. Plain text, for people and for archives (the
SGF of the Go-like games is the game's own, `State.sgf`)."""

from __future__ import annotations

from datetime import datetime

from ...games import get_game
from .board_view import BoardView, ChatSaid


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _quoted(text: str, prefix: str) -> list[str]:
    return [f"{prefix}{line}" if line else prefix.rstrip() for line in text.splitlines()]


def text_record(view: BoardView) -> str:
    """The whole record of the board as text."""
    game = get_game(view.game)
    state = view.state()
    lines = [f"{game.title} board {view.id}"]
    for seat, player in enumerate(view.players):
        lines.append(f"{state.side_text(seat)}: {player}")
    options = " ".join(view.parsed_options().args())
    lines.append(f"Options: {options or 'the defaults'}")
    lines.append(f"Started: {_when(view.created_at)}")
    lines.append(f"Last change: {_when(view.updated_at)}")
    lines.append(state.status_line())
    lines.append("")
    for line in view.record_with_chat():
        if isinstance(line, ChatSaid):
            lines.append(f"    {line.player} says ({_when(line.said_at)}):")
            lines.extend(_quoted(line.text, "      | "))
            continue
        note = f" ({line.note})" if line.note else ""
        auto = " (played by the server)" if line.auto else ""
        lines.append(
            f"{line.number:>4}. {line.text}{note} by {line.player}{auto}, {_when(line.played_at)}"
        )
        if line.comment.strip():
            lines.extend(_quoted(line.comment.strip(), "      > "))
    if not view.moves:
        lines.append("No moves yet.")
    return "\n".join(lines) + "\n"
