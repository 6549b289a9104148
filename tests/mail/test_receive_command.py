"""`pbem receive < message`: the pipe a mail server delivers into."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sqlalchemy import select

from pbem.store import OutboxMessage, make_engine
from tests.processes import Processes

MAIL = (
    b"From: Ann <ann@example.org>\r\nTo: pbem@games.test\r\nSubject: Re: signup ann secret1\r\n"
    b"Message-ID: <first@example.org>\r\n\r\nHello!\r\n"
)


def receive(
    processes: Processes, tmp_path: Path, raw: bytes, **settings: str
) -> subprocess.CompletedProcess[bytes]:
    settings.setdefault("database_url", f"sqlite:///{tmp_path / 'pbem.sqlite3'}")
    return processes.run(
        [sys.executable, "-m", "pbem.cli", "receive"],
        input=raw,
        env=processes.env(**settings),
        cwd=tmp_path,
        timeout=120,
    )


def outbox(tmp_path: Path) -> list[OutboxMessage]:
    engine = make_engine(f"sqlite:///{tmp_path / 'pbem.sqlite3'}")
    with engine.connect() as connection:
        rows = connection.execute(select(OutboxMessage).order_by(OutboxMessage.id)).all()
    engine.dispose()
    return rows  # type: ignore[return-value]


def test_a_piped_mail_runs_once_and_its_reply_waits_in_the_outbox(
    processes: Processes, tmp_path: Path
) -> None:
    assert receive(processes, tmp_path, MAIL).returncode == 0
    assert receive(processes, tmp_path, MAIL).returncode == 0  # delivered twice by the mail server
    [row] = outbox(tmp_path)
    assert (row.recipients, row.subject) == (["ann@example.org"], "pbem signup ann")
    assert row.in_reply_to == "<first@example.org>"


def test_a_mail_too_large_is_answered_without_reading_it(
    processes: Processes, tmp_path: Path
) -> None:
    big = MAIL.replace(b"first@", b"big@") + b"x" * 5000 + b"\r\n"
    assert receive(processes, tmp_path, big, max_message_bytes="2000").returncode == 0
    [row] = outbox(tmp_path)
    assert row.subject == "pbem error: signup"
    assert "the server reads mails up to 2.0 kB. Send the command again without" in row.body


def test_machine_mail_and_garbage_get_no_answer(processes: Processes, tmp_path: Path) -> None:
    auto = MAIL.replace(b"Subject:", b"Auto-Submitted: auto-replied\r\nSubject:")
    assert receive(processes, tmp_path, auto).returncode == 0
    assert receive(processes, tmp_path, b"\x00\xff\xfe not a mail at all").returncode == 0
    assert outbox(tmp_path) == []


def test_a_database_failure_asks_the_mail_server_to_retry(
    processes: Processes, tmp_path: Path
) -> None:
    result = receive(
        processes, tmp_path, MAIL, database_url="postgresql+psycopg://nobody@127.0.0.1:1/none"
    )
    assert result.returncode == 75, result.stderr.decode()[-2000:]
    assert b"the mail could not be run" in result.stderr
