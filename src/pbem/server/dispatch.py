"""From a command line to the command that runs it."""

from __future__ import annotations

from collections.abc import Callable

from ..games import GAMES
from ..games.base import Game
from . import commands, standings, subscriptions, turns, votes
from .context import Context
from .errors import CommandError

Command = Callable[[Context, list[str]], None]
GameCommand = Callable[[Context, Game, list[str]], None]

GLOBAL_COMMANDS: dict[str, Command] = {
    "help": commands.help_command,
    "signup": commands.signup,
    "mail": commands.mail_preference,
    "add": commands.add_address,
    "change": commands.change,
    "list": commands.list_users,
    "message": commands.message,
    "all": commands.all_show,
    "vacation": commands.vacation,
    "signoff": commands.signoff,
    "signon": commands.signon,
    "delete": commands.delete_account,
    "broadcast": commands.broadcast,
}
GAME_COMMANDS: dict[str, GameCommand] = {
    "help": commands.game_help,
    "challenge": commands.challenge,
    "move": commands.move,
    "submit": commands.submit,
    "confirm": commands.confirm,
    "show": commands.show,
    "showas": commands.showas,
    "preview": commands.preview,
    "games": commands.games,
    "pass": commands.pass_command,
    "chat": commands.chat,
    "resign": turns.resign,
    "queue": turns.queue,
    "propose": votes.propose,
    "undo": votes.undo,
    "accept": votes.accept,
    "reject": votes.reject,
    "standings": standings.standings,
    "ratings": standings.standings,
    "history": standings.history,
    "limit": standings.limit,
    "seek": standings.seek,
    "subscribe": subscriptions.subscribe,
    "unsubscribe": subscriptions.unsubscribe,
    "notify": subscriptions.notify,
}


def run_command(ctx: Context, line: str) -> None:
    """Dispatch one command line."""
    words = line.split()
    if not words:
        raise CommandError("The command line is empty: send 'help' for the list of commands.")
    first = words[0].lower()
    if first in GLOBAL_COMMANDS:
        GLOBAL_COMMANDS[first](ctx, words[1:])
        return
    if first in GAMES:
        game = GAMES[first]
        if len(words) < 2:
            raise CommandError(
                f"What should {game.title} do? Commands: {', '.join(GAME_COMMANDS)}."
            )
        verb = words[1].lower()
        if verb not in GAME_COMMANDS:
            raise CommandError(
                f"'{words[1][:30]}' is no {game.title} command; they are: "
                f"{', '.join(GAME_COMMANDS)}."
            )
        GAME_COMMANDS[verb](ctx, game, words[2:])
        return
    raise CommandError(
        f"'{words[0][:30]}' is no command or game. Commands: {', '.join(GLOBAL_COMMANDS)}; "
        f"games: {', '.join(GAMES)}. Send 'help' for more."
    )
