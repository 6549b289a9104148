"""Draining the outbox: each queued mail is composed and handed to a
transport (a Maildir under var/mail, or an SMTP relay), and marked sent only
once the transport took it. A temporary failure (the relay down, a 4xx) is
retried with backoff, up to `delivery_give_up_days` after the mail was
queued; a refusal for good (a 5xx for the recipients, or for the mail's
content) ends at the first try. A mail given up is marked `failed_at`,
logged, listed by `pbem outbox failed`, and never tried again;
`last_error` tells the host what went wrong.

A row is claimed (leased) before it is sent, so several delivery loops, in
one process or many, never send the same mail at once; a loop that dies
mid-send leaves the lease to expire and the mail is sent again then (at
most one duplicate, which SMTP itself allows). A loop whose database goes
away mid-pass (PostgreSQL restarting) keeps what it could not record
(`Unfinished`): the mark of a mail it sent is retried, with backoff, and
then again first thing in the next pass, so the mail is not sent twice;
its claims not sent yet are given back at once then, not left to their lease.
"""

from __future__ import annotations

import contextlib
import logging
import mailbox
import smtplib
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from functools import lru_cache
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, unquote, urlsplit

from sqlalchemy import Engine, String, bindparam, cast, func, literal, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from ..settings import Settings
from ..store import OutboxMessage
from ..store.database import single_writes, statements

log = logging.getLogger("pbem.mail.delivery")

LEASE = timedelta(minutes=5)  # how long a claimed mail is left to its loop
BATCH = 100  # mails looked at per pass
CLAIM = 20  # mails claimed at once


class StopSignal(Protocol):
    """Whether the delivery loop should end (a threading.Event, say)."""

    def is_set(self) -> bool: ...


class Wake(Protocol):
    """What the delivery loop sleeps on between passes (a threading.Event,
    or a delivery process's pipe, delivery_workers.py). A wait returns
    early only when woken: a wake-up that can no longer come (the pipe's
    writer, the parent process, gone) ends the loop by raising SystemExit,
    never returns at once again and again (the loop would spin)."""

    def wait(self, timeout: float | None = None) -> bool: ...

    def clear(self) -> None: ...


class Nudge(Protocol):
    """What a door sets when it queued mail, to wake the delivery (for the
    delivery processes, a byte down each one's pipe, whose writing end only
    the parent holds: its end of file means the parent is gone)."""

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
        from .compose import render

        self.box.add(render(message))

    def close(self) -> None:
        pass


@lru_cache(maxsize=8)
def tls_context(cafile: str | None) -> ssl.SSLContext:
    """The TLS settings for the relay, made once per process: loading the
    system's certificate authorities took 50 ms of CPU, at every pass's
    connection (a certificate file changed on disk is read at a restart)."""
    return ssl.create_default_context(cafile=cafile)


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
        if self.tls:
            connection: smtplib.SMTP = smtplib.SMTP_SSL(
                self.host, self.port, timeout=self.timeout, context=tls_context(self.cafile)
            )
        else:
            connection = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            connection.ehlo()
            if connection.has_extn("starttls") and self.starttls != "no":
                connection.starttls(context=tls_context(self.cafile))
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
            if _ascii(sender, *recipients):
                from .compose import render

                refused = self.connection.sendmail(sender, recipients, render(message, "\r\n"))
            else:  # an address in UTF-8: send_message asks the relay for SMTPUTF8
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


def _ascii(*addresses: str) -> bool:
    return all(address.isascii() for address in addresses)


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
_COLUMNS = tuple(OutboxMessage.__table__.c)
_SENT = (
    update(OutboxMessage)
    .where(OutboxMessage.id == bindparam("row"))
    .values(attempts=OutboxMessage.attempts + 1, sent_at=bindparam("now"), last_error=None)
)
# Claimed mails a pass gives back, when half their lease went by before
# it came to them: due again at once, for any loop (but only while still
# this pass's: unsent, and leased until the lease it gave them).
_GIVE_BACK = (
    update(OutboxMessage)
    .where(
        OutboxMessage.id.in_(bindparam("rows", expanding=True)),
        OutboxMessage.sent_at.is_(None),
        OutboxMessage.next_attempt_at == bindparam("lease"),
    )
    .values(next_attempt_at=bindparam("now"))
)


