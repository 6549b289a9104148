"""API tokens: a player makes one on the account page, a program sends it as
`Authorization: Bearer TOKEN`, and the API acts for the token's owner. Only
a token's hash is stored; the token itself is shown once, when made.
A token ends with the trust that made it: a new password and "log out
everywhere" revoke every token of the account, but the one a `change
password` came with (`in_use`, players/trust.py)."""

from __future__ import annotations

import contextlib
import hashlib
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, select, update

from ..store import ApiToken, User
from ..store.database import single_writes
from .boards.quick_move import TokenCheck
from .language.commands import Move
from .language.messages import Outcome
from .players.accounts import find_user
from .players.trust import token_in_use
from .service import Server

USE_NOTED_EVERY = timedelta(minutes=5)  # how stale a token's "last used" may be


@dataclass(frozen=True)
class TokenInfo:
    """A token as its owner's account page lists it (never the token)."""

    id: int
    label: str
    created_at: datetime
    last_used_at: datetime | None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def make_token(server: Server, userid: str, label: str) -> str | None:
    """A new token for the player, to show once; None when there is no such
    account (deleted meanwhile)."""
    token = "pbem_" + secrets.token_urlsafe(30)
    with server.sessions.begin() as session:
        user = find_user(session, userid)
        if user is None:
            return None
        session.add(
            ApiToken(
                user_id=user.id,
                label=label[:100],
                token_hash=token_hash(token),
                created_at=server.clock(),
            )
        )
    return token


@contextlib.contextmanager
def in_use(token: str) -> Iterator[None]:
    """Within it, commands run for this token: a password it changes
    revokes its owner's other tokens and every web session, not this token."""
    with token_in_use(token_hash(token)):
        yield


def tokens_of(server: Server, userid: str) -> list[TokenInfo]:
    """The player's tokens, oldest first."""
    with server.reads() as session:
        rows = session.execute(
            select(ApiToken.id, ApiToken.label, ApiToken.created_at, ApiToken.last_used_at)
            .join(User, User.id == ApiToken.user_id)
            .where(User.userid_key == userid.lower())
            .order_by(ApiToken.id)
        ).all()
    return [TokenInfo(*row) for row in rows]


def revoke(server: Server, userid: str, token_id: int) -> bool:
    """Revoke one of the player's tokens; False when they have no such token."""
    with server.sessions.begin() as session:
        user = find_user(session, userid)
        token = session.get(ApiToken, token_id)
        if token is None or user is None or token.user_id != user.id:
            return False
        session.delete(token)
    return True


_OWNER = (
    select(ApiToken.id, ApiToken.last_used_at, User.userid)
    .join(User, User.id == ApiToken.user_id)
    .where(ApiToken.token_hash == bindparam("hash"))
)
_NOTE_USE = (
    update(ApiToken).where(ApiToken.id == bindparam("token")).values(last_used_at=bindparam("now"))
)
WARM_READS = ((_OWNER, {"hash": ""}),)  # every API request's first read (warm_up.py)


def quick_move_by_token(server: Server, command: Move, token: str) -> Outcome | None:
    """`command` as a plain move for the token's owner (whatever its
    userid), the token looked up in the same read as the board: one
    statement fewer than `token_owner` and then `Server.execute`. None when
    it is not one (a token not known, a use to note, anything the plain
    path leaves to the full one): nothing was done, and the caller does
    those two."""
    check = TokenCheck(token_hash(token), server.clock() - USE_NOTED_EVERY)
    return server.quick_vouched(command, check)


def token_owner(server: Server, token: str) -> str | None:
    """The userid whose token this is, or None; notes when it was last used
    (at most every USE_NOTED_EVERY, so reading costs no write each time)."""
    with server.reader.connect() as connection:
        found = connection.execute(_OWNER, {"hash": token_hash(token)}).first()
    if found is None:
        return None
    token_id, last_used, userid = found
    now = server.clock()
    if last_used is None or now - last_used >= USE_NOTED_EVERY:
        # One statement, in autocommit on PostgreSQL (one round trip, no ORM
        # session); SQLite takes its write turn for it.
        with single_writes(server.writer).begin() as connection:
            connection.execute(_NOTE_USE, {"token": token_id, "now": now})
    return str(userid)
