"""A cap on the replies one address gets to the commands it mails.

A naive auto-responder that echoes every mail back without saying it is a
robot (no Auto-Submitted or Precedence header) would otherwise trade mails
with the server forever, each echo a command to answer. So an address gets
at most REPLIES_PER_HOUR mails in answer to its mailed commands in any hour;
the last of them says so. Its commands still run and the other players still
get their mails: only the mails back to that address are held.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, Connection, Select, bindparam, func, select
from sqlalchemy.orm import Session

from ...store import OutboxMessage
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


def answers_back(sender: str, messages: list[Outgoing]) -> list[Outgoing]:
    """The messages that go back to `sender` (any case)."""
    key = sender.lower()
    return [message for message in messages if key in {a.lower() for a in message.to}]


def cap_replies(
    session: Session | Connection, sender: str, messages: list[Outgoing], now: datetime
) -> list[Outgoing]:
    """The messages a mailed command may send: those back to `sender` marked
    as its answers, and cut to what the sender's hour still allows."""
    if not answers_back(sender, messages):
        return messages
    return capped(sender, messages, replies_in_window(session, sender, now), now)


def all_fit(so_far: int, answers: int) -> bool:
    """Whether `answers` more answers go, every one, to a sender who has had
    `so_far` this hour (else the hour fills up: some wait, and a notice
    says so)."""
    return REPLIES_PER_HOUR - so_far > answers


def capped(sender: str, messages: list[Outgoing], so_far: int, now: datetime) -> list[Outgoing]:
    """`cap_replies` for a sender who has had `so_far` answers this hour."""
    key = sender.lower()
    back = answers_back(sender, messages)
    if not back:
        return messages
    room = REPLIES_PER_HOUR - so_far
    if all_fit(so_far, len(back)):  # the usual case: every answer goes
        keep, notice = len(back), False
    elif room > 0:  # the hour fills up now: what fits, the last place for the notice
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
    resume = now + WINDOW
    return Outgoing(
        (sender,),
        "pbem replies paused",
        f"This address has had {REPLIES_PER_HOUR} mails in answer to its commands within "
        "an hour, the most the server sends one address (it keeps robots from mailing it "
        "in a loop). Commands from it still run and the other players still get their "
        f"mails, but the answers to it wait: send again after {resume:%Y-%m-%d %H:%M} UTC, "
        "or follow your boards on the web meanwhile.\n",
        answers=sender.lower(),
    )
