"""How commands are written and read: the command words (`Verb`), which a
command class declares (`@declares` above the class), and the checks every
reader shares.

Readers check only how the command is written: the word count, numbers
that must be numbers, the words that must be one of a few. Whether the
board exists, the password is right or the move is legal is the server's
check, the same for every door. A reader that cannot read its words says
how to write them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from ...games import get_game
from ...games.base import Game
from ..errors import CommandError

if TYPE_CHECKING:
    from .commands.base import Command


def game_named(name: str) -> Game:
    """The game a command names; an unknown name is a CommandError listing
    the games there are."""
    try:
        return get_game(name)
    except KeyError as error:
        raise CommandError(str(error.args[0])) from None


# What reads a command's words (after its command word, and for a game
# command after the game's name too), given the body as its comment; a
# reader `of_kind` takes the declaring class first (one reader, several
# classes: resign, chat, propose ...).
AccountReader = Callable[[list[str], str], "Command"]
GameReader = Callable[[Game, list[str], str], "Command"]


@dataclass(frozen=True)
class Verb:
    """A command word. `forms` are how it is written (a game command's
    without the leading `GAME`); `summary` says what it does in a phrase or
    two; `aliases` are other words for it."""

    name: str
    forms: tuple[str, ...]
    summary: str
    aliases: tuple[str, ...] = ()
    shortest: int | None = None  # pbmserv's abbreviations: down to this many letters
    of_kind: Callable[..., Command] | None = None  # a reader taking the class first

    @property
    def abbreviations(self) -> tuple[str, ...]:
        if self.shortest is None:
            return ()
        return tuple(self.name[:n] for n in range(self.shortest, len(self.name)))

    @property
    def words(self) -> tuple[str, ...]:
        return (self.name, *self.aliases, *self.abbreviations)


@dataclass(frozen=True)
class AccountVerb(Verb):
    """A command that stands alone (`signup ...`)."""

    read: AccountReader | None = None  # None: the service itself reads it (`multiple`)


@dataclass(frozen=True)
class GameVerb(Verb):
    """A command that follows a game's name (`vasco move ...`)."""

    read: GameReader | None = None

    @property
    def written(self) -> tuple[str, ...]:
        return tuple(f"GAME {form}" for form in self.forms)


K = TypeVar("K", bound="type[Command]")


def bound(verb: Verb, kind: type[Command]) -> Verb:
    """`verb` with its reader: one `of_kind` is handed the class first."""
    if verb.of_kind is None:
        return verb
    reader = partial(verb.of_kind, kind)
    if isinstance(verb, AccountVerb):
        return replace(verb, read=reader)
    assert isinstance(verb, GameVerb)
    return replace(verb, read=reader)


def declares(*verbs: Verb) -> Callable[[K], K]:
    """The command words that make commands of the class below: its word
    (the first), forms, summary and reader, declared once, where the class
    is. The registry lists them; dispatch reads a command line by them."""

    def declare(kind: K) -> K:
        kind.verbs = tuple(bound(verb, kind) for verb in verbs)
        kind.verb = verbs[0].name
        return kind

    return declare


MAX_DAYS = 365
MOST_WORDS = 12  # in a command with a move: a move may take a few (`place a1`)
MAX_TARGETS = 50  # boards in one subscribe


def usage(form: str, words: list[str], least: int, most: int | None = None) -> None:
    """Raise CommandError with the command's form if the word count is wrong."""
    most = least if most is None else most
    if not least <= len(words) <= most:
        raise CommandError(f"Write this command as: {form}")


def split_move_number(word: str, form: str) -> tuple[str, int | None]:
    text, mark, number = word.partition("#")
    if not mark:
        return text, None
    if not number.isdigit() or len(number) > 6 or int(number) < 1:
        raise CommandError(f"After '#' comes the move's number, like a0,0#1: write {form}.")
    return text, int(number)


def board_number(text: str) -> int:
    if not text.isdigit() or len(text) > 9:
        raise CommandError(f"'{text[:20]}' is not a board number like 101.")
    return int(text)


def board_and_move(word: str, form: str) -> tuple[int, int | None]:
    """`BOARD[#N]`: the board's number, and the move N (None: now)."""
    number, mark, at = word.partition("#")
    if not mark:
        return board_number(number), None
    if not at.isdigit() or len(at) > 6:
        raise CommandError(f"After '#' comes a move's number, like 101#3: write {form}.")
    return board_number(number), int(at)
