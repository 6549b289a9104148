"""Commands as objects: what every door hands the server. Mail's command
text is read into them (each class declares its words and reader with
`@declares`, words.py); the web, the API and the bots build them directly.

A command that acts for someone names them (`userid`) and, when the door
did not vouch for them, the `password` that proves it; `comment` is what
came with it (a mail's body). `Server.execute` runs one for an actor and
says what changed (`messages.Effect`). `text()` writes a command back as
its mail form, with the password left out, for logs and error mails.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from ..words import Verb


@dataclass(frozen=True, kw_only=True)
class Command(ABC):
    """Anything a door can ask of the server."""

    comment: str = ""
    verb: ClassVar[str] = ""  # its command word (`@declares` sets it)
    verbs: ClassVar[tuple[Verb, ...]] = ()  # the words that make it (`@declares`)

    @abstractmethod
    def text(self) -> str:
        """The command as it would be written in a mail's Subject."""


def with_number(text: str, number: int | None) -> str:
    return text if number is None else f"{text}#{number}"


@dataclass(frozen=True, kw_only=True)
class Acting(Command):
    """A command acting for a player: `userid`, proven by `password` unless
    the door vouched for them (None)."""

    userid: str
    password: str | None = None

    def text(self) -> str:
        return f"{self.verb} {self.userid} PASSWORD{self.tail()}"

    def tail(self) -> str:
        return ""


@dataclass(frozen=True, kw_only=True)
class OfGame(Command):
    """A command that names a game (written after the game's name)."""

    game: str


@dataclass(frozen=True, kw_only=True)
class OnBoard(OfGame, Acting):
    """A player acting on one of their boards."""

    board: int

    def text(self) -> str:
        return f"{self.game} {self.verb} {self.board} {self.userid} PASSWORD{self.tail()}"


@dataclass(frozen=True, kw_only=True)
class InGame(OfGame, Acting):
    """A player acting in one game, on no board in particular."""

    def text(self) -> str:
        return f"{self.game} {super().text()}"
