"""Draining the outbox: each queued mail is composed and handed to a
transport (a Maildir under var/mail, or an SMTP relay), and marked sent only
once the transport took it. Failures are retried with backoff, forever:
nothing is lost, and `last_error` tells the host what went wrong.

A row is claimed (leased) before it is sent, so several delivery loops, in
one process or many, never send the same mail at once; a loop that dies
mid-send leaves the lease to expire and the mail is sent again then (at
most one duplicate, which SMTP itself allows).
"""

from __future__ import annotations

import contextlib
import logging
import mailbox
import smtplib
import ssl
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, unquote, urlsplit

from sqlalchemy import bindparam, func, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from ..settings import Settings
from ..store import OutboxMessage, reading
from ..store.database import rows_changed

log = logging.getLogger("pbem.mail.delivery")

LEASE = timedelta(minutes=5)  # how long a claimed mail is left to its loop
BATCH = 100  # mails looked at per pass


class Stop(Protocol):
    """Whether the delivery loop should end (a threading.Event, say)."""

    def is_set(self) -> bool: ...


class Wake(Protocol):
    """What the delivery loop sleeps on between passes (a threading.Event,
    or a delivery process's pipe, delivery_workers.py)."""

    def wait(self, timeout: float | None = None) -> bool: ...

    def clear(self) -> None: ...


class Nudge(Protocol):
    """What a door sets when it queued mail, to wake the delivery."""

    def set(self) -> None: ...


class Transport(Protocol):
    """Where composed mail goes; `send` raises when it was not taken."""

    description: str

    def send(self, message: EmailMessage, sender: str, recipients: list[str]) -> None: ...

    def close(self) -> None: ...


