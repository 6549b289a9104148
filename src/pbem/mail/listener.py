"""The SMTP listener (aiosmtpd): takes mail for the server's address only,
refuses mail over the size limit, and runs each message's command.

A mail is acknowledged (250) only once its command ran and its replies are
in the outbox; if the database failed, the sending server is told to try
again later (451), so nothing is lost.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from ..server import Server, database_unavailable
from ..settings import Settings
from .connections import CappedSmtp
from .delivery import Nudge
from .receive import receive

log = logging.getLogger("pbem.mail.listener")


class CommandHandler:
    """aiosmtpd's handler: RCPT checks the address, DATA runs the command."""

    def __init__(self, server: Server, settings: Settings, wake: Nudge | None = None) -> None:
        self.server = server
        self.settings = settings
        self.wake = wake

    async def handle_RCPT(  # noqa: N802 (aiosmtpd's name)
        self, smtp: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if address.lower() != self.settings.address.lower():
            return f"550 5.1.1 <{address}>: this server takes mail for {self.settings.address} only"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(  # noqa: N802 (aiosmtpd's name)
        self, smtp: SMTP, session: Session, envelope: Envelope
    ) -> str:
        if not envelope.mail_from or envelope.mail_from == "<>":
            log.info("ignored a bounce (empty envelope sender)")
            return "250 OK (bounces are not answered)"
        raw: Any = envelope.original_content or envelope.content
        data = raw if isinstance(raw, bytes) else str(raw).encode("utf-8", "surrogateescape")
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(
                None, receive, self.server, data, self.settings, str(envelope.mail_from)
            )
        except Exception as error:
            if database_unavailable(error):  # busy past the bounded wait, or away
                log.warning("the database is busy or away (%s); the sender will retry", error)
            else:
                log.exception("could not run a mail's command; the sender will retry")
            return "451 4.3.0 The server could not take your mail now; it will be retried"
        if self.wake is not None:
            self.wake.set()
        return "250 OK: the command ran; the reply is on its way"


class CappedController(Controller):
    """aiosmtpd's controller, serving with connections capped per address."""

    def factory(self) -> CappedSmtp:
        return CappedSmtp(self.handler, **self.SMTP_kwargs)


def start_listener(server: Server, settings: Settings, wake: Nudge | None = None) -> Controller:
    """Start listening (in a thread of its own); `.stop()` ends it.

    The name it greets with (220, EHLO) is this machine's, looked up once
    here: aiosmtpd otherwise asks for it on every connection, on the event
    loop, and a slow resolver would then hold up every mail."""
    controller = CappedController(
        CommandHandler(server, settings, wake),
        hostname=settings.smtp_host,
        port=settings.smtp_port,
        server_hostname=socket.getfqdn(),
        data_size_limit=settings.max_message_bytes,
        ident="pbem",
    )
    controller.start()
    log.info(
        "listening for mail to %s on %s:%s",
        settings.address,
        settings.smtp_host,
        settings.smtp_port,
    )
    return controller
