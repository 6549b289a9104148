"""The error every command raises for a person to read."""

from __future__ import annotations

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