class MaildirTransport:
    """Every mail into one Maildir, so a newcomer can read what was sent."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.description = f"the Maildir {self.path.resolve()}"
        for folder in ("tmp", "new", "cur"):  # (processes starting at once may race to make them)
            (self.path / folder).mkdir(parents=True, exist_ok=True)
        self.box = mailbox.Maildir(self.path, create=False)

    def send(self, message: EmailMessage, sender: str, recipients: list[str]) -> None:
        self.box.add(message.as_bytes())

    def close(self) -> None:
        pass


class SmtpTransport:
    """A relay: `smtp://[user:password@]host[:port]` (STARTTLS when the
    server offers it, required with `?starttls=required`) or
    `smtps://...` (TLS from the start); `?cafile=PATH` trusts a private
    certificate authority. One connection is kept per pass."""

    def __init__(self, url: str, timeout: float = 30.0) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(
                "PBEM_SMTP_URL must look like smtp://user:password@host:587 or "
                f"smtps://user:password@host:465, not {parts.scheme or 'no scheme'}://..."
            )
        self.tls = parts.scheme == "smtps"
        self.host = parts.hostname
        self.port = parts.port or (465 if self.tls else 25)
        self.user = unquote(parts.username or "")
        self.password = unquote(parts.password or "")
        query = parse_qs(parts.query)
        self.starttls = query.get("starttls", ["auto"])[0]
        self.cafile = query.get("cafile", [None])[0]
        self.timeout = timeout
        self.description = f"the relay {parts.scheme}://{self.host}:{self.port}"
        self.connection: smtplib.SMTP | None = None

    def connect(self) -> smtplib.SMTP:
        context = ssl.create_default_context(cafile=self.cafile)
        if self.tls:
            connection: smtplib.SMTP = smtplib.SMTP_SSL(
                self.host, self.port, timeout=self.timeout, context=context
            )
        else:
            connection = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            connection.ehlo()
            if connection.has_extn("starttls") and self.starttls != "no":
                connection.starttls(context=context)
                connection.ehlo()
            elif self.starttls == "required":
                connection.quit()
                raise smtplib.SMTPException(f"{self.host} does not offer STARTTLS")
        if self.user:
            connection.login(self.user, self.password)
        return connection

    def send(self, message: EmailMessage, sender: str, recipients: list[str]) -> None:
        if self.connection is None:
            self.connection = self.connect()
        try:
            refused = self.connection.send_message(message, sender, recipients)
        except (smtplib.SMTPServerDisconnected, OSError):
            self.close()
            raise
        if refused:  # some recipients taken, some refused for good: the rest is sent
            log.warning("the relay refused %s for %s", refused, message["Message-ID"])

    def close(self) -> None:
        if self.connection is not None:
            with contextlib.suppress(smtplib.SMTPException, OSError):
                self.connection.quit()
            self.connection = None


def transport_for(settings: Settings) -> Transport:
    return (
        SmtpTransport(settings.smtp_url)
        if settings.smtp_url
        else MaildirTransport(settings.maildir)
    )


def backoff(attempts: int) -> timedelta:
    """The wait before the next try: 30 s, doubling, at most an hour."""
    return timedelta(seconds=min(30 * 2 ** max(0, attempts - 1), 3600))


_DUE = or_(
    OutboxMessage.next_attempt_at.is_(None), OutboxMessage.next_attempt_at <= bindparam("now")
)
# A mail is claimed by moving its next try past the lease; its Message-ID is
# fixed at its first claim, so every retry carries the same one.
_CLAIM = (
    update(OutboxMessage)
    .where(OutboxMessage.id == bindparam("row"), OutboxMessage.sent_at.is_(None), _DUE)
    .values(
        next_attempt_at=bindparam("lease"),
        message_id=func.coalesce(OutboxMessage.message_id, bindparam("new_id")),
    )
)
_SENT = (
    update(OutboxMessage)
    .where(OutboxMessage.id == bindparam("row"))
    .values(attempts=OutboxMessage.attempts + 1, sent_at=bindparam("now"), last_error=None)
)


def deliver_due(
    sessions: sessionmaker[Session],
    settings: Settings,
    transport: Transport,
    now: datetime,
) -> int:
    """Send every mail that is due; returns how many were sent.

    One write transaction per mail: it claims the mail, and records that
    the one before it went out. A loop that dies between sending a mail and
    that record leaves the mail claimed: it is sent again when the lease
    ends, the one duplicate SMTP itself allows (a 250 that never came back)."""
    with reading(sessions)() as session:
        due = session.scalars(
            select(OutboxMessage.id)
            .where(OutboxMessage.sent_at.is_(None), _DUE)
            .order_by(OutboxMessage.id)
            .limit(BATCH),
            {"now": now},
        ).all()
    engine = sessions.kw["bind"]
    unrecorded: list[dict[str, object]] = []  # sent, not yet recorded as sent
    count = 0
    started = time.monotonic()
    try:
        for row_id in due:
            # Each mail is claimed at the time it is taken, not when the pass
            # began: a slow relay must not hand out leases already expired.
            taken = now + timedelta(seconds=time.monotonic() - started)
            with engine.begin() as connection:
                if unrecorded:
                    connection.execute(_SENT, unrecorded)
                claimed = connection.execute(
                    _CLAIM,
                    {
                        "row": row_id,
                        "now": taken,
                        "lease": taken + LEASE,
                        "new_id": make_msgid("pbem", domain=settings.domain),
                    },
                )
            unrecorded = []
            if rows_changed(claimed) == 1 and deliver_one(
                sessions, settings, transport, row_id, taken
            ):
                unrecorded.append({"row": row_id, "now": taken})
                count += 1
    finally:
        transport.close()
        if unrecorded:
            with engine.begin() as connection:
                connection.execute(_SENT, unrecorded)
    return count


def deliver_one(
    sessions: sessionmaker[Session],
    settings: Settings,
    transport: Transport,
    row_id: int,
    now: datetime,
) -> bool:
    """Send one mail this loop has claimed; a failure is recorded, with the
    time of the next try. Whether it was sent (the caller records that)."""
    from .compose import compose  # (imported when sending: the doors never need it)

    try:
        with reading(sessions)() as session:  # (drawing the board takes no write lock)
            row = session.get_one(OutboxMessage, row_id)
            message = compose(session, row, settings)
            recipients = list(row.recipients)
        transport.send(message, settings.address, recipients)
    except Exception as error:  # every failure is retried: nothing is lost
        with sessions.begin() as session:
            row = session.get_one(OutboxMessage, row_id)
            row.attempts += 1
            row.next_attempt_at = now + backoff(row.attempts)
            row.last_error = f"{type(error).__name__}: {error}"[:2000]
        log.warning("mail %s not delivered (try %s): %s", row_id, row.attempts, error)
        transport.close()
        return False
    return True


def delivery_loop(
    sessions: sessionmaker[Session],
    settings: Settings,
    stop: Stop,
    wake: Wake,
    clock: Callable[[], datetime],
) -> None:
    """Drain the outbox every `delivery_seconds`, or sooner when woken."""
    transport = transport_for(settings)
    log.info("outgoing mail goes to %s", transport.description)
    while not stop.is_set():
        try:
            sent = deliver_due(sessions, settings, transport, clock())
            if sent:
                log.info("delivered %d mails to %s", sent, transport.description)
        except Exception:  # the database away, say: try again next round
            log.exception("the delivery pass failed; trying again")
        wake.wait(settings.delivery_seconds)
        wake.clear()
