"""`pbem poll`: read commands from an IMAP mailbox, for a server that cannot
receive mail itself (a mailbox at a provider instead of an MX record).

Each mail goes through `receive`, like mail from the SMTP listener. A mail is
marked done on the IMAP server with the keyword `$PbemDone` (and \\Seen), not
by \\Seen alone: a mail a human read in another mail program is still run.
It is marked only after `receive` returned, so a crash in between runs it
again, and the database runs the same Message-ID once. Nothing is deleted.
"""

from __future__ import annotations

import contextlib
import imaplib
import logging
import ssl
import threading
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

import sqlalchemy.exc
from imap_tools import AND, BaseMailBox, MailBox, MailBoxStartTls, MailBoxUnencrypted
from imap_tools.errors import ImapToolsError, MailboxFetchError, MailboxFlagError
from imap_tools.utils import check_command_status

from ..server import Server
from ..settings import Settings
from .receive import receive

log = logging.getLogger("pbem.mail.imap")

DONE = "$PbemDone"  # the keyword of a mail the poller has handled
FAILED = "$PbemFailed"  # ... and of one that made `receive` fail (set with DONE)
TIMEOUT_SECONDS = 60.0  # a silent IMAP server fails a poll after this long
MAX_BACKOFF_SECONDS = 300.0
URL_FORM = "PBEM_IMAP_URL must look like imaps://user:password@host[:port]/FOLDER"
_PORTS = {"imap": 143, "imap+starttls": 143, "imaps": 993}

# Errors of the network, the IMAP server or the database: the poll is tried
# again later, and no mail is marked failed because of them.
TRANSIENT_ERRORS: tuple[type[Exception], ...] = (
    OSError,  # refused, reset, timed out, TLS
    imaplib.IMAP4.error,
    ImapToolsError,
    sqlalchemy.exc.OperationalError,  # database down or locked
    sqlalchemy.exc.InterfaceError,
    sqlalchemy.exc.TimeoutError,  # no free connection in the pool
)


@dataclass(frozen=True)
class ImapAccount:
    """Where the poller reads mail: PBEM_IMAP_URL taken apart."""

    scheme: str  # imap, imaps or imap+starttls
    host: str
    port: int
    user: str
    password: str = field(repr=False)  # never in a log line
    folder: str = "INBOX"


def parse_imap_url(url: str) -> ImapAccount:
    """The account in `imap[s]://user:password@host[:port]/FOLDER` (user and
    password percent-encoded); a ValueError says what is wrong."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in _PORTS:
        raise ValueError(
            f"{URL_FORM} (or imap:// without TLS, imap+starttls://), not {_redacted(url)!r}"
        )
    if not parts.hostname:
        raise ValueError(f"{URL_FORM}: the host is missing in {_redacted(url)!r}")
    if not parts.username or parts.password is None:
        raise ValueError(f"{URL_FORM}: the user or the password is missing in {_redacted(url)!r}")
    try:
        port = parts.port or _PORTS[scheme]
    except ValueError:
        raise ValueError(f"{URL_FORM}: the port is not a number in {_redacted(url)!r}") from None
    if parts.query or parts.fragment:
        raise ValueError(f"{URL_FORM}: a '?' or '#' has no meaning in {_redacted(url)!r}")
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    return ImapAccount(
        scheme, parts.hostname, port, unquote(parts.username), unquote(parts.password), folder
    )


def _redacted(url: str) -> str:
    """The URL with its password replaced, for error messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user, _, host = parts.netloc.rpartition("@")
    return parts._replace(netloc=f"{user.partition(':')[0]}:***@{host}").geturl()


def connect(account: ImapAccount) -> BaseMailBox:
    """A logged-in connection with the account's folder selected."""
    if account.scheme == "imaps":
        mailbox: BaseMailBox = MailBox(
            account.host, account.port, TIMEOUT_SECONDS, ssl_context=ssl.create_default_context()
        )
    elif account.scheme == "imap+starttls":
        mailbox = MailBoxStartTls(
            account.host, account.port, TIMEOUT_SECONDS, ssl_context=ssl.create_default_context()
        )
    else:
        mailbox = MailBoxUnencrypted(account.host, account.port, TIMEOUT_SECONDS)
    try:
        if (account.user + account.password).isascii():
            mailbox.login(account.user, account.password, initial_folder=account.folder)
        else:  # LOGIN takes ASCII only; AUTHENTICATE PLAIN takes UTF-8
            mailbox.login_utf8(account.user, account.password, initial_folder=account.folder)
        _check_keywords_allowed(mailbox, account)
    except BaseException:
        _close(mailbox)
        raise
    return mailbox


