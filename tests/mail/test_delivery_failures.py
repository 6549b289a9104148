"""Permanent failures end (issue 50, finding 11): a real SMTP relay on
127.0.0.1 answers 550 for one recipient and 451 for another. The 550 mail is
failed after its first try, logged, and never tried again; the 451 one is
retried with backoff until it is older than `delivery_give_up_days`, then
failed the same way. `pbem outbox failed` lists both. Once, the 550 was
retried with backoff forever and the outbox kept the row."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from sqlalchemy import Engine, select

from pbem.mail.delivery import SmtpTransport, deliver_due, failed_mails
from pbem.server import Server
from pbem.settings import Settings
from pbem.store import OutboxMessage, session_factory
from tests.mail.smtp_world import World, free_port
from tests.server.test_commands import Clock

GONE = "gone@example.org"  # the relay: 550, no such user
BUSY = "busy@example.org"  # the relay: 451, try again later
FINE = "fine@example.org"


class PickyRelay(World):
    """A relay that refuses two recipients, each in its own way, and counts
    every recipient it was offered."""

    def __init__(self) -> None:
        super().__init__()
        self.offered: list[str] = []

    async def handle_RCPT(  # noqa: N802 (aiosmtpd's name)
        self, smtp: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        self.offered.append(address)
        if address == GONE:
            return "550 5.1.1 No such user here"
        if address == BUSY:
            return "451 4.3.0 Mailbox busy, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"


@pytest.fixture
def relay() -> Iterator[tuple[PickyRelay, str]]:
    world = PickyRelay()
    port = free_port()
    controller = Controller(world, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield world, f"smtp://127.0.0.1:{port}"
    finally:
        controller.stop()


def near(when: object, then: object) -> bool:
    """The same time but for the pass's own seconds (delivery adds the time
    it took to the `now` it was given)."""
    assert isinstance(when, datetime) and isinstance(then, datetime), (when, then)
    return timedelta(0) <= when - then < timedelta(seconds=5)


def rows(server: Server) -> dict[str, OutboxMessage]:
    with server.sessions() as session:
        return {row.recipients[0]: row for row in session.scalars(select(OutboxMessage))}


def test_a_550_ends_at_once_and_a_451_when_too_old(
    engine: Engine, relay: tuple[PickyRelay, str], caplog: pytest.LogCaptureFixture
) -> None:
    world, url = relay
    clock = Clock()
    server = Server(session_factory(engine), clock=clock)
    for address in (GONE, BUSY, FINE):
        server.handle(address, "help")
    settings = Settings(address="pbem@games.test", smtp_url=url, delivery_give_up_days=5)

    def deliver() -> int:
        return deliver_due(server.sessions, settings, SmtpTransport(url), clock())

    with caplog.at_level(logging.WARNING, logger="pbem.mail.delivery"):
        assert deliver() == 1
    world.wait_for(1)
    first = rows(server)
    assert near(first[FINE].sent_at, clock.now)
    gone = first[GONE]
    assert near(gone.failed_at, clock.now)
    assert (gone.attempts, gone.next_attempt_at) == (1, None)
    assert "550" in (gone.last_error or "") and "No such user" in (gone.last_error or "")
    busy = first[BUSY]
    assert busy.failed_at is None and busy.sent_at is None
    assert near(busy.next_attempt_at, clock.now + timedelta(seconds=30))
    assert "451" in (busy.last_error or "")
    [given_up] = [r for r in caplog.records if "failed for good" in r.getMessage()]
    assert given_up.levelno == logging.ERROR
    assert GONE in given_up.getMessage() and "refused by the relay" in given_up.getMessage()

    # Retried with backoff, each try when due, until five days old; the 550
    # is never offered again.
    queued = first[BUSY].created_at
    while busy.failed_at is None:
        assert busy.next_attempt_at is not None
        assert clock.now - queued < timedelta(days=5)
        clock.now = busy.next_attempt_at
        assert deliver() == 0
        busy = rows(server)[BUSY]
    assert clock.now - queued >= timedelta(days=5)
    tries = busy.attempts
    assert tries > 100  # (30 s, doubling, at most an hour apart)
    assert near(busy.failed_at, clock.now)
    assert busy.next_attempt_at is None and "451" in (busy.last_error or "")
    assert world.offered.count(GONE) == 1
    assert world.offered.count(BUSY) == tries
    assert any(
        "queued too long" in r.getMessage() and BUSY in r.getMessage() for r in caplog.records
    )

    clock.advance(days=30)
    assert deliver() == 0
    assert world.offered.count(BUSY) == tries  # a failed mail is never claimed again
    listed = failed_mails(server.sessions)
    assert [row.recipients for row in listed] == [[BUSY], [GONE]]


def test_a_4xx_for_a_young_mail_waits_longer_each_try(
    engine: Engine, relay: tuple[PickyRelay, str]
) -> None:
    _, url = relay
    clock = Clock()
    server = Server(session_factory(engine), clock=clock)
    server.handle(BUSY, "help")
    settings = Settings(address="pbem@games.test", smtp_url=url)
    waits = []
    for _ in range(4):
        deliver_due(server.sessions, settings, SmtpTransport(url), clock())
        busy = rows(server)[BUSY]
        assert busy.next_attempt_at is not None and busy.failed_at is None
        waits.append(busy.next_attempt_at - clock.now)
        clock.now = busy.next_attempt_at
    wanted = [timedelta(seconds=s) for s in (30, 60, 120, 240)]
    assert all(
        timedelta(0) <= w - x < timedelta(seconds=5) for w, x in zip(waits, wanted, strict=True)
    )


def test_a_relay_refusing_the_login_is_retried_not_failed() -> None:
    """A 5xx that is the host's to fix (the login, the sender), not the
    mail's, is retried like a 4xx: failing every mail for it would lose them."""
    import smtplib

    from pbem.mail.delivery import refused_for_good

    assert not refused_for_good(smtplib.SMTPAuthenticationError(535, b"bad login"))
    assert not refused_for_good(smtplib.SMTPSenderRefused(553, b"no", "pbem@games.test"))
    assert not refused_for_good(ConnectionRefusedError())
    assert refused_for_good(smtplib.SMTPDataError(554, b"spam"))
    assert not refused_for_good(smtplib.SMTPDataError(452, b"full"))
    mixed = {"a@x.org": (550, b"no"), "b@x.org": (451, b"later")}
    assert not refused_for_good(smtplib.SMTPRecipientsRefused(mixed))
    assert refused_for_good(smtplib.SMTPRecipientsRefused({"a@x.org": (550, b"no")}))


