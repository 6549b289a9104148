"""The PBeM command layer: commands in, database changes and mails out.

It knows no transport. This module is its one face: the doors (mail, web,
the command line), the host and the bots import what they use of the
command layer from here and from nowhere below it (tests/test_layers.py).

- Writes: `Server.handle(sender, command_line, body)` for a line as mail
  sends it, `Server.execute(command, as_user=...)` for a command object
  (`commands`); each returns an `Outcome` (the mails queued, what changed,
  the board made, or the refusal).
- Reads: `Server.read` (`ReadSide`), each read in a session of its own,
  and `Server.views` (`BoardViews`), boards as the doors show them, with
  the types they return. No door opens a database session.
- Lanes beside the front: `api_tokens` (the API's tokens), `bot_turns`
  (the bots' side), the password lane's hand-off (`PasswordWork`,
  `handed_out`), the throttle on unknown API tokens (`tokens_allowed`,
  `record_token_failure`).
"""

from ..store import MAX_ID  # the largest number a board, challenge or token can have
from ..store.database import DatabaseBusy
from ..store.database import unavailable as database_unavailable
from . import api_tokens, bot_turns
from .boards.hints import Suggestion
from .dispatch import own_subject
from .errors import CONFLICT, FORBIDDEN, MALFORMED, NOT_FOUND, CommandError, out_of_disk
from .language import commands
from .language.messages import Effect, MailedBoard, Outcome, Outgoing
from .mailing.footers import stop_token_of
from .mailing.game_over import duration
from .players.passwords import PasswordWork, handed_out, set_cost
from .players.throttle import record_token_failure, tokens_allowed
from .read_side import Account, Home, Player, ReadSide
from .runners.board_commands import set_limits
from .runners.open_challenges import DEFAULT_DAYS as OPEN_DAYS
from .runners.open_challenges import Listed
from .runners.standings import SECTION_SIZE, SECTIONS, StandingsLine
from .runners.view_commands import play_moves
from .service import PASSWORD_ROUNDS, Server, utc_now
from .views import pictures
from .views.board_view import Around, BoardView, BoardViews, ChatSaid, Ending
from .views.listings import FILTERS, BoardLine, sample_svg, view_line
from .views.recent import Recent
from .views.records import text_record
from .warm_up import warm_up

__all__ = [
    "CONFLICT",
    "FILTERS",
    "FORBIDDEN",
    "MALFORMED",
    "MAX_ID",
    "NOT_FOUND",
    "OPEN_DAYS",
    "PASSWORD_ROUNDS",
    "SECTIONS",
    "SECTION_SIZE",
    "Account",
    "Around",
    "BoardLine",
    "BoardView",
    "BoardViews",
    "ChatSaid",
    "CommandError",
    "DatabaseBusy",
    "Effect",
    "Ending",
    "Home",
    "Listed",
    "MailedBoard",
    "Outcome",
    "Outgoing",
    "PasswordWork",
    "Player",
    "ReadSide",
    "Recent",
    "Server",
    "StandingsLine",
    "Suggestion",
    "api_tokens",
    "bot_turns",
    "commands",
    "database_unavailable",
    "duration",
    "handed_out",
    "out_of_disk",
    "own_subject",
    "pictures",
    "play_moves",
    "record_token_failure",
    "sample_svg",
    "set_cost",
    "set_limits",
    "stop_token_of",
    "text_record",
    "tokens_allowed",
    "utc_now",
    "view_line",
    "warm_up",
]
