"""A backlog in the outbox drains at the speed of sending: the delivery
loop and `pbem deliver` go on pass after pass while a pass found a full
batch due. Each pass once ended at BATCH mails and the loop then slept
`delivery_seconds`, so after a busy minute the outbox drained at about 100
mails a pass and a pause (129 mails a second from two processes after the
bench's moves, bench/load.py),
and `pbem deliver` from cron sent 100 mails a run, however many waited."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import Counter
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select

from pbem.mail import delivery
from pbem.mail.delivery import deliver_backlog, deliver_due, delivery_loop
from pbem.server import Server
from pbem.server.service import utc_now
from pbem.settings import Settings
from pbem.store import OutboxMessage, make_engine
from tests.databases import upgraded_sqlite
from tests.mail.test_delivery_race import with_mails
from tests.processes import Processes

SETTINGS = Settings(address="pbem@example.org")


class Relay:
    """Counts what it takes; refuses everything while `down`."""

    description = "a counting relay"

    def __init__(self) -> None:
        self.got: Counter[str] = Counter()
        self.tries = 0
        self.down = False

    def send(self, message: EmailMessage, sender: str, recipients: list[str]) -> None:
        self.tries += 1
        if self.down:
            raise ConnectionRefusedError("the relay is down")
        self.got[str(message["Message-ID"])] += 1

    def close(self) -> None:
        pass


def unsent(server: Server) -> int:
    with server.sessions() as session:
        return session.scalar(
            select(func.count()).select_from(OutboxMessage).where(OutboxMessage.sent_at.is_(None))
        )


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(delivery, "BATCH", 3)
    monkeypatch.setattr(delivery, "CLAIM", 2)


@pytest.mark.usefixtures("small_batches")
def test_one_pass_sends_a_batch_and_the_backlog_sends_all(engine: Engine) -> None:
    server = with_mails(engine, 8)
    relay = Relay()
    assert deliver_due(server.sessions, SETTINGS, relay, utc_now()) == 3
    assert unsent(server) == 5
    assert deliver_backlog(server.sessions, SETTINGS, relay, utc_now) == 5
    assert unsent(server) == 0
    assert len(relay.got) == 8 and set(relay.got.values()) == {1}


@pytest.mark.usefixtures("small_batches")
def test_a_relay_down_costs_one_pass_not_the_whole_backlog(engine: Engine) -> None:
    server = with_mails(engine, 8)
    relay = Relay()
    relay.down = True
    assert deliver_backlog(server.sessions, SETTINGS, relay, utc_now) == 0
    assert relay.tries == 3  # one pass; the rest waits for the next round
    with server.sessions() as session:
        attempts = session.scalars(select(OutboxMessage.attempts).order_by(OutboxMessage.id))
        assert list(attempts) == [1, 1, 1, 0, 0, 0, 0, 0]


@pytest.mark.usefixtures("small_batches")
def test_the_loop_drains_a_backlog_without_waiting_between_passes(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = with_mails(engine, 11)
    relay = Relay()
    settings = Settings(address="pbem@example.org", delivery_seconds=60)
    stop, wake = threading.Event(), threading.Event()
    monkeypatch.setattr(delivery, "transport_for", lambda _settings: relay)
    loop = threading.Thread(
        target=delivery_loop, args=(server.sessions, settings, stop, wake, utc_now)
    )
    loop.start()
    try:
        deadline = time.monotonic() + 10
        while unsent(server) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert unsent(server) == 0  # four passes of three, not one a minute
    finally:
        stop.set()
        wake.set()
        loop.join(10)
    assert not loop.is_alive()
    assert len(relay.got) == 11


def test_pbem_deliver_sends_more_than_one_batch(processes: Processes, tmp_path: Path) -> None:
    url = upgraded_sqlite(tmp_path / "pbem.sqlite3")
    engine = make_engine(url)
    server = with_mails(engine, delivery.BATCH + 30)
    env = processes.env(database_url=url, maildir=str(tmp_path / "mail"), address="pbem@games.test")
    done = processes.run(
        [sys.executable, "-m", "pbem.cli", "deliver"],
        env=env,
        cwd=tmp_path,
        text=True,
        timeout=120,
        check=True,
    )
    assert f"deliver: {delivery.BATCH + 30} mails sent" in done.stdout
    assert len(os.listdir(tmp_path / "mail" / "new")) == delivery.BATCH + 30
    assert unsent(server) == 0
    engine.dispose()
