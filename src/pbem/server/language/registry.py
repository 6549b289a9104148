"""Every command word, listed from the classes that declare them
(`@declares` above each class in commands/): its aliases, how it is
written, what it does, and the reader that turns its words into its
command object.

Dispatch finds commands here, `help` lists them from here, and the table at
the top of `docs/commands.md` is this list (`make docs` writes it; a test
checks it is current). A command is added by writing its class, with its
words, in commands/ and its runner, with `@runs`, in runners/.

What runs a command is registered where it is defined: `@runs(Kind)` above
the runner puts it in RUNNERS, which dispatch.execute looks in.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TypeVar

from ...games import GAMES
from . import commands
from .commands import accounts, challenges, looking, on_board, preferences
from .words import AccountVerb, GameVerb, Verb


def declared(*modules: ModuleType) -> list[Verb]:
    """The words the command classes of `modules` declare, in the order
    the classes are written."""
    return [
        verb
        for module in modules
        for kind in vars(module).values()
        if isinstance(kind, type)
        and issubclass(kind, commands.Command)
        and kind.__module__ == module.__name__
        and "verbs" in vars(kind)
        for verb in kind.verbs
    ]


# In the order of the listing: the game commands as a board goes, then the
# looking, then a player's settings; the account commands.
VERBS = declared(challenges, on_board, looking, preferences, accounts)
ACCOUNT_VERBS: tuple[AccountVerb, ...] = tuple(v for v in VERBS if isinstance(v, AccountVerb))
GAME_VERBS: tuple[GameVerb, ...] = tuple(v for v in VERBS if isinstance(v, GameVerb))


V = TypeVar("V", bound=Verb)

# A runner takes (context, game, command) for a command of a game (OfGame),
# else (context, command); it changes the database and queues mails.
Runner = Callable[..., None]
RUNNERS: dict[type[commands.Command], Runner] = {}
R = TypeVar("R", bound=Runner)


def runs(kind: type[commands.Command]) -> Callable[[R], R]:
    """Register the decorated function as what runs commands of `kind`."""

    def register(runner: R) -> R:
        assert kind not in RUNNERS, f"two runners for {kind.__name__}"
        RUNNERS[kind] = runner
        return runner

    return register


def _index(verbs: tuple[V, ...]) -> dict[str, V]:
    index: dict[str, V] = {}
    for verb in verbs:
        for word in verb.words:
            assert word not in index, f"two commands are called '{word}'"
            index[word] = verb
    return index


ACCOUNT_WORDS: dict[str, AccountVerb] = _index(ACCOUNT_VERBS)
GAME_WORDS: dict[str, GameVerb] = _index(GAME_VERBS)

FORM_WIDTH = 38  # where the summaries start
LINE_WIDTH = 78


def _entry(forms: tuple[str, ...], summary: str) -> list[str]:
    """One command in the listing: its forms on the left, what it does on
    the right (below the forms when the last one is too long)."""
    lines = [
        line
        for form in forms
        for line in textwrap.wrap(form, LINE_WIDTH, initial_indent="  ", subsequent_indent="      ")
    ]
    said = textwrap.wrap(summary, LINE_WIDTH - FORM_WIDTH)
    if len(lines[-1]) <= FORM_WIDTH - 2:
        lines[-1] = f"{lines[-1]:<{FORM_WIDTH}}{said[0]}"
        said = said[1:]
    lines.extend(" " * FORM_WIDTH + line for line in said)
    return lines


def listing() -> str:
    """Every command with what it does: the body of `help`, and the table
    in docs/commands.md."""
    lines = [
        *(line for verb in ACCOUNT_VERBS for line in _entry(verb.forms, verb.summary)),
        *(line for verb in GAME_VERBS for line in _entry(verb.written, verb.summary)),
    ]
    aliases = [f"GAME {a} (GAME {v.name})" for v in GAME_VERBS for a in v.aliases]
    aliases += [f"{a} ({v.name})" for v in ACCOUNT_VERBS for a in v.aliases]
    if aliases:
        lines += ["", *textwrap.wrap("Also: " + ", ".join(aliases) + ".", LINE_WIDTH)]
    short = [
        f"{v.name[: v.shortest]}({v.name[v.shortest :]})"
        for v in (*ACCOUNT_VERBS, *GAME_VERBS)
        if v.shortest is not None
    ]
    if short:
        said = "Shortened down to: " + ", ".join(short) + " (pbmserv's abbreviations)."
        lines += textwrap.wrap(said, LINE_WIDTH)
    return "\n".join(lines) + "\n"


INTRODUCTION = """\
Commands go in the Subject of a mail (or `pbem send`); the body is a comment.
Words are separated by spaces; userids and commands ignore case.
"""


def command_list() -> str:
    """The `help` mail: how commands are written, every command, the games."""
    return f"{INTRODUCTION}\n{listing()}\nGames: {', '.join(GAMES)}.\n"


BEGIN = "<!-- From here, `make docs` writes the list (server/language/registry.py) -->"
END = "<!-- to here -->"


def write_listing(path: Path) -> None:
    """Bring the listing in the document at `path` up to date (`make docs`)."""
    path.write_text(with_listing(path.read_text(encoding="utf-8")), encoding="utf-8")


def with_listing(document: str) -> str:
    """`document` (docs/commands.md) with the block between BEGIN and END
    replaced by the current listing."""
    head, begin, rest = document.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"the document has no block between {BEGIN!r} and {END!r}")
    return f"{head}{BEGIN}\n\n```\n{listing()}```\n\n{END}{tail}"
