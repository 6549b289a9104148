"""From a command line (found in the registry), or a command object, to
what runs it."""

from __future__ import annotations

from ..games import GAMES
from . import account_commands, commands
from .board_commands import challenge, execute_on_board
from .context import Context, game_named
from .errors import CommandError
from .registry import ACCOUNT_VERBS, ACCOUNT_WORDS, GAME_VERBS, GAME_WORDS


def run_command(ctx: Context, line: str) -> None:
    """Dispatch one command line."""
    words = line.split()
    if not words:
        raise CommandError("The command line is empty: send 'help' for the list of commands.")
    first = words[0].lower()
    if first in ACCOUNT_WORDS:
        verb = ACCOUNT_WORDS[first]
        if verb.run is None:
            raise CommandError(
                f"'{words[0]}' stands alone in a mail's Subject, with the commands in its body."
            )
        verb.run(ctx, words[1:])
        return
    if first in GAMES:
        game = GAMES[first]
        names = ", ".join(verb.name for verb in GAME_VERBS)
        if len(words) < 2:
            raise CommandError(f"What should {game.title} do? Commands: {names}.")
        found = GAME_WORDS.get(words[1].lower())
        if found is None or found.run is None:
            raise CommandError(f"'{words[1][:30]}' is no {game.title} command; they are: {names}.")
        found.run(ctx, game, words[2:])
        return
    names = ", ".join(verb.name for verb in ACCOUNT_VERBS)
    raise CommandError(
        f"'{words[0][:30]}' is no command or game. Commands: {names}; "
        f"games: {', '.join(GAMES)}. Send 'help' for more."
    )


def execute(ctx: Context, command: commands.Command) -> None:
    """Run a command object (from the web, the API or a bot)."""
    if isinstance(command, commands.OnBoard):
        execute_on_board(ctx, game_named(command.game), command)
    elif isinstance(command, commands.Challenge):
        challenge(ctx, game_named(command.game), command)
    elif isinstance(command, commands.Change):
        account_commands.change(ctx, command)
    elif isinstance(command, commands.MailPreference):
        account_commands.mail_preference(ctx, command)
    else:
        account_commands.vacation(ctx, command)
