"""The bot worker: plays the built-in AI opponents' moves on the server.

`pbem serve` runs one (a thread that waits, with the searches in processes
of their own); `pbem bots` runs one alone, for instance on another machine
sharing the PostgreSQL.
"""

from .worker import BotWorker

__all__ = ["BotWorker"]
