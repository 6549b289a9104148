"""The SMTP door while SQLite's write lock is held by someone else past the
bounded wait (issue 50, finding 10): a mail is answered 451 within the
bound, so its sender retries, and nothing of it was done; once the lock is
given back the same mail runs."""

from __future__ import annotations

import fcntl
import os
import smtplib
import time
from pathlib import Path

import pytest

from tests.databases import upgraded_sqlite
from tests.mail.conftest import door_on

BOUND = 2.0


def test_a_held_write_lock_answers_451_within_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_DATABASE_WAIT", str(BOUND))
    url = upgraded_sqlite(tmp_path / "pbem.sqlite3")
    with door_on(url, tmp_path) as door:
        held = os.open(f"{url.removeprefix('sqlite:///')}.write-lock", os.O_RDWR | os.O_CREAT)
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            started = time.monotonic()
            with pytest.raises(smtplib.SMTPDataError) as retry:
                door.send("alice@example.org", "signup alice secret1")
            assert retry.value.smtp_code == 451
            assert time.monotonic() - started < BOUND + 3
        finally:
            os.close(held)
        assert door.outbox() == []
        door.send("alice@example.org", "signup alice secret1")
        assert [row.subject for row in door.outbox()] == ["pbem signup alice"]
