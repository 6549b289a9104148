"""The PBeM command layer: commands in, database changes and mails out.

It knows no transport: the mail, web and command-line doors call
`Server.handle(sender, command_line, body)` and deliver what it queued.
"""

from ..store import MAX_ID  # the largest number a board, challenge or token can have
from .errors import CommandError
from .language.messages import Outgoing
from .service import Server

__all__ = ["MAX_ID", "CommandError", "Outgoing", "Server"]
