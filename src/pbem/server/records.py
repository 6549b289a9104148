"""A board's record to keep: the game, players, options, dates and result,
then every move with who played it, when, its note and its comment, and the
chat in the order it came. Plain text, for people and for archives (the
SGF of the Go-like games is the game's own, `State.sgf`)."""

from __future__ import annotations

import sys
from datetime import datetime

from ..games import get_game
from .board_view import BoardView


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
    chat = sorted(view.chat, key=lambda line: line.after)
    waiting = 0

    def chat_until(moves: int) -> None:
        nonlocal waiting
        while waiting < len(chat) and chat[waiting].after <= moves:
            said = chat[waiting]
            lines.append(f"    {said.player} says ({_when(said.said_at)}):")
            lines.extend(_quoted(said.text, "      | "))
            waiting += 1

    chat_until(0)
    for move in view.moves:
        note = f" ({move.note})" if move.note else ""
        auto = " (played by the server)" if move.auto else ""
        lines.append(
            f"{move.number:>4}. {move.text}{note} by {move.player}{auto}, {_when(move.played_at)}"
        )
        if move.comment.strip():
            lines.extend(_quoted(move.comment.strip(), "      > "))
        chat_until(move.number)
    chat_until(sys.maxsize)  # chat said after moves since taken back
    if not view.moves:
        lines.append("No moves yet.")
    return "\n".join(lines) + "\n"