def test_pbem_outbox_failed_lists_the_mails_given_up(
    engine: Engine, relay: tuple[PickyRelay, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, url = relay
    server = Server(session_factory(engine))
    server.handle(GONE, "help")
    settings = Settings(address="pbem@games.test", smtp_url=url)
    deliver_due(server.sessions, settings, SmtpTransport(url), server.clock())

    from pbem import cli

    monkeypatch.setenv("PBEM_DATABASE_URL", engine.url.render_as_string(hide_password=False))
    out = io.StringIO()
    assert cli.run(["outbox", "failed"], out) == 0
    text = out.getvalue()
    assert GONE in text and "550" in text and "No such user" in text
    assert "1 mail given up" in text


def test_a_failed_mail_is_dropped_30_days_after_it_was_given_up(
    engine: Engine, relay: tuple[PickyRelay, str]
) -> None:
    _, url = relay
    clock = Clock()
    server = Server(session_factory(engine), clock=clock)
    server.handle(GONE, "help")
    server.handle(BUSY, "help")
    settings = Settings(address="pbem@games.test", smtp_url=url)
    deliver_due(server.sessions, settings, SmtpTransport(url), clock())
    clock.advance(days=29)
    server.tick()
    assert set(rows(server)) == {GONE, BUSY}
    clock.advance(days=2)
    server.tick()
    assert set(rows(server)) == {BUSY}  # a mail still being tried is never dropped
