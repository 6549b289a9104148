"""Every mail ends by saying how to get fewer: the stop line.

Commands write their bodies; `with_footers` appends the line for the
recipient when the command queued the mail, so no mail can forget it.
"""

from __future__ import annotations

import hmac
from dataclasses import replace

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from ...store import Address, User
from ..language.messages import Outgoing

STRANGER = (
    "You get this mail because a command came from this address. The server writes "
    "only to answer commands and about games you play or follow: send nothing and "
    "nothing more comes."
)


def stop_token(user: User) -> str:
    """A token that lets `stop USERID TOKEN` turn the user's mail off without
    the password (for List-Unsubscribe): keyed by the password's hash, so it
    is secret and changes with the password."""
    return stop_token_of(user.userid_key, user.password_hash)


def stop_token_of(userid_key: str, password_hash: str) -> str:
    """`stop_token` from the two columns it is made of (delivery reads only
    those)."""
    digest = hmac.new(password_hash.encode(), b"stop:" + userid_key.encode(), "sha256")
    return digest.hexdigest()[:20]


def stop_line(userid: str, preference: str = "every") -> str:
    """The account's stop line, for what it chose (`mail`): a digest reader
    is not told how to get a digest."""
    if preference == "digest":
        return (
            f"You get this mail as {userid}, who chose one digest a day. Board mails "
            f"again: 'mail {userid} PASSWORD every'; no mail: '... none'."
        )
    if preference == "none":
        return (
            f"You get this mail as {userid}, in answer to a command (you chose no board "
            f"mail). Board mails again: 'mail {userid} PASSWORD every'."
        )
    return (
        f"You get this mail as {userid}. For fewer mails: "
        f"'mail {userid} PASSWORD digest' (one a day) or '... none'."
    )


def signed(message: Outgoing, footer: str) -> Outgoing:
    """The message with its footer, as it is sent."""
    body = message.body.rstrip("\n") + "\n\n" + footer + "\n"
    return replace(message, body=body, footer=footer)


def with_footers(session: Session, messages: list[Outgoing]) -> list[Outgoing]:
    """The messages as sent: each body ending with its stop line (the
    account's, when it goes to one player's address; the stranger's
    otherwise). The recipients' accounts are looked up in one query."""
    wanted = {m.to[0].lower() for m in messages if m.footer is None and len(m.to) == 1}
    accounts: dict[str, User] = {}
    if wanted:
        found = session.scalars(
            select(Address).options(joinedload(Address.user)).where(Address.address_key.in_(wanted))
        )
        accounts = {address.address_key: address.user for address in found}
    done = []
    for message in messages:
        footer = message.footer
        if footer is None:
            user = accounts.get(message.to[0].lower()) if len(message.to) == 1 else None
            footer = STRANGER if user is None else stop_line(user.userid, user.mail_preference)
        done.append(signed(message, footer))
    return done
