"""What every command works with (the transaction, the sender, the time, the
mails it will send), and the checks commands share: who is acting, which
game, board and seat. Reading command words is language/'s; the board
mails are board_mail.py's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from ..games.base import Game
from ..store import Board, User
from .errors import FORBIDDEN, NOT_FOUND, CommandError
from .language.messages import Reply
from .players.accounts import authenticate, find_address, find_user, main_address


@dataclass
class Context:
    """What a command works with: the transaction, who sent it, the comment
    that came with it, the time, and the mails it will send."""

    session: Session
    sender: str
    body: str
    now: datetime
    reply: Reply
    # A userid (lower case) the door has already authenticated (the web's
    # logged-in player): commands take it without its password.
    trusted: str | None = None
    trusted_user: User | None = None  # that user, looked up once

    def __post_init__(self) -> None:
        """The trusted user, and their address as the sender when the door
        gave none (replies go where their mail goes)."""
        if self.trusted is not None:
            self.trusted_user = find_user(self.session, self.trusted)
            if not self.sender and self.trusted_user is not None:
                self.sender = main_address(self.trusted_user) or ""  # a bot: no one


def login(ctx: Context, userid: str, password: str | None) -> User:
    """The user a command acts for: the door's trusted user, or whoever the
    password proves (no password proves no one). Changing a password or
    leaving always asks for it."""
    if ctx.trusted_user is not None and userid.lower() == ctx.trusted:
        return ctx.trusted_user
    return authenticate(ctx.session, userid, password or "", ctx.sender)


def board_of(ctx: Context, game: Game, number: int) -> Board:
    board = ctx.session.get(Board, number)
    if board is None or board.game != game.name:
        # The refusal names this board (its Subject too, when there is no
        # such board at all), not the first one of a command naming several;
        # and it says that nothing was done, the good ones neither.
        raise CommandError(
            f"There is no {game.title} board {number}, so nothing was done (nor for any "
            f"other board named with it). '{game.name} games USERID' lists a player's boards.",
            number if board is None else None,
            kind=NOT_FOUND,
        )
    return board


def seat_of(board: Board, user: User) -> int:
    """The user's seat on the board: the seat to move when it is one of
    theirs (a player may take several seats, to try a game alone)."""
    seats = [player.seat for player in board.players if player.user_id == user.id]
    if seats:
        return board.to_move if board.to_move in seats else seats[0]
    raise CommandError(
        f"{user.userid} does not play on board {board.id}: only its players may do that "
        "(anyone may show it).",
        board.id,
        kind=FORBIDDEN,
    )


def sender_account(ctx: Context) -> User | None:
    address = find_address(ctx.session, ctx.sender)
    return None if address is None else address.user


def sending_user(ctx: Context) -> User | None:
    """Who sent the command: the door's trusted user, else the account of
    the sender's address (None: an address with no account)."""
    return ctx.trusted_user if ctx.trusted_user is not None else sender_account(ctx)
