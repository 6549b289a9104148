"""A player's settings in one game: how many boards they take (limit),
how many games they seek (seek), and the mail about boards they do not
play on (subscribe, unsubscribe, notify, newboards)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from ....games.base import Game
from ...errors import CommandError
from ..words import MAX_TARGETS, GameVerb, board_number, declares, usage
from .base import InGame


def read_limit(game: Game, words: list[str], body: str) -> Limit:
    """`limit USERID PASSWORD [N|none|all|inf|accept|reject]`: no word
    asks for the current setting."""
    form = f"{game.name} limit USERID PASSWORD [N|none|accept|reject]"
    usage(form, words, 2, 3)
    word = words[2].lower() if len(words) == 3 else None
    number: int | None = None
    choice: str | None = None
    if word is None:
        choice = "show"
    elif word in ("accept", "reject"):
        choice = word
    elif word.isdigit() and len(word) <= 6:
        number = int(word)
    elif word not in ("none", "all", "inf"):
        raise CommandError(
            f"Write a number of boards (0 to 1000), none (no limit), accept or reject: {form}"
        )
    return Limit(
        game=game.name,
        userid=words[0],
        password=words[1],
        limit=number,
        choice=choice,
        comment=body,
    )


@declares(
    GameVerb(
        "limit",
        ("limit USERID PASSWORD [N|none|accept|reject]",),
        "the most boards of the game at once, or whether you take challenges; alone, what is set",
        read=read_limit,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Limit(InGame):
    """The most boards of the game at once (None: no limit); or, by
    `choice`, take new challenges (`accept`) or refuse them (`reject`), or
    only say the current setting (`show`)."""

    limit: int | None = None
    choice: str | None = None

    def tail(self) -> str:
        if self.choice == "show":
            return ""
        if self.choice is not None:
            return f" {self.choice}"
        return f" {'none' if self.limit is None else self.limit}"


def read_seek(game: Game, words: list[str], body: str) -> Seek:
    """`seek USERID PASSWORD [N]`: no number asks for the current one."""
    usage(f"{game.name} seek USERID PASSWORD [N]", words, 2, 3)
    if len(words) == 3 and (not words[2].isdigit() or len(words[2]) > 6):
        raise CommandError(f"Write how many games you seek, 0 to 100: {game.name} seek ...")
    return Seek(
        game=game.name,
        userid=words[0],
        password=words[1],
        count=int(words[2]) if len(words) == 3 else None,
        comment=body,
    )


@declares(
    GameVerb(
        "seek",
        ("seek USERID PASSWORD [N]",),
        "how many new boards you would like (alone: how many now)",
        read=read_seek,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Seek(InGame):
    """How many new boards of the game the player would like (None: only
    say how many now)."""

    count: int | None = None

    def tail(self) -> str:
        return "" if self.count is None else f" {self.count}"


def read_subscribe(add: bool, game: Game, words: list[str], body: str) -> Subscribe:
    """`subscribe|unsubscribe USERID PASSWORD BOARD ...|all|active`, or
    pbmserv's `subscribe BOARD USERID PASSWORD`."""
    verb = "subscribe" if add else "unsubscribe"
    if len(words) == 3 and words[0].isdigit() and not words[1].isdigit():
        words = [words[1], words[2], words[0]]
    if len(words) < 3:
        raise CommandError(
            f"Write this command as: {game.name} {verb} USERID PASSWORD BOARD ...|all|active"
        )
    targets = words[2:]
    if len(targets) > MAX_TARGETS:
        raise CommandError(
            f"At most {MAX_TARGETS} boards at a time: send the others in another command."
        )
    selectors = ("all", "active")
    return Subscribe(
        game=game.name,
        userid=words[0],
        password=words[1],
        boards=tuple(board_number(t) for t in targets if t.lower() not in selectors),
        new_boards=any(target.lower() == "all" for target in targets),
        active=any(target.lower() == "active" for target in targets),
        add=add,
        comment=body,
    )


@declares(
    GameVerb(
        "subscribe",
        ("subscribe USERID PASSWORD BOARD ...|all|active", "subscribe BOARD USERID PASSWORD"),
        "copies of boards' mails (all: of every new board of the game; active: of "
        "every board being played)",
        shortest=3,
        read=partial(read_subscribe, True),
    ),
    GameVerb(
        "unsubscribe",
        ("unsubscribe USERID PASSWORD BOARD ...|all|active",),
        "no more copies",
        shortest=5,
        read=partial(read_subscribe, False),
    ),
)
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


def read_notify(game: Game, words: list[str], body: str) -> Notify:
    """`notify USERID PASSWORD [BOARD ...] [on|off]`."""
    form = f"{game.name} notify USERID PASSWORD [BOARD ...] [on|off]"
    usage(form, words, 2, 3 + MAX_TARGETS)
    rest = words[2:]
    on: bool | None = None
    if rest and rest[-1].lower() in ("on", "off"):
        on = rest.pop().lower() == "on"
    if any(not word.isdigit() for word in rest):
        raise CommandError(f"Write this command as: {form}")
    return Notify(
        game=game.name,
        userid=words[0],
        password=words[1],
        on=on,
        boards=tuple(board_number(word) for word in rest),
        comment=body,
    )


@declares(
    GameVerb(
        "notify",
        ("notify USERID PASSWORD [BOARD ...] [on|off]",),
        "a mail when a board of the game ends: every board (alone: on, or off "
        "again), or those named",
        read=read_notify,
    ),
)
@dataclass(frozen=True, kw_only=True)
class Notify(InGame):
    """pbmserv's notify: a mail when a board of the game ends. With no
    `boards`, for every board of the game: on, off, or (None) the other
    way round from now; with `boards`, for those (`on` false: no more)."""

    on: bool | None = None
    boards: tuple[int, ...] = ()

    def tail(self) -> str:
        words = [str(board) for board in self.boards]
        if self.on is not None:
            words.append("on" if self.on else "off")
        return "".join(f" {word}" for word in words)


def read_newboards(game: Game, words: list[str], body: str) -> NewBoards:
    if len(words) != 3 or words[2].lower() not in ("on", "off"):
        raise CommandError(f"Write this command as: {game.name} newboards USERID PASSWORD on|off")
    return NewBoards(
        game=game.name,
        userid=words[0],
        password=words[1],
        on=words[2].lower() == "on",
        comment=body,
    )


@declares(
    GameVerb(
        "newboards",
        ("newboards USERID PASSWORD on|off",),
        "a mail for each new board of the game",
        read=read_newboards,
    ),
)
@dataclass(frozen=True, kw_only=True)
class NewBoards(InGame):
    """A mail for each new board of the game (`on`), or none."""

    on: bool

    def tail(self) -> str:
        return " on" if self.on else " off"
