"""Real SMTP peers for the mail tests: a free port, and a relay standing
for the outside world that keeps every mail it is given."""

from __future__ import annotations

import email
import email.policy
import socket
import threading
import time
from collections.abc import Callable
from email.message import EmailMessage

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class World:
    """The relay's handler: every accepted mail, parsed, in order."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.lock = threading.Lock()
        self.before_data: Callable[[], None] | None = None

    async def handle_DATA(  # noqa: N802 (aiosmtpd's name)
        self, smtp: SMTP, session: Session, envelope: Envelope
    ) -> str:
        if self.before_data is not None:
            self.before_data()
        raw = envelope.original_content or envelope.content
        assert isinstance(raw, bytes)
        message = email.message_from_bytes(raw, policy=email.policy.default)
        with self.lock:
            self.mails.append(message)  # type: ignore[arg-type]
            self.envelopes.append((str(envelope.mail_from), list(envelope.rcpt_tos)))
        return "250 OK"

    def wait_for(self, count: int, timeout: float = 20.0) -> list[EmailMessage]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.mails) >= count:
                    return list(self.mails)
            time.sleep(0.05)
        raise AssertionError(f"the relay got {len(self.mails)} mails, not {count}")


def start_world(port: int | None = None) -> tuple[World, Controller]:
    world = World()
    controller = Controller(world, hostname="127.0.0.1", port=port or free_port())
    controller.start()
    return world, controller
