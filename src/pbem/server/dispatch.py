"""From a command line to its command object (read by the verb the
registry names), and from any command object to what runs it."""

from __future__ import annotations

import re

from ..games import GAMES
from .boards import challenges, hints, turns, votes
from .context import Context, sending_user
from .errors import CommandError
from .language import commands
from .language.commands.on_board import ChatReply
from .language.registry import ACCOUNT_VERBS, ACCOUNT_WORDS, GAME_VERBS, GAME_WORDS, RUNNERS
from .language.words import game_named
from .mailing import subscriptions
from .runners import account_commands, board_commands, open_challenges, standings, view_commands

# The modules that register runners (`@runs`): imported here, so every one
# has registered before the first command runs.
RUNNING = (
    account_commands,
    board_commands,
    open_challenges,
    standings,
    view_commands,
    challenges,
    hints,
    turns,
    votes,
    subscriptions,
)


def command_words(line: str) -> list[str]:
    """A command line's words: a lone `**` (a commented board mail's mark)
    is none, nor the 'New' of a reply to 'New Vasco Board 1 ann'."""
    words = [word for word in line.split() if word != "**"]
    if len(words) > 1 and words[0].lower() == "new" and words[1].lower() in GAMES:
        words = words[1:]
    return words


def read_command(line: str, body: str) -> commands.Command:
    """The command a line of text names, with `body` as its comment (a
    lone `**`, the mark of a commented board mail's Subject, is no word)."""
    words = command_words(line)
    if not words:
        raise CommandError(empty_subject(body))
    first = words[0].lower()
    if first in ACCOUNT_WORDS:
        verb = ACCOUNT_WORDS[first]
        if verb.read is None:
            raise CommandError(
                f"'{words[0]}' stands alone in a mail's Subject, with the commands in its body."
            )
        return verb.read(words[1:], body)
    if first in GAMES:
        game = GAMES[first]
        names = ", ".join(verb.name for verb in GAME_VERBS)
        if len(words) < 2:
            raise CommandError(f"What should {game.title} do? Commands: {names}.")
        found = GAME_WORDS.get(words[1].lower())
        if found is None or found.read is None:
            raise CommandError(f"'{words[1][:30]}' is no {game.title} command; they are: {names}.")
        return found.read(game, words[2:], body)
    names = ", ".join(verb.name for verb in ACCOUNT_VERBS)
    raise CommandError(
        f"'{words[0][:30]}' is no command or game. Commands: {names}; "
        f"games: {', '.join(GAMES)}. Send 'help' for more."
    )


def empty_subject(body: str) -> str:
    """What to say to a mail with no command in its Subject: where the
    command goes, the more so when the body holds one."""
    first = body.split()[:1]
    if not first:
        return (
            "The command line is empty: put the command in the mail's Subject. "
            "Send 'help' for the list of commands."
        )
    word = first[0].lower()
    looks = word in ACCOUNT_WORDS or word in GAMES or word == "multiple"
    return (
        "The Subject of your mail is empty: put the command in the Subject, not in the "
        "body (the body is only read as a comment, or as the lines of 'multiple')."
        + (
            " Your body starts with a command: send it again with that line as the Subject."
            if looks
            else ""
        )
        + " Send 'help' for the list of commands."
    )


def error_subject(line: str, board: int | None) -> str:
    """The Subject of the answer to a refused command, as pbmserv wrote it:
    'Vasco Board 12 Error', 'Vasco error'; 'pbem error: signup' for a
    command of no game. Never the command's other words: they hold the
    password."""
    words = command_words(line)
    first = words[0].lower() if words else ""
    if first in GAMES:
        title = GAMES[first].title
        if board is None:
            try:  # (a refusal before the board was read: a wrong password)
                command = read_command(line, "")
            except CommandError:
                command = None
            number = getattr(command, "board", None)  # (on a board, show, preview)
            if isinstance(number, int):
                board = number
        return f"{title} Board {board} Error" if board is not None else f"{title} error"
    if first in ACCOUNT_WORDS:
        return f"pbem error: {first}"
    return "pbem error"


# The Subjects of the server's own mails that are no command: an error's
# ('Vasco Board 12 Error', 'Vasco error', 'pbem error: ...') and any
# starting 'pbem'. A mail bearing one is ours, echoed by a robot.
_OWN_SUBJECT = re.compile(
    r"pbem(\s|:|$)|(" + "|".join(GAMES) + r")\s+(board\s+\d+\s+)?error\s*$", re.IGNORECASE
)


def own_subject(text: str) -> bool:
    """Whether a Subject (its Re: and Fwd: taken off) is one of the
    server's own that no command has: a mail bearing it is an echo."""
    return _OWN_SUBJECT.match(text.strip()) is not None


def run_command(ctx: Context, line: str) -> None:
    """Read one command line and run it."""
    try:
        command = read_command(line, ctx.body)
    except ChatReply as reply:  # the command to send, for the sender if they are a player
        user = sending_user(ctx)
        raise reply if user is None else reply.for_user(user.userid) from None
    execute(ctx, command)


def execute(ctx: Context, command: commands.Command) -> None:
    """Run a command object, whichever door it came by, with the runner
    registered for its kind (`@runs` in the runner's module)."""
    runner = RUNNERS[type(command)]
    if isinstance(command, commands.OfGame):
        runner(ctx, game_named(command.game), command)
    else:
        runner(ctx, command)
