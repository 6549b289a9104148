"""`pbem poll` against a real Dovecot on 127.0.0.1: mail in the mailbox runs
once, is marked $PbemDone, and the loop outlives the IMAP server's restart."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
import sqlalchemy.exc
from imap_tools.errors import ImapToolsError
from sqlalchemy import select

from pbem.mail import imap_poll
from pbem.mail.imap_poll import DONE, FAILED, parse_imap_url, poll_forever, poll_once
from pbem.mail.receive import receive
from pbem.server import Server
from pbem.settings import Settings
from pbem.store import OutboxMessage, User, make_engine, session_factory
from tests.databases import upgraded_sqlite
from tests.processes import Processes

from .dovecot import Dovecot

PERSON = User.bot_level.is_(None)  # the database's own bots are no one's signup

ADDRESS = "pbem@example.net"


@pytest.fixture
def dovecot(processes: Processes) -> Iterator[Dovecot]:
    server = Dovecot(processes)
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    engine = make_engine(upgraded_sqlite(tmp_path / "db.sqlite3"))
    yield Server(session_factory(engine))
    engine.dispose()


@pytest.fixture
def settings(dovecot: Dovecot) -> Settings:
    return Settings(address=ADDRESS, imap_url=dovecot.url, imap_seconds=0.2)


def mail(sender: str, subject: str, body: str = "", **headers: str) -> bytes:
    """A mail to the server; keyword headers with _ for - (Auto_Submitted)."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = ADDRESS
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain="example.org")
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body or "Hello.\n")
    return bytes(message)


def append(dovecot: Dovecot, raw: bytes, flags: tuple[str, ...] = ()) -> None:
    with dovecot.mailbox() as mailbox:
        mailbox.append(raw, "INBOX", flag_set=list(flags))


def flags_by_subject(dovecot: Dovecot) -> dict[str, set[str]]:
    with dovecot.mailbox() as mailbox:
        return {
            message.subject: set(message.flags)
            for message in mailbox.fetch(mark_seen=False, headers_only=True)
        }


def userids(server: Server) -> set[str]:
    with server.sessions() as session:
        return set(session.scalars(select(User.userid_key).where(PERSON)))


def outbox(server: Server) -> list[tuple[list[str], str]]:
    with server.sessions() as session:
        rows = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id))
        return [(row.recipients, row.subject) for row in rows]


