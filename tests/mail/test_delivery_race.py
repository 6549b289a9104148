"""Two delivery loops on one outbox with a slow relay: every mail is sent
exactly once. A lease is taken per mail, when it is taken; a lease dated from
the start of a pass (as once) had run out before the pass reached its later
mails, and the other loop sent those again."""

from __future__ import annotations

import threading
import time
from collections import Counter
from email.message import EmailMessage

import pytest
from sqlalchemy import Engine, select

from pbem.mail import delivery
from pbem.mail.delivery import deliver_due
from pbem.server import Server
from pbem.server.service import utc_now
from pbem.settings import Settings
from pbem.store import OutboxMessage, session_factory

SECONDS_PER_MAIL = 0.3


class SlowRelay:
    """A relay that takes a while over each mail, and counts what it got."""

    description = "a slow relay"

    def __init__(self, got: Counter[str]) -> None:
        self.got = got

    def send(self, message: EmailMessage, sender: str, recipients: list[str]) -> None:
        time.sleep(SECONDS_PER_MAIL)
        self.got[str(message["Message-ID"])] += 1

    def close(self) -> None:
        pass


def test_two_loops_and_a_slow_relay_send_each_mail_once(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a lease shorter than a pass (24 mails at 0.3 s), as a slow relay makes it
    monkeypatch.setattr(delivery, "LEASE", delivery.timedelta(seconds=0.5))
    server = Server(session_factory(engine))
    for n in range(24):
        server.handle(f"p{n}@example.org", "help")
    settings = Settings(address="pbem@example.org")
    got: Counter[str] = Counter()
    stop = time.monotonic() + 12

    def loop(delay: float) -> None:
        time.sleep(delay)  # the second loop starts its pass while the first is deep in one
        relay = SlowRelay(got)
        while time.monotonic() < stop:
            deliver_due(server.sessions, settings, relay, utc_now())
            time.sleep(0.05)

    loops = [threading.Thread(target=loop, args=(delay,)) for delay in (0.0, 1.0)]
    for thread in loops:
        thread.start()
    for thread in loops:
        thread.join(30)
    with server.sessions() as session:
        rows = session.scalars(select(OutboxMessage)).all()
    assert len(rows) == 24 and all(row.sent_at is not None for row in rows)
    assert sum(got.values()) == 24 and set(got.values()) == {1}
