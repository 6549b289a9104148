"""The mail door on real sockets for the mail tests: the SMTP listener on a
real port, its server, and a relay standing for the outside world."""

from __future__ import annotations

import smtplib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select

from pbem.mail.delivery import SmtpTransport, deliver_due
from pbem.mail.listener import start_listener
from pbem.server import Server
from pbem.settings import Settings
from pbem.store import OutboxMessage, make_engine, session_factory
from tests.databases import upgraded_sqlite
from tests.mail.smtp_world import World, free_port, start_world
from tests.server.test_commands import Clock

ADDRESS = "pbem@games.test"


@dataclass
class Door:
    """The listener on a real port, its server, and the relay behind it."""

    server: Server
    settings: Settings
    world: World
    relay: Controller
    clock: Clock

    def send(self, sender: str, subject: str | None, body: str = "", **headers: str) -> None:
        message = EmailMessage()
        message["From"] = sender
        message["To"] = ADDRESS
        if subject is not None:
            message["Subject"] = subject
        headers.setdefault("Message_ID", make_msgid(domain="example.org"))
        for name, value in headers.items():
            message[name.replace("_", "-")] = value
        message.set_content(body)
        self.send_bytes(sender, message.as_bytes(policy=SMTP))

    def send_bytes(self, sender: str, raw: bytes, to: str = ADDRESS) -> None:
        with smtplib.SMTP(self.settings.smtp_host, self.settings.smtp_port, timeout=30) as smtp:
            smtp.sendmail(sender, [to], raw)

    def deliver(self) -> int:
        transport = SmtpTransport(self.settings.smtp_url)
        return deliver_due(self.server.sessions, self.settings, transport, self.clock())

    def outbox(self) -> list[OutboxMessage]:
        with self.server.sessions() as session:
            return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


@pytest.fixture
def door(tmp_path: Path) -> Iterator[Door]:
    with door_on(upgraded_sqlite(tmp_path / "pbem.sqlite3"), tmp_path) as opened:
        yield opened


@contextmanager
def door_on(url: str, tmp_path: Path) -> Iterator[Door]:
    """The door on the database at `url` (a test on both engines makes its
    own fixture of it: tests/mail/test_clocks_by_mail.py)."""
    engine = make_engine(url)
    clock = Clock()
    server = Server(session_factory(engine), clock)
    world, relay = start_world()
    settings = Settings(
        address=ADDRESS,
        smtp_port=free_port(),
        smtp_url=f"smtp://127.0.0.1:{relay.port}",
        maildir=str(tmp_path / "mail"),
        max_message_bytes=2_000_000,
    )
    listener = start_listener(server, settings)
    try:
        yield Door(server, settings, world, relay, clock)
    finally:
        listener.stop()
        if relay._thread is not None:  # some tests stop it themselves
            relay.stop()
        engine.dispose()
