"""Commands as objects: what every door hands the server. Mail's command
text is read into them (`command_text.py`); the web, the API and the bots
build them directly.

A command that acts for someone names them (`userid`) and, when the door
did not vouch for them, the `password` that proves it; `comment` is what
came with it (a mail's body). `Server.execute` runs one for an actor and
says what changed (`messages.Effect`). `text()` writes a command back as
its mail form, with the password left out, for logs and error mails.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Command(ABC):
    """Anything a door can ask of the server."""

    comment: str = ""

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

    verb = ""  # the command word (a class constant)

    def text(self) -> str:
        return f"{self.verb} {self.userid} PASSWORD{self.tail()}"

    def tail(self) -> str:
        return ""


@dataclass(frozen=True, kw_only=True)
class OfGame(Command):
    """A command that names a game (written after the game's name)."""

    game: str


# ------------------------------------------------------ acting on a board


@dataclass(frozen=True, kw_only=True)
class OnBoard(OfGame, Acting):
    """A player acting on one of their boards."""

    board: int

    def text(self) -> str:
        return f"{self.game} {self.verb} {self.board} {self.userid} PASSWORD{self.tail()}"


@dataclass(frozen=True, kw_only=True)
class Move(OnBoard):
    """Play `move`; `number` (the move's number, pbmserv's `#N`) makes a
    stale or repeated request harmless."""

    move: str
    number: int | None = None
    verb = "move"

    def tail(self) -> str:
        return " " + with_number(self.move, self.number)


@dataclass(frozen=True, kw_only=True)
class Submit(OnBoard):
    """Show the board after `move` to its player; `Confirm` plays it."""

    move: str
    number: int | None = None
    verb = "submit"

    def tail(self) -> str:
        return " " + with_number(self.move, self.number)


@dataclass(frozen=True, kw_only=True)
class Confirm(OnBoard):
    """Play the move the player submitted."""

    verb = "confirm"


@dataclass(frozen=True, kw_only=True)
class Guarded(OnBoard):
    """A move with a fixed text (pass, swap), guarded by `#N` like any move."""

    number: int | None = None

    def tail(self) -> str:
        return with_number("", self.number)


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
class Hint(OnBoard):
    """Ask the engine for the best few moves of the player to move (on a
    board challenged with --hints); the answer is mailed to the asker."""

    verb = "hint"


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


# ------------------------------------------------ a player's game settings


@dataclass(frozen=True, kw_only=True)
class InGame(OfGame, Acting):
    """A player acting in one game, on no board in particular."""

    def text(self) -> str:
        return f"{self.game} {super().text()}"


@dataclass(frozen=True, kw_only=True)
class AnswerChallenges(InGame):
    """Accept (or decline) every open challenge of the game at once."""

    accept: bool

    def text(self) -> str:
        verb = "accept" if self.accept else "reject"
        return f"{self.game} {verb} {self.userid} PASSWORD"


@dataclass(frozen=True, kw_only=True)
class Limit(InGame):
    """The most boards of the game at once (None: no limit); or, by
    `choice`, take new challenges (`accept`) or refuse them (`reject`), or
    only say the current setting (`show`)."""

    limit: int | None = None
    choice: str | None = None
    verb = "limit"

    def tail(self) -> str:
        if self.choice == "show":
            return ""
        if self.choice is not None:
            return f" {self.choice}"
        return f" {'none' if self.limit is None else self.limit}"


@dataclass(frozen=True, kw_only=True)
class Seek(InGame):
    """How many new boards of the game the player would like (None: only
    say how many now)."""

    count: int | None = None
    verb = "seek"

    def tail(self) -> str:
        return "" if self.count is None else f" {self.count}"


@dataclass(frozen=True, kw_only=True)
class Subscribe(InGame):
    """Copies of `boards`' mails (and, with `new_boards`, of every board
    of the game started from now on; with `active`, of every board of the
    game being played now); with `add` false, no more copies."""

    boards: tuple[int, ...] = ()
    new_boards: bool = False
    active: bool = False
    add: bool = True

    def text(self) -> str:
        verb = "subscribe" if self.add else "unsubscribe"
        targets = [str(board) for board in self.boards] + (["all"] if self.new_boards else [])
        targets += ["active"] if self.active else []
        return " ".join([self.game, verb, self.userid, "PASSWORD", *targets])


@dataclass(frozen=True, kw_only=True)
class Notify(InGame):
    """pbmserv's notify: a mail when a board of the game ends. With no
    `boards`, for every board of the game: on, off, or (None) the other
    way round from now; with `boards`, for those (`on` false: no more)."""

    on: bool | None = None
    boards: tuple[int, ...] = ()
    verb = "notify"

    def tail(self) -> str:
        words = [str(board) for board in self.boards]
        if self.on is not None:
            words.append("on" if self.on else "off")
        return "".join(f" {word}" for word in words)


@dataclass(frozen=True, kw_only=True)
class NewBoards(InGame):
    """A mail for each new board of the game (`on`), or none."""

    on: bool
    verb = "newboards"

    def tail(self) -> str:
        return " on" if self.on else " off"


@dataclass(frozen=True, kw_only=True)
class PostOpen(InGame):
    """Post an open challenge: the first player to take it (with a rating
    from `min_rating` to `max_rating`, where set) gets a board against the
    poster, who moves first; it expires after `days`."""

    options: tuple[str, ...] = ()
    unrated: bool = False
    min_rating: int | None = None
    max_rating: int | None = None
    days: int | None = None  # until it expires (None: the server's default)
    nag_days: int | None = None
    forfeit_days: int | None = None
    total_days: int | None = None
    hints: bool = False
    verb = "open"

    def tail(self) -> str:
        words = list(self.options)
        if self.min_rating is not None or self.max_rating is not None:
            low = "" if self.min_rating is None else self.min_rating
            high = "" if self.max_rating is None else self.max_rating
            words.append(f"--rating={low}-{high}")
        for name, days in (
            ("days", self.days),
            ("nagtime", self.nag_days),
            ("forfeittime", self.forfeit_days),
            ("totaltime", self.total_days),
        ):
            if days is not None:
                words.append(f"--{name}={days}")
        words += ["--hints"] * self.hints + ["--unrated"] * self.unrated
        return "".join(f" {word}" for word in words)


@dataclass(frozen=True, kw_only=True)
class OnOpenChallenge(InGame):
    """A player acting on open challenge `number`."""

    number: int

    def text(self) -> str:
        return f"{self.game} {self.verb} {self.number} {self.userid} PASSWORD"


@dataclass(frozen=True, kw_only=True)
class TakeOpen(OnOpenChallenge):
    """Take an open challenge: the board starts at once."""

    verb = "take"


@dataclass(frozen=True, kw_only=True)
class WithdrawOpen(OnOpenChallenge):
    """Withdraw one's own open challenge."""

    verb = "withdraw"


@dataclass(frozen=True, kw_only=True)
class OpenChallenges(OfGame):
    """The game's open challenges, for anyone to take."""

    def text(self) -> str:
        return f"{self.game} games open"


@dataclass(frozen=True, kw_only=True)
class Challenge(OfGame):
    """Start a board between `players` (the first moves first), with the
    game's `options` (`-size=12`) and its timing in days (None: the
    server's default)."""

    players: tuple[str, ...]
    options: tuple[str, ...] = ()
    nag_days: int | None = None
    forfeit_days: int | None = None
    total_days: int | None = None
    hints: bool = False  # its players may ask the engine (`Hint`)
    unrated: bool = False  # a friendly game: never in the ratings

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
        flags = ["--hints"] * self.hints + ["--unrated"] * self.unrated
        return " ".join([self.game, "challenge", *self.players, *self.options, *timing, *flags])


# ----------------------------------------------------------------- looking


@dataclass(frozen=True, kw_only=True)
class Show(OfGame):
    """A board as it is, or (`at`) as it was after that move, and `also`
    more boards (each with its move or None), a mail each; `player` draws
    them as that player sees them (`showas`), proven by `password` in
    pbmserv's form (`showas USERID PASSWORD BOARD ...`)."""

    board: int
    at: int | None = None
    also: tuple[tuple[int, int | None], ...] = ()
    player: str | None = None
    password: str | None = None

    def text(self) -> str:
        where = " ".join(
            with_number(str(board), at) for board, at in ((self.board, self.at), *self.also)
        )
        if self.player is None:
            return f"{self.game} show {where}"
        if self.password is not None:
            return f"{self.game} showas {self.player} PASSWORD {where}"
        return f"{self.game} showas {where} {self.player}"


SHOW_SELECTORS = ("all", "active", "inactive", "next")


@dataclass(frozen=True, kw_only=True)
class ShowPlayers(OfGame):
    """The boards of any of the `players`, chosen by `selector` (one of
    SHOW_SELECTORS; `next`: those awaiting their move)."""

    players: tuple[str, ...]
    selector: str = "active"
    password: str | None = None  # pbmserv's `showas USERID PASSWORD SELECTOR`

    def text(self) -> str:
        if self.password is not None:
            return " ".join([self.game, "showas", *self.players, "PASSWORD", self.selector])
        return " ".join([self.game, "show", *self.players, self.selector])


@dataclass(frozen=True, kw_only=True)
class Preview(OfGame):
    """What `moves` would do on a board (as it is, or after move `at`), or
    with no `board` on a new one with `options`; nothing is stored."""

    board: int | None
    moves: tuple[str, ...]
    at: int | None = None
    options: tuple[str, ...] = ()

    def text(self) -> str:
        if self.board is None:
            return " ".join([self.game, "preview", "new", "PLAYERS", *self.options, *self.moves])
        return " ".join([self.game, "preview", with_number(str(self.board), self.at), *self.moves])


@dataclass(frozen=True, kw_only=True)
class Games(OfGame):
    """The boards of the game, of any of the `players` (none named: every
    board), chosen by `selector` (SHOW_SELECTORS; `next` with no player:
    those awaiting the sender)."""

    players: tuple[str, ...] = ()
    selector: str = "all"

    def text(self) -> str:
        words = [self.game, "games", *self.players]
        return " ".join(words if self.selector == "all" else [*words, self.selector])


@dataclass(frozen=True, kw_only=True)
class Standings(OfGame):
    def text(self) -> str:
        return f"{self.game} standings"


@dataclass(frozen=True, kw_only=True)
class History(OfGame):
    """A player's finished boards of the game and their rating changes
    (None: every rated board of the game)."""

    player: str | None = None

    def text(self) -> str:
        return f"{self.game} history" + ("" if self.player is None else f" {self.player}")


@dataclass(frozen=True, kw_only=True)
class Help(Command):
    """Every command, a game's rules (`game`), or another subject
    (`subject`, one of HELP_SUBJECTS); `more`, further games or subjects,
    a mail each."""

    game: str | None = None
    subject: str | None = None
    more: tuple[str, ...] = ()

    def text(self) -> str:
        words = [word for word in (self.game, self.subject) if word]
        return " ".join(["help", *words, *self.more])


@dataclass(frozen=True, kw_only=True)
class ListPlayers(Command):
    """The players; with `games`, those with a rating in each of them."""

    games: tuple[str, ...] = ()

    def text(self) -> str:
        return " ".join(["list", *self.games])


@dataclass(frozen=True, kw_only=True)
class AllShow(Command):
    """Every active board of a player, in every game (`next`: those
    awaiting their move)."""

    player: str
    selector: str = "active"

    def text(self) -> str:
        return f"all show {self.player}" + (" next" if self.selector == "next" else "")


# ---------------------------------------------------------------- accounts


@dataclass(frozen=True, kw_only=True)
class Signup(Command):
    """A new account; mail goes to `address` (None: the sender's), and
    commands may come from the `also` addresses too."""

    userid: str
    password: str
    address: str | None = None
    also: tuple[str, ...] = ()

    def text(self) -> str:
        addresses = [self.address, *self.also] if self.address else []
        return " ".join([f"signup {self.userid} PASSWORD", *addresses])


@dataclass(frozen=True, kw_only=True)
class AddAddress(Acting):
    """Commands may come from `address` (and the `also` addresses) too."""

    address: str
    also: tuple[str, ...] = ()
    verb = "add"

    def tail(self) -> str:
        return "".join(f" {one}" for one in (self.address, *self.also))


@dataclass(frozen=True, kw_only=True)
class Change(Acting):
    """A new password or main address (`what`: password or address). The
    current password is always needed, whoever vouches for the player."""

    what: str
    new: str
    also: tuple[str, ...] = ()  # (an address change) more addresses to send from

    def text(self) -> str:
        new = "NEWPASSWORD" if self.what.lower() == "password" else self.new
        return " ".join([f"change {self.what} {self.userid} PASSWORD {new}", *self.also])


@dataclass(frozen=True, kw_only=True)
class MailPreference(Acting):
    """Which mail a player wants: every board mail, a daily digest, none."""

    preference: str
    verb = "mail"

    def tail(self) -> str:
        return f" {self.preference}"


@dataclass(frozen=True, kw_only=True)
class Vacation(Acting):
    """No reminders or forfeits while away (`on`), or back (`off`)."""

    state: str
    verb = "vacation"

    def tail(self) -> str:
        return f" {self.state}"


@dataclass(frozen=True, kw_only=True)
class SignOff(Acting):
    """Leave: resign every active board, no more mail or challenges."""

    verb = "signoff"


@dataclass(frozen=True, kw_only=True)
class SignOn(Acting):
    """Come back after a signoff."""

    verb = "signon"


@dataclass(frozen=True, kw_only=True)
class DeleteAccount(Acting):
    """Remove an account that never played."""

    verb = "delete"


@dataclass(frozen=True, kw_only=True)
class Broadcast(Acting):
    """`comment` to every player (administrators only)."""

    verb = "broadcast"


@dataclass(frozen=True, kw_only=True)
class Message(Acting):
    """`comment` to the player `to` (and the `also` players)."""

    to: str
    also: tuple[str, ...] = ()
    verb = "message"

    def tail(self) -> str:
        return "".join(f" {name}" for name in (self.to, *self.also))


@dataclass(frozen=True, kw_only=True)
class Stop(Command):
    """No more mail, proved by the token of a mail's List-Unsubscribe
    header instead of the password."""

    userid: str
    token: str

    def text(self) -> str:
        return f"stop {self.userid} TOKEN"
