"""A cap on the replies a stranger's address gets to the commands it mails.

A naive auto-responder that echoes every mail back without saying it is a
robot (no Auto-Submitted or Precedence header) would otherwise trade mails
with the server forever, each echo a command to answer; and a forged From
would make the server mail a stranger (backscatter). So an address no
player has registered gets at most REPLIES_PER_HOUR mails in answer to its
mailed commands in any hour; the last of them says so, and until when. Its
commands still run and the other players still get their mails: only the
answers back to that address are dropped (not kept for later).

A registered player's address is never capped: every answer to their own
commands goes, errors included, however many they send (a player mailing
moves against a bot makes a hundred commands an hour easily). Their echoes
are stopped at the door instead (inbound.py: machine headers, and the
Subjects of our own mails that no command has). Only whether the address
is registered is looked up, and only once a sender's hour is full.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, Connection, Select, bindparam, func, select
from sqlalchemy.orm import Session

from ...store import Address, OutboxMessage
from ..language.messages import Outgoing

REPLIES_PER_HOUR = 100
WINDOW = timedelta(hours=1)


def replies_counted(address: ColumnElement[str], since: ColumnElement[datetime]) -> Select[int]:
    """The count of mails that answered commands mailed from `address` (its
    lower case) since `since`."""
    return (
        select(func.count())
        .select_from(OutboxMessage)
        .where(OutboxMessage.answers == address, OutboxMessage.created_at > since)
    )


# Built once: building a statement costs more than running it on SQLite, and
# a mailed move counts its sender's answers while it holds the write lock.
_COUNTED = replies_counted(bindparam("address"), bindparam("since"))


def replies_in_window(session: Session | Connection, address: str, now: datetime) -> int:
    """How many mails answered commands mailed from `address` in the last hour."""
    return session.scalar(_COUNTED, {"address": address.lower(), "since": now - WINDOW}) or 0


_REGISTERED = select(Address.id).where(Address.address_key == bindparam("address")).limit(1)


def registered(session: Session | Connection, address: str) -> bool:
    """Whether `address` (any case) is one of a player's addresses."""
    return session.scalar(_REGISTERED, {"address": address.lower()}) is not None


def answers_back(sender: str, messages: list[Outgoing]) -> list[Outgoing]:
    """The messages that go back to `sender` (any case)."""
    key = sender.lower()
    return [message for message in messages if key in {a.lower() for a in message.to}]


def cap_replies(
    session: Session | Connection, sender: str, messages: list[Outgoing], now: datetime
) -> list[Outgoing]:
    """The messages a mailed command may send: those back to `sender` marked
    as its answers, and cut to what the sender's hour still allows."""
    back = answers_back(sender, messages)
    if not back:
        return messages
    so_far = replies_in_window(session, sender, now)
    known = not all_fit(so_far, len(back)) and registered(session, sender)
    return capped(sender, messages, so_far, now, registered=known)


def all_fit(so_far: int, answers: int) -> bool:
    """Whether `answers` more answers go, every one, to a sender who has had
    `so_far` this hour (else the hour fills up: a stranger's address gets
    what fits and a notice, a registered player's every one)."""
    return REPLIES_PER_HOUR - so_far > answers


def capped(
    sender: str,
    messages: list[Outgoing],
    so_far: int,
    now: datetime,
    *,
    registered: bool = False,
) -> list[Outgoing]:
    """`cap_replies` for a sender who has had `so_far` answers this hour
    (`registered`: a player's address, never capped)."""
    key = sender.lower()
    back = answers_back(sender, messages)
    if not back:
        return messages
    room = REPLIES_PER_HOUR - so_far
    if registered or all_fit(so_far, len(back)):  # the usual case: every answer goes
        keep, notice = len(back), False
    elif room > 0:  # a stranger's hour fills up now: what fits, the last place for the notice
        keep, notice = room - 1, True
    else:
        keep, notice = 0, False
    allowed = {id(message) for message in back[:keep]}
    held = {id(message) for message in back[keep:]}
    kept: list[Outgoing] = []
    for message in messages:
        if id(message) in allowed:
            kept.append(replace(message, answers=key))
        elif id(message) in held:  # still goes to its other recipients, if any
            others = tuple(a for a in message.to if a.lower() != key)
            if others:
                kept.append(replace(message, to=others))
        else:
            kept.append(message)
    if notice:
        kept.append(paused_notice(sender, now))
    return kept


def paused_notice(sender: str, now: datetime) -> Outgoing:
    """The last answer a stranger's address gets this hour: what is dropped
    from now on, and until when."""
    resume = now + WINDOW
    return Outgoing(
        (sender,),
        "pbem replies paused",
        f"This address has had {REPLIES_PER_HOUR} mails in answer to its commands within "
        "an hour, the most the server sends an address that belongs to no player (it keeps "
        "robots from mailing it in a loop, and forged mail from reaching strangers).\n\n"
        f"Until {resume:%Y-%m-%d %H:%M} UTC, the answers to commands from this address are "
        "not sent: they are dropped, not kept, errors included. The commands still run, and "
        "the other players still get their mails. After that time, send again any command "
        "whose answer you need.\n\n"
        "A player's own addresses are never capped: if this is yours, add it to your "
        "account ('add USERID PASSWORD ADDRESS') and every answer comes at once.\n",
        answers=sender.lower(),
    )
