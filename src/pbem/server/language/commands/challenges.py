"""Challenges: to named players (challenge), answering all of a game's at
once (accept or reject with no board), and open challenges for anyone
(open, take, withdraw, games open)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial

from ....games.base import Game
from ...errors import CommandError
from ..words import MAX_DAYS, MOST_WORDS, GameVerb, declares, usage
from .base import InGame, OfGame

_DAYS = re.compile(r"--(nagtime|forfeittime|totaltime)=(\d{1,4})", re.IGNORECASE)


def read_challenge(game: Game, words: list[str], body: str) -> Challenge:
    """`challenge USER1 USER2 [-OPTION ...] [--nagtime=DAYS] ...`."""
    names = [word for word in words if not word.startswith("-")]
    days: dict[str, int] = {}
    options = []
    hints = unrated = False
    unread: list[str] = []
    for word in words:
        if word.lower() == "--hints":
            hints = True
        elif word.lower() == "--unrated":
            unrated = True
        elif word.startswith("--"):
            match = _DAYS.fullmatch(word)
            if not match:
                unread.append(f"'{word[:40]}'")
                continue
            days[match.group(1).lower()] = int(match.group(2))
        elif word.startswith("-"):
            options.append(word)
    if unread:  # every one named at once, as pbmserv's "Invalid challenge" listed them
        raise CommandError(
            f"Invalid challenge. Cannot read {', '.join(unread)}: timing is --nagtime=DAYS, "
            f"--forfeittime=DAYS or --totaltime=DAYS, with 1 to {MAX_DAYS} days; --hints "
            "lets the players ask the engine; --unrated makes a friendly game."
        )
    return Challenge(
        game=game.name,
        players=tuple(names),
        options=tuple(options),
        nag_days=days.get("nagtime"),
        forfeit_days=days.get("forfeittime"),
        total_days=days.get("totaltime"),
        hints=hints,
        unrated=unrated,
        comment=body,
    )


@declares(
    GameVerb(
        "challenge",
        (
            "challenge USER1 USER2 [-OPTION ...] [--nagtime=D] [--forfeittime=D] [--totaltime=D] "
            "[--hints] [--unrated]",
        ),
        "start a board; USER1 moves first (--unrated: a friendly game)",
        shortest=4,
        read=read_challenge,
    ),
)
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
    # The finished board this challenge is the rematch of (the web's button):
    # made once, however many times it is asked for.
    rematch_of: int | None = None

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


@dataclass(frozen=True, kw_only=True)
class AnswerChallenges(InGame):
    """Accept (or decline) every open challenge of the game at once."""

    accept: bool

    def text(self) -> str:
        verb = "accept" if self.accept else "reject"
        return f"{self.game} {verb} {self.userid} PASSWORD"


_RATING_RANGE = re.compile(r"--rating=(\d{0,4})-(\d{0,4})", re.IGNORECASE)
_OPEN_DAYS = re.compile(r"--(days|nagtime|forfeittime|totaltime)=(\d{1,4})", re.IGNORECASE)


def open_form(game: Game) -> str:
    return (
        f"{game.name} open USERID PASSWORD [-OPTION ...] [--rating=LOW-HIGH] [--days=DAYS] "
        "[--nagtime=DAYS] [--forfeittime=DAYS] [--totaltime=DAYS] [--hints] [--unrated]"
    )


def read_open(game: Game, words: list[str], body: str) -> PostOpen:
    """`open USERID PASSWORD [-OPTION ...] [--rating=LOW-HIGH] [--days=N] ...`."""
    form = open_form(game)
    usage(form, words, 2, MOST_WORDS)
    options: list[str] = []
    days: dict[str, int] = {}
    low = high = None
    hints = unrated = False
    for word in words[2:]:
        lowered = word.lower()
        rating = _RATING_RANGE.fullmatch(word)
        timing = _OPEN_DAYS.fullmatch(word)
        if lowered == "--hints":
            hints = True
        elif lowered == "--unrated":
            unrated = True
        elif rating:
            low = int(rating.group(1)) if rating.group(1) else None
            high = int(rating.group(2)) if rating.group(2) else None
        elif timing:
            days[timing.group(1).lower()] = int(timing.group(2))
        elif word.startswith("--") or not word.startswith("-"):
            raise CommandError(
                f"Cannot read '{word[:40]}': after the password come the game's options "
                f"(-size=12) and --rating=LOW-HIGH (either may be left out: --rating=1500-), "
                f"--days=DAYS (until it expires), the timing and --hints or --unrated: {form}"
            )
        else:
            options.append(word)
    return PostOpen(
        game=game.name,
        userid=words[0],
        password=words[1],
        options=tuple(options),
        unrated=unrated,
        min_rating=low,
        max_rating=high,
        days=days.get("days"),
        nag_days=days.get("nagtime"),
        forfeit_days=days.get("forfeittime"),
        total_days=days.get("totaltime"),
        hints=hints,
        comment=body,
    )


@declares(
    GameVerb(
        "open",
        ("open USERID PASSWORD [-OPTION ...] [--rating=LOW-HIGH] [--days=D] [--unrated] ...",),
        "a challenge to anyone: the first to take it plays you, and you move first",
        read=read_open,
    ),
)
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


def read_take_or_withdraw(
    game: Game, words: list[str], body: str, *, take: bool
) -> TakeOpen | WithdrawOpen:
    """`take NUMBER USERID PASSWORD` and `withdraw NUMBER USERID PASSWORD`."""
    verb = "take" if take else "withdraw"
    form = (
        f"{game.name} {verb} NUMBER USERID PASSWORD (NUMBER: '{game.name} games open' lists them)"
    )
    usage(form, words, 3)
    if not words[0].isdigit() or len(words[0]) > 9:
        raise CommandError(f"The open challenge's number comes first: {form}")
    kind = TakeOpen if take else WithdrawOpen
    return kind(
        game=game.name, number=int(words[0]), userid=words[1], password=words[2], comment=body
    )


@declares(
    GameVerb(
        "take",
        ("take NUMBER USERID PASSWORD",),
        "take open challenge NUMBER ('games open' lists them): the board starts at once",
        read=partial(read_take_or_withdraw, take=True),
    ),
)
@dataclass(frozen=True, kw_only=True)
class TakeOpen(OnOpenChallenge):
    """Take an open challenge: the board starts at once."""


@declares(
    GameVerb(
        "withdraw",
        ("withdraw NUMBER USERID PASSWORD",),
        "take back your open challenge NUMBER",
        read=partial(read_take_or_withdraw, take=False),
    ),
)
@dataclass(frozen=True, kw_only=True)
class WithdrawOpen(OnOpenChallenge):
    """Withdraw one's own open challenge."""


@dataclass(frozen=True, kw_only=True)
class OpenChallenges(OfGame):
    """The game's open challenges, for anyone to take."""

    def text(self) -> str:
        return f"{self.game} games open"
