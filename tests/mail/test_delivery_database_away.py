"""Delivery across a PostgreSQL restart (issue 50, finding 14): every
connection cut mid-pass, the database refusing connections for a while,
then back. Each mail goes out once (the mark of a mail sent is retried,
then settled first by the next pass, not left to make it sent again), and
the mails claimed before the cut are sent within seconds of the database's
return, not after their lease (five minutes)."""

from __future__ import annotations

import threading
import time
from collections import Counter
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select, text

from pbem.mail import delivery
from pbem.mail.delivery import delivery_loop
from pbem.server.service import utc_now
from pbem.settings import Settings
from pbem.store import OutboxMessage, make_engine
from tests.conftest import upgraded_database_url
from tests.mail.test_delivery_race import with_mails

pytestmark = pytest.mark.postgresql


def cut(url: str, away: float) -> None:
    """What a restart does: no new connection to the database for `away`
    seconds, and every open one ended; then it is back."""
    server, _, name = url.rpartition("/")
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
            connection.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": name},
            )
            time.sleep(away)
            connection.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
    finally:
        admin.dispose()


class CuttingRelay:
    """Takes every mail; while taking the third, the database goes away."""

    description = "a relay during a restart"

    def __init__(self, url: str, away: float) -> None:
        self.url, self.away = url, away
        self.got: Counter[str] = Counter()
        self.cutter: threading.Thread | None = None

    def send(self, message: EmailMessage, sender: str, recipients: list[str]) -> None:
        self.got[str(message["Message-ID"])] += 1
        if sum(self.got.values()) == 3:
            self.cutter = threading.Thread(target=cut, args=(self.url, self.away))
            self.cutter.start()
            time.sleep(0.5)  # (every connection ended before the mark)

    def close(self) -> None:
        pass


def test_a_restart_mid_pass_sends_each_mail_once_and_resumes_at_once(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_DATABASE_WAIT", "2")
    url = upgraded_database_url("postgresql", request, tmp_path)
    engine = make_engine(url)
    try:
        server = with_mails(engine, 10)
        relay = CuttingRelay(url, away=12.0)  # longer than the mark's own retries
        monkeypatch.setattr(delivery, "transport_for", lambda settings: relay)
        stop = threading.Event()
        wake = threading.Event()
        settings = Settings(address="pbem@example.org", delivery_seconds=30.0)
        loop = threading.Thread(
            target=delivery_loop, args=(server.sessions, settings, stop, wake, utc_now)
        )
        started = time.monotonic()
        loop.start()
        try:
            deadline = started + 60
            while time.monotonic() < deadline:
                if relay.cutter is not None and not relay.cutter.is_alive():
                    try:
                        with server.sessions() as session:
                            left = session.scalar(
                                select(func.count())
                                .select_from(OutboxMessage)
                                .where(OutboxMessage.sent_at.is_(None))
                            )
                        if left == 0:
                            break
                    except Exception:
                        pass
                time.sleep(0.2)
        finally:
            stop.set()
            wake.set()
            loop.join(timeout=30)
        finished = time.monotonic() - started
        assert relay.cutter is not None
        assert len(relay.got) == 10 and set(relay.got.values()) == {1}, relay.got
        # Back after 12 s; all sent well within a minute of that (a lease is 5 minutes).
        assert finished < 45, finished
    finally:
        engine.dispose()
