"""Users: who they are, checking passwords, and the rules for names.

Userids and passwords have no spaces, quotes or colons; userids compare
without regard to case (Alice is alice). Passwords are stored as argon2
hashes, never in clear (see passwords.py).
"""

from __future__ import annotations

import re

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from ...store import Address, User
from ..errors import FORBIDDEN, NOT_FOUND, CommandError
from . import passwords
from .passwords import password_matches
from .throttle import check_allowed, record_failure

_WORD = re.compile(r"[!#-&(-9;-~]{1,64}")  # printable ASCII without space, quotes and ':'
_USERID = re.compile(r"[!#-&(-9;-~]{2,32}")
_ADDRESS = re.compile(r"[^@\s<>\"',;:]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){0,8}[A-Za-z0-9-]{1,63}")


def check_userid(userid: str) -> str:
    if not _USERID.fullmatch(userid):
        raise CommandError(
            f"'{userid[:40]}' cannot be a userid: use 2 to 32 letters, digits or signs, "
            "with no spaces, quotes or colons."
        )
    return userid


def check_password(password: str) -> str:
    if not _WORD.fullmatch(password) or len(password) < 4:
        raise CommandError(
            "A password needs 4 to 64 letters, digits or signs, with no spaces, quotes or colons."
        )
    return password


def check_address(address: str) -> str:
    if not _ADDRESS.fullmatch(address):
        raise CommandError(f"'{address[:80]}' is not a mail address like alice@example.org.")
    return address


def find_user(session: Session, userid: str) -> User | None:
    return session.scalar(select(User).where(User.userid_key == userid.lower()))


def user_named(session: Session, userid: str) -> User:
    """The user, or a CommandError saying there is none by that name."""
    user = find_user(session, userid)
    if user is None:
        raise CommandError(
            f"There is no user '{userid[:40]}'. Check the spelling, or sign up with "
            "'signup userid password'.",
            kind=NOT_FOUND,
        )
    return user


def authenticate(session: Session, userid: str, password: str, source: str = "") -> User:
    """The user if the password is theirs; otherwise one error for both
    cases, so a wrong guess does not tell which userids exist. Raises
    PasswordWork when argon2 must run first (outside the transaction).
    Too many recent failures for the userid or from `source` (the sender's
    address, the client's) refuse without checking, but for a password this
    process already found right (server/players/throttle.py has the rule).
    An unknown userid costs what a known one does, the first time a password
    is tried for it and each time again (passwords.py)."""
    user = find_user(session, userid)
    if user is not None and passwords.VERDICTS.known(user.password_hash, password) is True:
        return user  # (only its owner can send it: no throttle holds it up)
    check_allowed(session, userid, source)
    if password_matches(None if user is None else user.password_hash, password, userid):
        assert user is not None
        return user
    record_failure(session, userid, source)
    raise CommandError(
        f"The userid '{userid[:40]}' and that password do not match. Userids ignore "
        "case; passwords do not.",
        kind=FORBIDDEN,
    )


def main_address(user: User) -> str | None:
    """Where the user's mail goes; None for a bot, which has no address (a
    mail to it is not sent)."""
    return user.addresses[0].address if user.addresses else None


def find_address(session: Session, address: str) -> Address | None:
    """The address, with its user (one round trip: most callers want both)."""
    return session.scalar(
        select(Address)
        .options(joinedload(Address.user))
        .where(Address.address_key == address.lower())
    )
