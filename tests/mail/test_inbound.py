"""Reading incoming mail: the command, the comment, and what is never answered."""

from __future__ import annotations

import email.policy
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage

import pytest

from pbem.mail import inbound
from pbem.mail.inbound import Ignored, Incoming, parse_message

SERVER = "pbem@games.example"


def mail(subject: str | None = "vasco show 1", body: str = "", **headers: str) -> bytes:
    message = EmailMessage()
    message["From"] = headers.pop("From", "Alice <alice@example.org>")
    message["To"] = SERVER
    if subject is not None:
        message["Subject"] = subject
    message["Message-ID"] = "<1@example.org>"
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body)
    return message.as_bytes()


def test_the_subject_is_the_command_and_the_body_the_comment() -> None:
    parsed = parse_message(mail("vasco move 1 alice pw a0,0#1", "Good luck!\n"), SERVER)
    assert parsed == Incoming(
        "alice@example.org", "vasco move 1 alice pw a0,0#1", "Good luck!", "<1@example.org>"
    )


@pytest.mark.parametrize(
    "subject",
    ["Re: vasco show 1", "RE: Fwd: vasco show 1", "AW: vasco show 1", "Re[2]: vasco show 1"],
)
def test_reply_and_forward_prefixes_are_dropped(subject: str) -> None:
    parsed = parse_message(mail(subject), SERVER)
    assert isinstance(parsed, Incoming) and parsed.command == "vasco show 1"


def test_quoted_replies_and_signatures_are_not_the_comment() -> None:
    body = (
        "Nice move.\n\nOn Sat, 21 Nov 2026 at 09:00, pbem wrote:\n> the board\n> more\n"
        "-- \nAlice, sent from her phone\n"
    )
    parsed = parse_message(mail(body=body), SERVER)
    assert isinstance(parsed, Incoming) and parsed.comment == "Nice move."


def test_any_charset_and_encoded_subjects() -> None:
    message = EmailMessage()
    message["From"] = "=?iso-8859-1?q?J=F6rg?= <jorg@example.org>"
    message["Subject"] = "=?utf-8?b?dmFzY28gc2hvdyAx?="
    message.set_content("Schön gespielt, 日本", charset="utf-8")
    parsed = parse_message(message.as_bytes(), SERVER)
    assert isinstance(parsed, Incoming)
    assert (parsed.command, parsed.comment) == ("vasco show 1", "Schön gespielt, 日本")
    latin = (
        b"From: jorg@example.org\r\nSubject: vasco show 1\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n"
        b"\r\nGr\xfc\xdfe\r\n"
    )
    assert parse_message(latin, SERVER).comment == "Grüße"  # type: ignore[union-attr]
    unknown = latin.replace(b"iso-8859-1", b"x-no-such-charset")
    assert "Gr" in parse_message(unknown, SERVER).comment  # type: ignore[union-attr]


def test_eight_bit_headers_become_readable_text() -> None:
    raw = b"From: j\xf6rg@example.org\r\nSubject: vasco show \xff1\r\n\r\nhi\r\n"
    assert isinstance(parse_message(raw, SERVER), Ignored)  # no address to answer
    parsed = parse_message(raw, SERVER, "jorg@example.org")
    assert isinstance(parsed, Incoming) and parsed.sender == "jorg@example.org"
    assert parsed.command == "vasco show \ufffd1"
    parsed.command.encode("utf-8")  # storable


def multipart_mail() -> bytes:
    """Plain text, its HTML alternative and an attachment."""
    both = EmailMessage()
    both["From"] = "alice@example.org"
    both["Subject"] = "vasco show 1"
    both.set_content("plain words")
    both.add_alternative("<p>html words</p>", subtype="html")
    both.add_attachment(b"\x00\x01" * 100, maintype="application", subtype="octet-stream")
    return both.as_bytes()


def test_html_only_and_multipart_mail() -> None:
    html = EmailMessage()
    html["From"] = "alice@example.org"
    html["Subject"] = "vasco show 1"
    html.set_content(
        "<html><head><style>p{}</style></head><body><p>Hello <b>there</b></p>"
        "<blockquote>old board</blockquote><p>bye</p></body></html>",
        subtype="html",
    )
    parsed = parse_message(html.as_bytes(), SERVER)
    assert isinstance(parsed, Incoming) and parsed.comment == "Hello there\n\nbye"
    parsed = parse_message(multipart_mail(), SERVER)
    assert isinstance(parsed, Incoming) and parsed.comment == "plain words"


