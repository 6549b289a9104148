"""One incoming mail through the command layer: `pbem receive`, the SMTP
listener and the IMAP poller all hand their mail to `receive`."""

from __future__ import annotations

import logging

from ..server import Outgoing, Server
from ..settings import Settings
from .inbound import Ignored, parse_message

log = logging.getLogger("pbem.mail")


def readable_size(count: int) -> str:
    return f"{count / 1e6:.1f} MB" if count >= 100_000 else f"{count / 1e3:.1f} kB"


def receive(
    server: Server, raw: bytes, settings: Settings, envelope_sender: str = ""
) -> list[Outgoing]:
    """Run the command the mail carries and return the mails it queued.

    Machine-written mail is left unanswered; a mail over the size limit gets
    an error reply; a mail that cannot be read at all is dropped with a log
    line (retrying it would fail the same way forever). A database failure
    propagates, so the caller can make the sending mail server try again
    later (nothing is lost)."""
    too_large = len(raw) > settings.max_message_bytes
    try:
        parsed = parse_message(raw, settings.address, envelope_sender, headers_only=too_large)
    except Exception as error:  # (RecursionError included) a mail no retry will make readable
        log.warning(
            "dropped an unreadable mail of %s (%s): no command could be read from it",
            readable_size(len(raw)),
            type(error).__name__,
        )
        return []
    if isinstance(parsed, Ignored):
        log.info("ignored a mail: %s", parsed.reason)
        return []
    if too_large:
        size, most = readable_size(len(raw)), readable_size(settings.max_message_bytes)
        log.info("refused a mail of %s from %s", size, parsed.sender)
        refused = server.refuse(
            parsed.sender,
            parsed.command,
            f"Your mail was {size}; the server reads mails up to {most}. "
            "Send the command again without attachments.",
            parsed.message_id,
            by_mail=True,
        )
        return list(refused.mails)
    messages = server.handle(
        parsed.sender, parsed.command, parsed.comment, parsed.message_id, by_mail=True
    ).mails
    verb = " ".join(parsed.command.split()[:2])[:40]  # never the password
    log.info("ran '%s ...' from %s: %d mails", verb, parsed.sender, len(messages))
    return list(messages)
