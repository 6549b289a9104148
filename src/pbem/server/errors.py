"""The error every command raises for a person to read."""

from __future__ import annotations


class CommandError(Exception):
    """The command cannot be done; the message says what was wrong and how to
    fix it. Nothing the command did is kept. `board` is the board it was
    about, when there is one (its board goes with the error mail)."""

    def __init__(self, message: str, board: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.board = board