def test_no_subject_and_binary_bodies_are_still_commands() -> None:
    parsed = parse_message(mail(None), SERVER)
    assert isinstance(parsed, Incoming) and parsed.command == ""
    binary = EmailMessage()
    binary["From"] = "alice@example.org"
    binary["Subject"] = "help"
    binary.set_content(b"\x00\xff" * 50, maintype="application", subtype="octet-stream")
    parsed = parse_message(binary.as_bytes(), SERVER)
    assert isinstance(parsed, Incoming) and parsed.comment == ""
    assert isinstance(parse_message(b"\x00\xff garbage \x80", SERVER), Ignored)


@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({"Auto_Submitted": "auto-replied"}, "Auto-Submitted"),
        ({"Precedence": "bulk"}, "Precedence"),
        ({"X_Autoreply": "yes"}, "auto-reply"),
        ({"From": SERVER}, "own address"),
        ({"From": "MAILER-DAEMON@example.org"}, "bounce"),
        ({"X_Loop": SERVER}, "X-Loop"),
        ({"From": "not an address"}, "no sender"),
    ],
)
def test_machine_mail_is_never_answered(headers: dict[str, str], why: str) -> None:
    parsed = parse_message(mail(**headers), SERVER)
    assert isinstance(parsed, Ignored) and why in parsed.reason
    assert isinstance(parse_message(mail(Auto_Submitted="no"), SERVER), Incoming)


def varied_mails() -> list[bytes]:
    """Mails of every shape the tests above read: encoded words, 8-bit and
    unknown charsets, HTML only, multipart with an attachment, machine mail."""
    plain = mail("Re: vasco move 1 alice pw a0,0#1", "Nice.\n> old\n-- \nAlice\n")
    encoded = EmailMessage()
    encoded["From"] = "=?iso-8859-1?q?J=F6rg?= <jorg@example.org>"
    encoded["Subject"] = "=?utf-8?b?dmFzY28gc2hvdyAx?="
    encoded.set_content("Schön gespielt, 日本", charset="utf-8")
    latin = (
        b"From: jorg@example.org\r\nSubject: vasco show 1\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n"
        b"\r\nGr\xfc\xdfe\r\n"
    )
    return [
        plain,
        encoded.as_bytes(),
        multipart_mail(),
        latin,
        latin.replace(b"iso-8859-1", b"x-no-such-charset"),
        b"From: j\xf6rg@example.org\r\nSubject: vasco show \xff1\r\n\r\nhi\r\n",
        mail(Auto_Submitted="auto-replied"),
        b"From: alice@example.org\r\nSubject: vasco show 1\r\nContent-Type: multipart/report;"
        b" report-type=delivery-status; boundary=x\r\n\r\n--x\r\n\r\nfailed\r\n--x--\r\n",
    ]


def test_headers_parsed_once_read_as_the_email_package_reads_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The policy that parses each header value once (inbound.READING) reads
    every mail as the email package's default policy does."""
    ours = [parse_message(raw, SERVER, "jorg@example.org") for raw in varied_mails()]
    monkeypatch.setattr(inbound, "READING", email.policy.default)
    theirs = [parse_message(raw, SERVER, "jorg@example.org") for raw in varied_mails()]
    assert ours == theirs
    assert any(isinstance(parsed, Ignored) for parsed in ours)


def test_a_mail_parses_its_content_type_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding a mail's body looks its Content-Type up about ten times; the
    email package parsed it each time, which was most of reading a mail."""
    raw = mail("vasco show 1", "hello\n").replace(b"charset=", b"x-unique=once; charset=")
    parsed: list[str] = []
    registry = HeaderRegistry.__call__

    def counting(self: HeaderRegistry, name: str, value: str) -> object:
        parsed.append(name.lower())
        return registry(self, name, value)

    monkeypatch.setattr(HeaderRegistry, "__call__", counting)
    assert parse_message(raw, SERVER) == Incoming(
        "alice@example.org", "vasco show 1", "hello", "<1@example.org>"
    )
    assert parsed.count("content-type") == 1