def claim(engine: Engine, settings: Settings, now: datetime, count: int) -> list[OutboxMessage]:
    """Up to `count` due mails, oldest first, leased to this loop until
    `now + LEASE`, in one statement: another loop's claim skips the rows
    this one locks (FOR UPDATE SKIP LOCKED; SQLite writes one at a time).
    A mail's Message-ID is fixed at its first claim (made of one fresh id
    and the row's own number), so every retry carries the same one."""
    due = (
        select(OutboxMessage.id)
        .where(OutboxMessage.sent_at.is_(None), OutboxMessage.failed_at.is_(None), _DUE)
        .order_by(OutboxMessage.id)
        .limit(count)
        .with_for_update(skip_locked=True)
        # Read once: as a subquery, PostgreSQL may run it again for each row
        # it updates, each run skipping the rows the last one locked.
        .cte("due")
        .prefix_with("MATERIALIZED", dialect="postgresql")
    )
    local, _, domain = make_msgid("pbem", domain=settings.domain).strip("<>").rpartition("@")
    fresh = literal(f"<{local}.") + cast(OutboxMessage.id, String) + literal(f"@{domain}>")
    statement = (
        update(OutboxMessage)
        .where(
            OutboxMessage.id.in_(select(due.c.id)),
            OutboxMessage.sent_at.is_(None),
            OutboxMessage.failed_at.is_(None),
            _DUE,
        )
        .values(
            next_attempt_at=now + LEASE,
            message_id=func.coalesce(OutboxMessage.message_id, fresh),
        )
        .returning(*_COLUMNS)
    )
    with single_writes(engine).begin() as connection:
        rows = connection.execute(statement, {"now": now}).all()
    return sorted((OutboxMessage(**row._mapping) for row in rows), key=lambda row: row.id)


# The mark of a mail sent: once (a mark retried after a lost connection
# may find it made already).
_SENT_ONCE = _SENT.where(OutboxMessage.sent_at.is_(None))
# How long a pass keeps trying to record a mail it sent before it leaves the
# mark to its next pass: tries after 0.5, 1, 2 and 4 s.
MARK_RETRIES = (0.5, 1.0, 2.0, 4.0)


@dataclass
class Unfinished:
    """What a delivery loop could not record when its database went away:
    mails it sent but could not mark sent (id: when sent), and mails it
    claimed and did not send (id: the lease it gave them). Kept from pass
    to pass in the loop's memory; the next pass settles them first."""

    sent: dict[int, datetime] = field(default_factory=dict)
    claimed: dict[int, datetime] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.sent or self.claimed)

    def settle(self, engine: Engine, now: datetime) -> None:
        """Mark the sent ones sent and give the claimed ones back (due at
        once, for any loop, while still leased by this one); raises while
        the database is still away, keeping what is left."""
        writes = single_writes(engine)
        if self.sent:
            with writes.begin() as connection:
                connection.execute(
                    _SENT_ONCE, [{"row": row, "now": when} for row, when in self.sent.items()]
                )
            log.info("recorded %d mails sent before the database went away", len(self.sent))
            self.sent.clear()
        for lease in sorted(set(self.claimed.values())):
            rows = [row for row, leased in self.claimed.items() if leased == lease]
            with writes.begin() as connection:
                connection.execute(_GIVE_BACK, {"rows": rows, "lease": lease, "now": now})
            for row in rows:
                del self.claimed[row]