def eventually(check: Callable[[], bool], seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_poll_once_runs_each_new_mail_once_and_marks_it(
    dovecot: Dovecot, server: Server, settings: Settings
) -> None:
    append(dovecot, mail("alice@example.org", "signup alice secret1"))
    append(dovecot, mail("bob@example.org", "help"))
    append(dovecot, mail("carol@example.org", "Out of office", Auto_Submitted="auto-replied"))

    assert poll_once(server, settings) == 3

    assert userids(server) == {"alice"}
    recipients = [to for to, _ in outbox(server)]
    assert ["alice@example.org"] in recipients
    assert ["bob@example.org"] in recipients
    assert ["carol@example.org"] not in recipients  # auto-replies get no answer
    flags = flags_by_subject(dovecot)
    assert len(flags) == 3  # nothing deleted
    for subject, marks in flags.items():
        assert {DONE, "\\Seen"} <= marks, subject
        assert FAILED not in marks, subject
    replies = len(outbox(server))
    assert poll_once(server, settings) == 0
    assert len(outbox(server)) == replies


def test_a_mail_read_by_a_human_is_still_run(
    dovecot: Dovecot, server: Server, settings: Settings
) -> None:
    append(dovecot, mail("alice@example.org", "signup alice secret1"), flags=("\\Seen",))
    assert poll_once(server, settings) == 1
    assert userids(server) == {"alice"}
    assert DONE in flags_by_subject(dovecot)["signup alice secret1"]


def test_a_mail_run_before_a_crash_is_marked_but_not_run_again(
    dovecot: Dovecot, server: Server, settings: Settings
) -> None:
    raw = mail("alice@example.org", "signup alice secret1")
    append(dovecot, raw)
    receive(server, raw, settings)  # ran, then the poller died before marking it
    replies = outbox(server)
    assert poll_once(server, settings) == 1
    assert outbox(server) == replies  # the database knew the Message-ID
    assert DONE in flags_by_subject(dovecot)["signup alice secret1"]


def test_a_mail_that_breaks_receive_is_marked_failed_and_the_rest_run(
    dovecot: Dovecot,
    server: Server,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    append(dovecot, mail("mallory@example.org", "poison"))
    append(dovecot, mail("alice@example.org", "signup alice secret1"))

    def fragile(server: Server, raw: bytes, settings: Settings) -> list:
        if b"poison" in raw:
            raise RuntimeError("a bug")
        return receive(server, raw, settings)

    monkeypatch.setattr(imap_poll, "receive", fragile)
    with caplog.at_level(logging.ERROR, logger="pbem.mail.imap"):
        assert poll_once(server, settings) == 2
    assert userids(server) == {"alice"}
    flags = flags_by_subject(dovecot)
    assert {DONE, FAILED} <= flags["poison"]
    assert FAILED not in flags["signup alice secret1"]
    assert any("UID 1 " in record.getMessage() for record in caplog.records)
    assert poll_once(server, settings) == 0


def test_a_database_outage_marks_nothing(
    dovecot: Dovecot, server: Server, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    append(dovecot, mail("alice@example.org", "signup alice secret1"))

    def database_down(server: Server, raw: bytes, settings: Settings) -> list:
        raise sqlalchemy.exc.OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr(imap_poll, "receive", database_down)
    with pytest.raises(sqlalchemy.exc.OperationalError):
        poll_once(server, settings)
    assert DONE not in flags_by_subject(dovecot)["signup alice secret1"]
    monkeypatch.undo()
    assert poll_once(server, settings) == 1
    assert userids(server) == {"alice"}


def test_poll_forever_outlives_a_restart_of_the_imap_server(
    dovecot: Dovecot, server: Server, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    stop = threading.Event()
    loop = threading.Thread(target=poll_forever, args=(server, settings, stop), daemon=True)
    caplog.set_level(logging.INFO, logger="pbem.mail.imap")
    loop.start()
    try:
        append(dovecot, mail("alice@example.org", "signup alice secret1"))
        eventually(lambda: "alice" in userids(server))
        dovecot.stop()
        eventually(lambda: any(r.levelno == logging.WARNING for r in caplog.records))
        dovecot.start()
        append(dovecot, mail("bob@example.org", "signup bob secret2"))
        eventually(lambda: "bob" in userids(server))
        # (logged just after the mail that shows it is handled: wait for it too)
        eventually(lambda: any("works again" in r.getMessage() for r in caplog.records))
        assert loop.is_alive()
    finally:
        stop.set()
        loop.join(timeout=10)
    assert not loop.is_alive()


def test_a_wrong_password_is_an_error_of_the_poll(dovecot: Dovecot, server: Server) -> None:
    url = dovecot.url.replace("s3cret", "wrong")
    with pytest.raises(ImapToolsError):
        poll_once(server, Settings(address=ADDRESS, imap_url=url))


def test_the_imap_url_is_taken_apart() -> None:
    account = parse_imap_url("imaps://pbem%40example.net:p%2Fw%3Ad@mail.example.net/Games%20In")
    assert (account.scheme, account.host, account.port) == ("imaps", "mail.example.net", 993)
    assert (account.user, account.password, account.folder) == (
        "pbem@example.net",
        "p/w:d",
        "Games In",
    )
    assert "p/w:d" not in repr(account)
    plain = parse_imap_url("imap://u:p@127.0.0.1:10143")
    assert (plain.port, plain.folder) == (10143, "INBOX")
    assert parse_imap_url("imap+starttls://u:p@host/").port == 143


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("", "imaps://user:password@host"),
        ("pop3://u:p@host/INBOX", "not 'pop3://u:***@host/INBOX'"),
        ("imaps://host/INBOX", "the user or the password is missing"),
        ("imaps://u@host/INBOX", "the user or the password is missing"),
        ("imaps://u:p@/INBOX", "the host is missing"),
        ("imaps://u:p@host:99999x/INBOX", "the port is not a number"),
    ],
)
def test_a_malformed_imap_url_says_what_to_write(url: str, problem: str) -> None:
    with pytest.raises(ValueError, match="PBEM_IMAP_URL must look like") as error:
        parse_imap_url(url)
    assert problem in str(error.value)
    assert ":p@" not in str(error.value)  # the password stays out of logs


def test_poll_forever_refuses_a_malformed_url_at_once(server: Server) -> None:
    with pytest.raises(ValueError, match="PBEM_IMAP_URL"):
        poll_forever(server, Settings(imap_url="imaps://nowhere"), threading.Event())


def test_a_deeply_nested_mail_neither_blocks_the_folder_nor_is_run_twice(
    dovecot: Dovecot, server: Server, settings: Settings
) -> None:
    """The hostile corpus's 1,000 nested parts ahead of three good
    mails (56 kB here): once, parsing every fetched mail whole overflowed the stack before
    the poller's handling of each mail, on every poll, so nothing behind it
    ever ran. Now it is read as the SMTP listener reads it (bounded: its
    Subject's command is answered), marked, and the three run in one poll."""
    from tests.mail.test_hostile_mail import corpus, with_id

    poison = with_id(0, corpus()["1,000 nested parts"])
    assert len(poison) > 50_000
    append(dovecot, poison)
    for name in ("alice", "bob", "carol"):
        append(dovecot, mail(f"{name}@example.org", f"signup {name} secret1"))

    assert poll_once(server, settings) == 4

    assert userids(server) == {"alice", "bob", "carol"}
    recipients = [to for to, _ in outbox(server)]
    assert recipients.count(["mallory@example.org"]) == 1  # answered, as by the listener
    flags = flags_by_subject(dovecot)
    assert len(flags) == 4  # nothing deleted
    for subject, marks in flags.items():
        assert {DONE, "\\Seen"} <= marks, subject
    assert poll_once(server, settings) == 0  # never again
    assert recipients == [to for to, _ in outbox(server)]


def test_a_mail_over_the_size_limit_is_read_only_as_far_as_the_limit(
    dovecot: Dovecot, server: Server, settings: Settings
) -> None:
    """The poller fetches no more of a mail than the limit and one byte, and
    refuses it as the listener does: an answer saying the size limit."""
    big = mail("dave@example.org", "help", "x" * 5_000)
    small = Settings(address=ADDRESS, imap_url=settings.imap_url, max_message_bytes=2_000)
    append(dovecot, big)
    assert poll_once(server, small) == 1
    [(to, _)] = outbox(server)
    assert to == ["dave@example.org"]
    with server.sessions() as session:
        [body] = session.scalars(select(OutboxMessage.body))
    assert "the server reads mails up to 2.0 kB" in body
    assert DONE in flags_by_subject(dovecot)["help"]
