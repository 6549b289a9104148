"""The read side's front: what the doors show, each read in a session of
its own, so that no door opens a database session (`server.read`).

Every method only looks: a read session takes no write lock, and what it
returns is plain data or rows already loaded, safe to use after the
session has closed. Every change goes through `Server.execute`.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from ..store import Rating, RatingEvent
from .players.accounts import find_user
from .runners import open_challenges
from .runners.open_challenges import Listed
from .runners.standings import StandingsLine, standing_sections
from .views import listings
from .views.listings import BoardLine


@dataclass(frozen=True)
class Account:
    """A player's own settings, as their account page and `/api/me` show them."""

    userid: str
    addresses: tuple[str, ...]
    mail_preference: str
    vacation: bool


@dataclass(frozen=True)
class Player:
    """A player as their page shows them: their ratings by game, their
    boards (`boards`, active and finished), those awaiting their move, and
    the latest changes of their ratings (when asked for)."""

    userid: str
    bot_level: str | None
    vacation: bool
    signed_off: bool
    ratings: dict[str, Rating]
    boards: list[BoardLine]
    awaiting: list[BoardLine]
    history: list[tuple[RatingEvent, str]]


@dataclass(frozen=True)
class Home:
    """The home page: boards being played, those awaiting the visitor, and
    the open challenges."""

    recent: list[BoardLine]
    awaiting: list[BoardLine]
    offers: list[Listed]


class ReadSide:
    """What the doors read, each in a read session of its own."""

    def __init__(
        self, reads: Callable[[], AbstractContextManager[Session]], clock: Callable[[], datetime]
    ) -> None:
        self.reads = reads
        self.clock = clock

    def spelled(self, userid: str) -> str:
        """The userid as its owner spelled it at sign-up (itself if none)."""
        with self.reads() as session:
            user = find_user(session, userid)
            return user.userid if user else userid

    def account(self, userid: str) -> Account | None:
        with self.reads() as session:
            user = find_user(session, userid)
            if user is None:
                return None
            return Account(
                userid=user.userid,
                addresses=tuple(address.address for address in user.addresses),
                mail_preference=user.mail_preference,
                vacation=bool(user.vacation),
            )

    def player(self, userid: str, *, history: bool = False) -> Player | None:
        with self.reads() as session:
            user = listings.player_named(session, userid)
            if user is None:
                return None
            return Player(
                userid=user.userid,
                bot_level=user.bot_level,
                vacation=bool(user.vacation),
                signed_off=bool(user.signed_off),
                ratings=listings.ratings_of(session, user),
                boards=listings.boards(session, None, "mine", user.userid),
                awaiting=listings.boards(session, None, "awaiting", user.userid),
                history=listings.rating_history(session, user) if history else [],
            )

    def boards(
        self, game: str | None, show: str, userid: str | None, limit: int = 200
    ) -> list[BoardLine]:
        """Boards of `game` (None: every game) by `show` (listings.FILTERS),
        newest first."""
        with self.reads() as session:
            return listings.boards(session, game, show, userid, limit=limit)

    def next_awaiting(self, userid: str, besides: int) -> BoardLine | None:
        """The board awaiting `userid` longest, other than `besides`."""
        with self.reads() as session:
            return listings.next_awaiting(session, userid, besides)

    def open_challenges(self, game: str | None, limit: int = 100) -> list[Listed]:
        """The open challenges still to take, oldest first."""
        with self.reads() as session:
            return open_challenges.listed(session, game, self.clock(), limit=limit)

    def standings(
        self, game: str, start: dict[str, int] | None = None
    ) -> dict[str, list[StandingsLine]]:
        """The game's standings by section, each from its `start` (or the top)."""
        with self.reads() as session:
            return standing_sections(session, game, self.clock(), start=start)

    def home(self, userid: str | None) -> Home:
        with self.reads() as session:
            recent = listings.boards(session, None, "active", userid, limit=12)
            awaiting = (
                listings.boards(session, None, "awaiting", userid, limit=20) if userid else []
            )
            offers = open_challenges.listed(session, None, self.clock(), limit=20)
        return Home(recent=recent, awaiting=awaiting, offers=offers)