def mark_sent(engine: Engine, row: int, when: datetime, unfinished: Unfinished) -> None:
    """Record mail `row` sent, retrying while the database is away
    (MARK_RETRIES); still failing, it is left in `unfinished` for the next
    pass, and the error raised."""
    writes = single_writes(engine)
    unfinished.sent[row] = when
    unfinished.claimed.pop(row, None)
    for pause in (*MARK_RETRIES, None):
        try:
            with writes.begin() as connection:
                connection.execute(_SENT_ONCE, [{"row": row, "now": when}])
        except Exception:
            if pause is None:
                raise
            log.warning("mail %s was sent but not yet recorded; trying again", row)
            time.sleep(pause)
        else:
            del unfinished.sent[row]
            return


def deliver_due(
    sessions: sessionmaker[Session],
    settings: Settings,
    transport: Transport,
    now: datetime,
) -> int:
    """Send the mails that are due, up to BATCH (one pass); returns how many were sent."""
    return deliver_pass(sessions, settings, transport, now).sent


def deliver_backlog(
    sessions: sessionmaker[Session],
    settings: Settings,
    transport: Transport,
    clock: Callable[[], datetime],
    stop: StopSignal | None = None,
    unfinished: Unfinished | None = None,
) -> int:
    """Pass after pass while a pass found a full BATCH due and sent some of
    it, so a backlog drains at the speed of sending, not one BATCH per
    `delivery_seconds` (with a relay down, one pass, and then the wait).
    Returns how many were sent; `stop` is looked at between passes."""
    sent = 0
    while stop is None or not stop.is_set():
        done = deliver_pass(sessions, settings, transport, clock(), unfinished)
        sent += done.sent
        if done.tried < BATCH or not done.sent:
            break
    return sent


@dataclass(frozen=True)
class DeliveryPass:
    """What one pass of the delivery did: mails claimed, and sent."""

    tried: int
    sent: int


def deliver_pass(
    sessions: sessionmaker[Session],
    settings: Settings,
    transport: Transport,
    now: datetime,
    unfinished: Unfinished | None = None,
) -> DeliveryPass:
    """Send every mail that is due (up to BATCH).

    Mails are claimed CLAIM at a time, each recorded as sent as soon as the
    transport took it. A loop that dies between sending a mail and that
    record leaves the mail claimed: it is sent again when the lease ends,
    the one duplicate SMTP itself allows (a 250 that never came back). A
    claim whose lease is half gone before its turn comes (a slow relay) is
    given back, never sent late, so no other loop can have taken it.

    `unfinished` (the loop's own, kept between passes) is settled first and
    filled when the database goes away mid-pass (see Unfinished)."""
    engine = sessions.kw["bind"]
    writes = single_writes(engine)
    unfinished = Unfinished() if unfinished is None else unfinished
    count = tried = 0
    started = time.monotonic()
    try:
        if unfinished:
            unfinished.settle(engine, now)
        while tried < BATCH:
            # Mails are leased when claimed, not when the pass began: a slow
            # relay must not hand out leases already expired.
            taken = now + timedelta(seconds=time.monotonic() - started)
            claimed = claim(engine, settings, taken, min(CLAIM, BATCH - tried))
            if not claimed:
                break
            tried += len(claimed)
            unfinished.claimed.update((row.id, taken + LEASE) for row in claimed)
            for number, row in enumerate(claimed):
                sending = now + timedelta(seconds=time.monotonic() - started)
                if sending - taken > LEASE / 2:
                    rest = [later.id for later in claimed[number:]]
                    with writes.begin() as connection:
                        lease = taken + LEASE
                        connection.execute(
                            _GIVE_BACK, {"rows": rest, "lease": lease, "now": sending}
                        )
                    for later in rest:
                        unfinished.claimed.pop(later, None)
                    break
                if deliver_one(sessions, settings, transport, row, sending):
                    mark_sent(engine, row.id, sending, unfinished)
                    count += 1
                else:
                    unfinished.claimed.pop(row.id, None)
    finally:
        transport.close()
    return DeliveryPass(tried, count)


