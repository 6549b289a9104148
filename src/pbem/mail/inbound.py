"""Reading an incoming mail: who sent it, the command in its Subject, the
comment in its body; and whether it is mail to leave unanswered.

Any charset, multipart or HTML-only mail is read; nothing here raises on bad
input. Auto-replies, bounces, bulk mail and our own mail are recognised so
the server never answers them (no mail loops).
"""

from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from html.parser import HTMLParser

from ..server import own_subject
from .headers import READING

# Reply and forward prefixes in the mail programs players use.
_PREFIX = re.compile(r"^\s*((re|fwd?|aw|wg|sv|vs|antw|tr|r)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)
_BOUNCERS = ("mailer-daemon", "postmaster", "noreply", "no-reply", "do-not-reply", "donotreply")
_QUOTE_HEADER = re.compile(
    r"^(on .{0,200} wrote:|.{0,200} (schrieb|a écrit|escribió|scrisse|skrev)\s?.{0,80}:)\s*$",
    re.IGNORECASE,
)
_FORWARD_MARK = re.compile(r"^-{2,}\s*(original message|forwarded message)", re.IGNORECASE)


@dataclass(frozen=True)
class Incoming:
    """A mail to run: the sender's address, the command, the comment."""

    sender: str
    command: str
    comment: str
    message_id: str | None


@dataclass(frozen=True)
class Ignored:
    """A mail left unanswered, and why (for the log)."""

    reason: str


def readable(text: str) -> str:
    """Text safe to store: undecodable bytes (kept as surrogates by the
    email package) become U+FFFD."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def header(message: Message, name: str) -> str:
    """A header's decoded text, '' when missing or unreadable."""
    try:
        value = message.get(name)
    except Exception:  # a malformed header the parser chokes on
        return ""
    return "" if value is None else readable(" ".join(str(value).split()))


def bounded(raw: bytes) -> tuple[bytes, bytes]:
    """The parts of a mail worth reading, cut to sizes the email package
    parses in milliseconds: its header section and the start of its body.

    The package's header and MIME parsing grows faster than the input (a
    1.6 MB From header once took minutes; a thousand nested parts overflow
    the stack), while a command needs only a few short headers and the first
    text part. So each header field is cut to MAX_FIELD bytes and at most
    MAX_FIELDS are kept, and the body is cut to MAX_BODY bytes; a body with
    more parts or deeper nesting than any mail program writes is not read
    (the Subject's command still runs, without a comment)."""
    ends = [(i, len(mark)) for mark in (b"\r\n\r\n", b"\n\n") if (i := raw.find(mark)) >= 0]
    end, gap = min(ends) if ends else (len(raw), 0)
    head, body = raw[:end], raw[end + gap :]
    fields: list[bytes] = []
    for line in head.splitlines():
        if line[:1] in (b" ", b"\t") and fields:
            if len(fields[-1]) < MAX_FIELD:
                fields[-1] = (fields[-1] + b"\r\n" + line)[:MAX_FIELD]
        elif len(fields) < MAX_FIELDS:
            fields.append(line[:MAX_FIELD])
    body = body[:MAX_BODY]
    parts = body.count(b"\n--")
    nesting = raw[: end + MAX_BODY].lower().count(b"boundary=")
    if parts > MAX_PARTS or nesting > MAX_NESTING:
        fields = [f for f in fields if not f.lower().startswith(b"content-")]
        body = b""
    return b"\r\n".join(fields), body


MAX_FIELD = 4096  # bytes of one header field read (a real From or Subject is far shorter)
MAX_FIELDS = 200  # header fields read
MAX_BODY = 256 * 1024  # bytes of the body read: the comment is in its first text part
MAX_PARTS = 64  # MIME parts read in that much body
MAX_NESTING = 8  # multiparts within multiparts


def parse_message(
    raw: bytes, server_address: str, envelope_sender: str = "", *, headers_only: bool = False
) -> Incoming | Ignored:
    """The command a mail carries, or why it must not be answered. The
    envelope sender (SMTP's MAIL FROM) stands in for an unreadable From.
    `headers_only` skips the body (of a mail too large to read)."""
    head, body = bounded(raw)
    if headers_only or not body:
        message = BytesHeaderParser(policy=READING).parsebytes(head + b"\r\n\r\n")
    else:
        message = email.message_from_bytes(head + b"\r\n\r\n" + body, policy=READING)
    sender = sender_of(message) or plain_address(envelope_sender)
    if not sender:
        return Ignored("no sender address")
    why = automatic(message, sender, server_address)
    if why:
        return Ignored(why)
    command = _PREFIX.sub("", header(message, "Subject"), count=1).strip()
    if own_subject(command):
        return Ignored(f"the Subject is one of the server's own ({command[:60]!r}): an echo")
    message_id = header(message, "Message-ID") or None
    comment = "" if headers_only else comment_of(message)
    return Incoming(sender, command, comment, message_id)


def sender_of(message: Message) -> str:
    """The From address (replies go there, as pbmserv's did)."""
    addresses = [address for _, address in getaddresses([header(message, "From")]) if address]
    return plain_address(addresses[0]) if addresses else ""


def plain_address(address: str) -> str:
    """The address when it is one mail can go back to, else ''."""
    address = address.strip().strip("<>")
    local, at, domain = address.rpartition("@")
    if not (at and local and "." in domain) or len(address) > 254:
        return ""
    if any(c.isspace() or c in "\ufffd<>()," for c in address):
        return ""
    return address


def automatic(message: Message, sender: str, server_address: str) -> str:
    """Why a mail was written by a machine and must get no answer, or ''."""
    auto = header(message, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = header(message, "Precedence").lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    if header(message, "X-Autoreply") or header(message, "X-Autorespond"):
        return "an auto-reply"
    if sender.lower() == server_address.lower():
        return "mail from the server's own address"
    if header(message, "X-Loop").lower() == server_address.lower():
        return "X-Loop names the server"
    local = sender.partition("@")[0].lower()
    if local in _BOUNCERS or header(message, "Return-Path") == "<>":
        return f"a bounce or no-reply sender ({sender})"
    if message.get_content_type() == "multipart/report":
        return "a delivery report"
    return ""


def comment_of(message: Message) -> str:
    """The first text part of the body, without quoted replies or signature."""
    text = body_text(message)
    kept: list[str] = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        stripped = line.strip()
        if line.rstrip() == "--" or _FORWARD_MARK.match(stripped) or stripped == "__":
            break  # a signature or the forwarded/quoted original follows
        if stripped.startswith(">") or _QUOTE_HEADER.match(stripped):
            continue
        kept.append(line.rstrip())
    return "\n".join(kept).strip("\n")


def body_text(message: Message) -> str:
    """The plain text of the first text part (an HTML part made plain)."""
    if not isinstance(message, EmailMessage):
        return ""
    try:
        part = message.get_body(preferencelist=("plain", "html"))
    except Exception:
        return ""
    if part is None:
        return ""
    text = decoded(part)
    return html_to_text(text) if part.get_content_type() == "text/html" else text


def decoded(part: Message) -> str:
    """A text part's content in any charset; unknown charsets as UTF-8 with
    replacement characters."""
    try:
        return readable(part.get_content())  # type: ignore[attr-defined]
    except (LookupError, UnicodeError, AssertionError, ValueError):
        payload = part.get_payload(decode=True)
        return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""


class _TextOfHtml(HTMLParser):
    """HTML to plain text: paragraphs and breaks become lines; scripts,
    styles and quoted replies (blockquote) are dropped."""

    BREAKS = frozenset({"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "pre"})
    SKIP = frozenset({"script", "style", "blockquote", "head", "title"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skipping += 1
        elif tag in self.BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in ("p", "div"):
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(re.sub(r"\s+", " ", data))


def html_to_text(html: str) -> str:
    parser = _TextOfHtml()
    try:
        parser.feed(html)
        parser.close()
    except Exception:
        return ""
    lines = "".join(parser.parts).split("\n")
    return "\n".join(line.strip() for line in lines).strip("\n")
