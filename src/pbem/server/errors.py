"""The error every command raises for a person to read."""

from __future__ import annotations

import errno

from ..store.database import causes

# What kind of refusal an error is, for doors that answer with a status (the
# JSON API): the request itself was wrong (the default), it is someone
# else's to do, what it names does not exist, or things as they stand refuse it.
MALFORMED = "malformed"
FORBIDDEN = "forbidden"
NOT_FOUND = "not_found"
CONFLICT = "conflict"


class CommandError(Exception):
    """The command cannot be done; the message says what was wrong and how to
    fix it. Nothing the command did is kept. `board` is the board it was
    about, when there is one (its board goes with the error mail); `kind`
    is one of the kinds above."""

    def __init__(self, message: str, board: int | None = None, kind: str = MALFORMED) -> None:
        super().__init__(message)
        self.message = message
        self.board = board
        self.kind = kind


class UnfinishedMove(CommandError):
    """A move command that names a board but stops short (a reply to a board
    mail, 'Re: Vasco Board 8 ann'): its answer shows the command to send
    for that board, filled in from the board as it stands (`filled`)."""

    def __init__(self, game: str, board: int, userid: str | None) -> None:
        self.game = game
        self.userid = userid or "USERID"
        super().__init__(
            f"To move on board {board}, send: {game} move {board} {self.userid} PASSWORD MOVE#N",
            board,
        )

    def filled(self, next_move: int, example: str | None) -> str:
        """The answer, with the number of the next move and a legal move."""
        line = f"{self.game} move {self.board} {self.userid} PASSWORD MOVE#{next_move}"
        said = [
            f"To move on board {self.board}, send a mail whose Subject is",
            f"  {line}",
            "with your password for PASSWORD and your move for MOVE",
        ]
        if example is not None:
            said[-1] += f", for example:\n  {line.replace('MOVE#', example + '#')}"
        return "\n".join(said) + "\n(a comment goes in the body)."


# What a full disk raises: OSError's ENOSPC, SQLite's SQLITE_FULL ("database
# or disk is full") and PostgreSQL's disk_full (SQLSTATE 53100).
_SQLITE_FULL = 13
_POSTGRESQL_DISK_FULL = "53100"


def out_of_disk(error: BaseException) -> bool:
    """Whether `error` (or what it wraps: SQLAlchemy's `.orig`, a cause) is
    the database's disk being full: the command was not done, and trying
    again after the host frees space will do it."""
    for current in causes(error):
        if isinstance(current, OSError) and current.errno == errno.ENOSPC:
            return True
        if getattr(current, "sqlite_errorcode", None) == _SQLITE_FULL:
            return True
        if "database or disk is full" in str(current).lower():
            return True
        if getattr(current, "sqlstate", None) == _POSTGRESQL_DISK_FULL:
            return True
    return False
