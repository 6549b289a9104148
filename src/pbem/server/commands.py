"""Commands as objects: what the web, the API and (later) the bots hand the
server, and what a mail's command text is read into.

A command names who it acts for (`userid`) and, when the door did not vouch
for them, the `password` that proves it; `comment` is what came with it (a
mail's body). `Server.execute` runs one for an actor and says what changed
(`messages.Effect`). `from_words` reads the text form; `text()` writes it back,
with the password left out, for logs and error mails.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..games.base import Game
from .context import split_move_number, usage
from .errors import CommandError


@dataclass(frozen=True, kw_only=True)
class OnBoard:
    """A player acting on one of their boards."""

    game: str
    board: int
    userid: str
    password: str | None = None  # None: the door vouched for `userid`
    comment: str = ""

    verb = ""  # the command word (a class constant)

    def text(self) -> str:
        return f"{self.game} {self.verb} {self.board} {self.userid} PASSWORD{self.tail()}"

    def tail(self) -> str:
        return ""


@dataclass(frozen=True, kw_only=True)
class Move(OnBoard):
    """Play `move`; `number` (the move's number, pbmserv's `#N`) makes a
    stale or repeated request harmless."""

    move: str
    number: int | None = None
    verb = "move"

    def tail(self) -> str:
        return f" {self.move}" + ("" if self.number is None else f"#{self.number}")


@dataclass(frozen=True, kw_only=True)
class Guarded(OnBoard):
    """A move with a fixed text (pass, swap), guarded by `#N` like any move."""

    number: int | None = None

    def tail(self) -> str:
        return "" if self.number is None else f"#{self.number}"


@dataclass(frozen=True, kw_only=True)
class Pass(Guarded):
    verb = "pass"


@dataclass(frozen=True, kw_only=True)
class Swap(Guarded):
    verb = "swap"


@dataclass(frozen=True, kw_only=True)
class Resign(OnBoard):
    verb = "resign"


@dataclass(frozen=True, kw_only=True)
class Chat(OnBoard):
    """`comment` goes to the board's other players."""

    verb = "chat"


@dataclass(frozen=True, kw_only=True)
class Queue(OnBoard):
    """Play `move` at the player's next turn, if the opponent's move before
    it is `condition` (when there is one)."""

    move: str
    condition: str = ""
    verb = "queue"

    def tail(self) -> str:
        return f" {self.move}" + (f" if {self.condition}" if self.condition else "")


@dataclass(frozen=True, kw_only=True)
class Propose(OnBoard):
    """Propose a draw."""

    verb = "propose"


@dataclass(frozen=True, kw_only=True)
class Undo(OnBoard):
    """Propose taking back the last move."""

    verb = "undo"


@dataclass(frozen=True, kw_only=True)
class Accept(OnBoard):
    verb = "accept"


@dataclass(frozen=True, kw_only=True)
class Reject(OnBoard):
    verb = "reject"


@dataclass(frozen=True, kw_only=True)
class MailPreference:
    """Which mail a player wants: every board mail, a daily digest, none."""

    userid: str
    password: str | None = None
    preference: str
    comment: str = ""

    def text(self) -> str:
        return f"mail {self.userid} PASSWORD {self.preference}"


@dataclass(frozen=True, kw_only=True)
class Vacation:
    """No reminders or forfeits while away (`on`), or back (`off`)."""

    userid: str
    password: str | None = None
    state: str
    comment: str = ""

    def text(self) -> str:
        return f"vacation {self.userid} PASSWORD {self.state}"


@dataclass(frozen=True, kw_only=True)
class Challenge:
    """Start a board between `players` (the first moves first), with the
    game's `options` (`-size=12`) and its timing in days (None: the
    server's default)."""

    game: str
    players: tuple[str, ...]
    options: tuple[str, ...] = ()
    nag_days: int | None = None
    forfeit_days: int | None = None
    total_days: int | None = None
    comment: str = ""

    def text(self) -> str:
        timing = [
            f"--{name}={days}"
            for name, days in (
                ("nagtime", self.nag_days),
                ("forfeittime", self.forfeit_days),
                ("totaltime", self.total_days),
            )
            if days is not None
        ]
        return " ".join([self.game, "challenge", *self.players, *self.options, *timing])


@dataclass(frozen=True, kw_only=True)
class Change:
    """A new password or main address (`what`: password or address). The
    current password is always needed, whoever vouches for the player."""

    what: str
    userid: str
    password: str | None = None
    new: str
    comment: str = ""

    def text(self) -> str:
        new = "NEWPASSWORD" if self.what.lower() == "password" else self.new
        return f"change {self.what} {self.userid} PASSWORD {new}"


Command = OnBoard | MailPreference | Vacation | Challenge | Change

VOTES: dict[str, type[OnBoard]] = {
    "resign": Resign,
    "propose": Propose,
    "undo": Undo,
    "accept": Accept,
    "reject": Reject,
}


def board_number(text: str) -> int:
    if not text.isdigit() or len(text) > 9:
        raise CommandError(f"'{text[:20]}' is not a board number like 101.")
    return int(text)


def read_move(game: Game, words: list[str], body: str) -> OnBoard:
    """`move BOARD USERID PASSWORD MOVE[#N]`; pbmserv's `move ... resign`
    (and propose, undo, accept, reject, swap) are those commands."""
    form = f"{game.name} move BOARD USERID PASSWORD MOVE[#N]"
    usage(form, words, 4)
    board = board_number(words[0])
    word, mark, _ = words[3].partition("#")
    if word.lower() == "swap":
        return read_guarded(Swap, game, [*words[:2], words[2] + words[3][len(word) :]], body)
    if word.lower() in VOTES and not mark:
        return VOTES[word.lower()](
            game=game.name, board=board, userid=words[1], password=words[2], comment=body
        )
    text, number = split_move_number(words[3], form)
    return Move(
        game=game.name,
        board=board,
        userid=words[1],
        password=words[2],
        move=text,
        number=number,
        comment=body,
    )


def read_guarded(kind: type[Guarded], game: Game, words: list[str], body: str) -> Guarded:
    """`pass|swap BOARD USERID PASSWORD[#N]`."""
    form = f"{game.name} {kind.verb} BOARD USERID PASSWORD[#N]"
    usage(form, words, 3)
    password, number = split_move_number(words[2], form)
    return kind(
        game=game.name,
        board=board_number(words[0]),
        userid=words[1],
        password=password,
        number=number,
        comment=body,
    )


def read_plain(kind: type[OnBoard], game: Game, words: list[str], body: str) -> OnBoard:
    """`VERB BOARD USERID PASSWORD` (resign, chat, propose, undo, accept, reject)."""
    usage(f"{game.name} {kind.verb} BOARD USERID PASSWORD", words, 3)
    return kind(
        game=game.name,
        board=board_number(words[0]),
        userid=words[1],
        password=words[2],
        comment=body,
    )


def read_queue(game: Game, words: list[str], body: str) -> Queue:
    form = f"{game.name} queue BOARD USERID PASSWORD MOVE [if THEIRMOVE]"
    if len(words) not in (4, 6) or (len(words) == 6 and words[4].lower() != "if"):
        raise CommandError(f"Write this command as: {form}")
    return Queue(
        game=game.name,
        board=board_number(words[0]),
        userid=words[1],
        password=words[2],
        move=words[3],
        condition=words[5] if len(words) == 6 else "",
        comment=body,
    )
