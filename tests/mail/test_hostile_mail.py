"""Hostile mail, generated here, through the SMTP listener and `pbem
receive`: huge headers, deep nesting, many parts, bad charsets, no blank
line. Each is taken (250, exit 0) or refused for good (aiosmtpd's 500 for
a line over SMTP's 1,000 octets), never "try again later" (which a mail
server would do forever); it costs well under a second to read, and the server
goes on answering an ordinary mail at once."""

from __future__ import annotations

import smtplib
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from pbem.mail.inbound import parse_message
from pbem.mail.listener import start_listener
from pbem.server import Server
from pbem.settings import Settings
from pbem.store import OutboxMessage, make_engine, session_factory
from tests.mail.smtp_world import free_port
from tests.processes import Processes

ADDRESS = "pbem@games.test"
SENDER = "mallory@example.org"
HEAD = f"From: {SENDER}\r\nTo: {ADDRESS}\r\nSubject: help\r\n".encode()


def with_id(n: int, raw: bytes) -> bytes:
    return f"Message-ID: <hostile{n}@example.org>\r\n".encode() + raw


def corpus() -> dict[str, bytes]:
    """Mails under the size limit that once cost minutes or a crash."""
    flat = b"".join(
        b"--XX\r\nContent-Type: text/plain\r\n\r\npart %d\r\n" % i for i in range(80_000)
    )
    deep = b"".join(
        b"Content-Type: multipart/mixed; boundary=B%d\r\n\r\n--B%d\r\n" % (i, i)
        for i in range(1000)
    )
    return {
        "a 1.6 MB From header": b"From: "
        + b"x@example.org, " * 110_000
        + b"\r\n"
        + HEAD[HEAD.index(b"To:") :]
        + b"\r\nhi\r\n",
        "a header folded 300,000 times": HEAD
        + b"X-Junk: x\r\n"
        + b" y\r\n" * 300_000
        + b"\r\nhi\r\n",
        "200,000 header fields": HEAD + b"X-A: b\r\n" * 200_000 + b"\r\nhi\r\n",
        "a flat 3.6 MB multipart": HEAD
        + b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=XX\r\n\r\n"
        + flat
        + b"--XX--\r\n",
        "1,000 nested parts": HEAD
        + b"MIME-Version: 1.0\r\n"
        + deep
        + b"Content-Type: text/plain\r\n\r\nhi\r\n",
        "a charset nobody knows": HEAD
        + b"Content-Type: text/plain; charset=x-klingon\r\n\r\n\xff\xfe\xfd hi\r\n",
        "no blank line, no body": HEAD.rstrip(b"\r\n"),
        "a broken base64 part": HEAD
        + b"Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n"
        + b"\r\n!!!not base64==\r\n",
    }


@pytest.mark.parametrize("name", list(corpus()))
def test_each_hostile_mail_is_read_in_well_under_a_second(name: str) -> None:
    raw = corpus()[name]
    assert len(raw) < Settings().max_message_bytes
    started = time.perf_counter()
    parsed = parse_message(raw, ADDRESS)
    assert time.perf_counter() - started < 0.5, name
    assert getattr(parsed, "sender", None) == SENDER or name == "a 1.6 MB From header"


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    engine = make_engine(database_url)
    yield Server(session_factory(engine))
    engine.dispose()


def answered(server: Server) -> int:
    with server.sessions() as session:
        return len(session.scalars(select(OutboxMessage.id)).all())


def test_the_listener_takes_every_hostile_mail_and_keeps_serving(server: Server) -> None:
    settings = Settings(address=ADDRESS, smtp_port=free_port())
    listener = start_listener(server, settings)
    try:
        for n, (name, raw) in enumerate(corpus().items()):
            started = time.perf_counter()
            with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=60) as smtp:
                try:
                    assert smtp.sendmail(SENDER, [ADDRESS], with_id(n, raw)) == {}, name
                except smtplib.SMTPDataError as error:
                    # aiosmtpd refuses lines over SMTP's 1,000 octets for good
                    # (5xx: bounced, never retried), never "try later" (4xx)
                    assert error.smtp_code == 500 and b"Line too long" in error.smtp_error, name
            assert time.perf_counter() - started < 5, name  # the transfer of megabytes included
        before = answered(server)
        started = time.perf_counter()
        with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=60) as smtp:
            smtp.sendmail(
                "ann@example.org", [ADDRESS], b"From: ann@example.org\r\nSubject: help\r\n\r\n"
            )
        assert time.perf_counter() - started < 1
        assert answered(server) == before + 1
    finally:
        listener.stop()


def test_pbem_receive_takes_every_hostile_mail(
    server: Server, processes: Processes, tmp_path: Path
) -> None:
    url = server.sessions.kw["bind"].url.render_as_string(hide_password=False)
    env = processes.env(database_url=url, address=ADDRESS)
    for n, (name, raw) in enumerate(corpus().items()):
        done = processes.run(
            [sys.executable, "-m", "pbem.cli", "receive"],
            input=with_id(n, raw),
            env=env,
            cwd=tmp_path,
            timeout=60,
        )
        assert done.returncode == 0, (name, done.stderr.decode()[-2000:])
