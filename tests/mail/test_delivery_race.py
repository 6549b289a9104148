"""Two delivery loops on one outbox with a slow relay: every mail is sent
exactly once. Mails are claimed a few at a time, each claim leased from
when it is taken (a lease dated from the start of a pass, as once, had run
out before the pass reached its later mails, and the other loop sent those
again), and a claim whose lease is half gone is given back unsent."""

from __future__ import annotations

import itertools
import threading
import time
from collections import Counter
from email.message import EmailMessage

import pytest
from sqlalchemy import Engine, select

from pbem.mail import delivery
from pbem.mail.delivery import claim, deliver_due
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


def with_mails(engine: Engine, count: int) -> Server:
    """A server with `count` mails in its outbox (answers to `help`)."""
    server = Server(session_factory(engine))
    for n in range(count):
        server.handle(f"p{n}@example.org", "help")
    return server


def test_two_loops_and_a_slow_relay_send_each_mail_once(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A lease shorter than a claim's turn (20 mails at 0.3 s), as a slow
    # relay makes it, and long enough that a loaded machine's pauses (a
    # statement or a thread held up for a quarter second) stay well within
    # its half: at 0.5 s, a run beside two other test runs sent a mail twice.
    monkeypatch.setattr(delivery, "LEASE", delivery.timedelta(seconds=2.0))
    server = with_mails(engine, 24)
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


def test_a_claim_takes_a_few_mails_at_once_and_another_claim_skips_them(engine: Engine) -> None:
    """One statement claims up to its count of the oldest due mails, fixes
    each one's Message-ID and leases them; the next claim takes the next
    ones, and on PostgreSQL skips the rows another loop's claim holds."""
    with_mails(engine, 25)
    settings = Settings(address="pbem@example.org")
    now = utc_now()
    first = claim(engine, settings, now, 20)
    second = claim(engine, settings, now, 20)
    assert [row.id for row in first] == list(range(1, 21))
    assert [row.id for row in second] == list(range(21, 26))
    assert claim(engine, settings, now, 20) == []  # all leased
    ids = [row.message_id for row in first + second]
    assert len(set(ids)) == 25 and all(i and i.startswith("<") and i.endswith(">") for i in ids)
    later = now + delivery.LEASE + delivery.timedelta(seconds=1)
    again = claim(engine, settings, later, 5)  # leases over: due again, same Message-IDs
    assert [row.message_id for row in again] == ids[:5]
    if engine.dialect.name == "postgresql":
        with engine.begin() as holding:  # another loop's claim, not yet committed
            held = (
                holding.execute(
                    select(OutboxMessage.id).where(OutboxMessage.id > 5).limit(3).with_for_update()
                )
                .scalars()
                .all()
            )
            assert held == [6, 7, 8]
            taken = claim(engine, settings, later, 4)
            assert [row.id for row in taken] == [9, 10, 11, 12]


def test_a_pass_gives_back_a_claim_whose_lease_is_half_gone(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relay too slow for a claim's lease: the pass sends what it can
    within half the lease, gives the rest back (due at once, Message-IDs
    kept) and claims again, so each mail goes out once, none after its
    lease ran out."""
    monkeypatch.setattr(delivery, "LEASE", delivery.timedelta(seconds=1))
    server = with_mails(engine, 5)
    settings = Settings(address="pbem@example.org")
    got: Counter[str] = Counter()

    class Watching(SlowRelay):
        def send(self, message: EmailMessage, sender: str, recipients: list[str]) -> None:
            with server.sessions() as session:  # its own row is still leased, not yet sent
                row = session.scalars(
                    select(OutboxMessage).where(
                        OutboxMessage.message_id == str(message["Message-ID"])
                    )
                ).one()
                assert row.sent_at is None and row.next_attempt_at > utc_now()
            super().send(message, sender, recipients)

    seen: list[list[int]] = []
    original = delivery.claim

    def claiming(*args: object, **kwargs: object) -> list[OutboxMessage]:
        rows = original(*args, **kwargs)  # type: ignore[arg-type]
        seen.append([row.id for row in rows])
        return rows

    monkeypatch.setattr(delivery, "claim", claiming)
    assert deliver_due(server.sessions, settings, Watching(got), utc_now()) == 5
    assert sum(got.values()) == 5 and set(got.values()) == {1}
    # 0.3 s a mail against 0.5 s, half the lease: two from each claim at most
    # (one when the machine is slow enough that the second starts too late),
    # the rest given back and claimed again: [[1, 2, 3, 4, 5], [3, 4, 5], [5], []]
    assert seen[0] == [1, 2, 3, 4, 5] and seen[-1] == []
    for claimed, again in itertools.pairwise(seen):
        sent = len(claimed) - len(again)
        assert 1 <= sent <= 2 and again == claimed[sent:], seen
    with server.sessions() as session:
        rows = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
    assert all(row.sent_at is not None and row.attempts == 1 for row in rows)
    assert sorted(got) == sorted(str(row.message_id) for row in rows)