def _check_keywords_allowed(mailbox: BaseMailBox, account: ImapAccount) -> None:
    """Refuse a folder where our keyword cannot be stored: the poller would
    take every mail for new on every poll."""
    answers = mailbox.client.untagged_responses.get("PERMANENTFLAGS") or []
    permanent = b" ".join(answer for answer in answers if isinstance(answer, bytes))
    if permanent and b"\\*" not in permanent and DONE.encode().lower() not in permanent.lower():
        raise ImapToolsError(
            f"The IMAP server does not let pbem set the keyword {DONE} in {account.folder} "
            f"(PERMANENTFLAGS {permanent.decode(errors='replace')}); pbem poll needs it to "
            "tell handled mail from new mail."
        )


def _close(mailbox: BaseMailBox) -> None:
    """Log out, or at least drop the socket of a broken connection."""
    try:
        mailbox.logout()
    except (OSError, imaplib.IMAP4.error, ImapToolsError):
        with contextlib.suppress(OSError, imaplib.IMAP4.error):
            mailbox.client.shutdown()


def _mark(mailbox: BaseMailBox, uid: str, *keywords: str) -> None:
    """Set \\Seen and the keywords on one mail. (imap_tools' `flag` would
    also EXPUNGE, deleting mail a human merely marked \\Deleted.)"""
    flags = " ".join(("\\Seen", *keywords))
    result = mailbox.client.uid("STORE", uid, "+FLAGS", f"({flags})")
    if result[0] != "OK":
        raise MailboxFlagError(result, "OK")


def _fetch(mailbox: BaseMailBox, uid: str, most: int) -> bytes | None:
    """The mail's bytes as the server holds them, but no more than `most`
    (a larger mail is refused by its headers, as the listener refuses it);
    None when the mail is gone (expunged by another client meanwhile).

    Nothing here parses the mail: `receive` reads it, bounded (a parser
    given a thousand nested parts overflows the stack)."""
    result = mailbox.client.uid("FETCH", uid, f"(BODY.PEEK[]<0.{most}>)")
    check_command_status(result, MailboxFetchError)
    for item in result[1]:
        if isinstance(item, tuple) and len(item) > 1 and isinstance(item[1], bytes):
            return item[1]
    return None


def poll_once(server: Server, settings: Settings) -> int:
    """Run every mail in the folder that lacks the keyword $PbemDone (and is
    not marked \\Deleted), mark each, and return how many were handled.

    The poller asks for the new mails' UIDs, then fetches and runs one mail
    at a time, each read only up to the size limit and never parsed before
    `receive`, which bounds hostile mail as the SMTP listener does (a deeply
    nested mail is answered by its Subject; one too large is refused by
    its headers; one unreadable is dropped). A mail that makes `receive`
    fail anyway is logged with its UID and marked $PbemFailed as well, so
    one poison mail cannot block the mailbox. A network or database failure
    propagates and marks nothing: that mail is tried again on the next poll."""
    account = parse_imap_url(settings.imap_url)
    mailbox = connect(account)
    try:
        handled = 0
        for uid in mailbox.uids(AND(no_keyword=DONE, deleted=False)):
            try:
                raw = _fetch(mailbox, uid, settings.max_message_bytes + 1)
                if raw is None:
                    continue
                receive(server, raw, settings)
            except TRANSIENT_ERRORS:
                raise
            except Exception:
                log.exception(
                    "IMAP mail UID %s in %s made receive fail; marked %s and left in place",
                    uid,
                    account.folder,
                    FAILED,
                )
                _mark(mailbox, uid, DONE, FAILED)
            else:
                _mark(mailbox, uid, DONE)
            handled += 1
        if handled:
            log.info("handled %d mails from %s on %s", handled, account.folder, account.host)
        return handled
    finally:
        _close(mailbox)


def poll_forever(server: Server, settings: Settings, stop: threading.Event) -> None:
    """Poll every `settings.imap_seconds` until `stop` is set.

    Any failure (server down, network, login, database) is logged and the
    poll retried after 1 s, doubling up to imap_seconds (at most 300 s), so
    the loop outlives outages and never crashes. A malformed imap_url raises
    ValueError at once."""
    parse_imap_url(settings.imap_url)
    interval = max(settings.imap_seconds, 0.1)
    longest = min(max(interval, 1.0), MAX_BACKOFF_SECONDS)
    delay = 1.0
    failing = False
    while not stop.is_set():
        try:
            poll_once(server, settings)
        except TRANSIENT_ERRORS as error:
            log.warning(
                "IMAP poll failed (%s: %s); trying again in %.0f s",
                type(error).__name__,
                error,
                delay,
            )
        except Exception:
            log.exception("IMAP poll failed; trying again in %.0f s", delay)
        else:
            if failing:
                log.info("IMAP poll works again")
            failing, delay = False, 1.0
            stop.wait(interval)
            continue
        failing = True
        stop.wait(delay)
        delay = min(delay * 2, longest)
