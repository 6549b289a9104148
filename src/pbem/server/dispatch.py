"""From a command line to the command that runs it."""

from __future__ import annotations

from collections.abc import Callable

from ..games import GAMES
from ..games.base import Game
from . import (
    account_commands,
    board_commands,
    standings,
    subscriptions,
    turns,
    view_commands,
    votes,
)
from .context import Context
from .errors import CommandError

Command = Callable[[Context, list[str]], None]
GameCommand = Callable[[Context, Game, list[str]], None]

GLOBAL_COMMANDS: dict[str, Command] = {
    "help": account_commands.help_command,
    "signup": account_commands.signup,
    "mail": account_commands.mail_preference,
    "stop": account_commands.stop,
    "add": account_commands.add_address,
    "change": account_commands.change,
    "list": account_commands.list_users,
    "message": account_commands.message,
    "all": account_commands.all_show,
    "vacation": account_commands.vacation,
    "signoff": account_commands.signoff,
    "signon": account_commands.signon,
    "delete": account_commands.delete_account,
    "broadcast": account_commands.broadcast,
}
GAME_COMMANDS: dict[str, GameCommand] = {
    "help": board_commands.game_help,
    "challenge": board_commands.challenge,
    "move": board_commands.move,
    "submit": board_commands.submit,
    "confirm": board_commands.confirm,
    "show": view_commands.show,
    "showas": view_commands.showas,
    "preview": view_commands.preview,
    "games": view_commands.games,
    "pass": board_commands.pass_command,
    "swap": board_commands.swap,
    "chat": board_commands.chat,
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