def deliver_one(
    sessions: sessionmaker[Session],
    settings: Settings,
    transport: Transport,
    row: OutboxMessage,
    now: datetime,
) -> bool:
    """Send one mail this loop has claimed; a failure is recorded, with the
    time of the next try, or as the end of the mail: a refusal for good
    (`refused_for_good`), or any failure of a mail queued longer than
    `delivery_give_up_days` ago. Whether it was sent (the caller records
    that)."""
    from .compose import compose  # (imported when sending: the doors never need it)

    try:
        with _reads(sessions.kw["bind"])() as session:  # (drawing takes no write lock)
            message = compose(session, row, settings)
        transport.send(message, settings.address, list(row.recipients))
    except Exception as error:
        reason = f"{type(error).__name__}: {error}"[:2000]
        permanent = refused_for_good(error)
        with sessions.begin() as session:
            stored = session.get_one(OutboxMessage, row.id)
            stored.attempts += 1
            stored.last_error = reason
            too_old = now - stored.created_at >= timedelta(days=settings.delivery_give_up_days)
            if permanent or too_old:
                stored.failed_at, stored.next_attempt_at = now, None
            else:
                stored.next_attempt_at = now + backoff(stored.attempts)
            attempts = stored.attempts
        if permanent or too_old:
            log.error(
                "mail %s to %s failed for good after %s %s (%s): %s; it is not tried again "
                "(pbem outbox failed lists such mails)",
                row.id,
                ", ".join(row.recipients),
                attempts,
                "try" if attempts == 1 else "tries",
                "refused by the relay" if permanent else "queued too long",
                reason,
            )
        else:
            log.warning("mail %s not delivered (try %s): %s", row.id, attempts, error)
        transport.close()
        return False
    return True


def refused_for_good(error: BaseException) -> bool:
    """Whether the relay refused the mail itself, for good: a 5xx for every
    recipient, or for its content after DATA. (A 5xx to the login or to the
    sender is the host's setting to fix, not the mail's: it is retried, as
    is every 4xx.)"""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        codes = [answer[0] for answer in error.recipients.values()]
        return bool(codes) and all(500 <= code < 600 for code in codes)
    return isinstance(error, smtplib.SMTPDataError) and 500 <= error.smtp_code < 600


def failed_mails(sessions: sessionmaker[Session], most: int = 100) -> list[OutboxMessage]:
    """The mails given up, latest first (`pbem outbox failed`)."""
    with sessions() as session:
        rows = session.scalars(
            select(OutboxMessage)
            .where(OutboxMessage.failed_at.is_not(None))
            .order_by(OutboxMessage.failed_at.desc(), OutboxMessage.id.desc())
            .limit(most)
        )
        return list(rows)


@lru_cache(maxsize=4)
def _reads(engine: Engine) -> sessionmaker[Session]:
    """Sessions for composing: reads that need not agree, each one round
    trip (a board is read whole by its views, in a transaction of their
    own). One per engine, so the board views composing keeps last."""
    return sessionmaker(statements(engine), expire_on_commit=False)


def delivery_loop(
    sessions: sessionmaker[Session],
    settings: Settings,
    stop: StopSignal,
    wake: Wake,
    clock: Callable[[], datetime],
) -> None:
    """Drain the outbox every `delivery_seconds`, or sooner when woken."""
    transport = transport_for(settings)
    log.info("outgoing mail goes to %s", transport.description)
    unfinished = Unfinished()  # what a pass could not record, settled by the next
    while not stop.is_set():
        try:
            sent = deliver_backlog(sessions, settings, transport, clock, stop, unfinished)
            if sent:
                log.info("delivered %d mails to %s", sent, transport.description)
        except Exception:  # the database away, say: try again next round
            log.exception("the delivery pass failed; trying again")
        # With claims or marks left over, the next round comes soon, so
        # delivery resumes within seconds of the database's return.
        wake.wait(min(settings.delivery_seconds, 5.0) if unfinished else settings.delivery_seconds)
        wake.clear()
