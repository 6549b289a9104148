"""The delivery process killed in the middle of sending, then restarted:
nothing is lost, and only the mail in flight may arrive twice (which SMTP
itself allows: the relay took it, but the 250 never came back)."""

from __future__ import annotations

import collections
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from pbem.mail.delivery import SmtpTransport, deliver_due
from pbem.server import Server
from pbem.server.service import utc_now
from pbem.settings import Settings
from pbem.store import OutboxMessage, make_engine, session_factory
from tests.databases import upgraded_sqlite
from tests.mail.smtp_world import start_world
from tests.processes import Processes

ROOT = Path(__file__).resolve().parents[2]


def test_a_killed_delivery_loses_nothing(processes: Processes, tmp_path: Path) -> None:
    url = upgraded_sqlite(tmp_path / "pbem.sqlite3")
    engine = make_engine(url)
    server = Server(session_factory(engine))
    for name in ("ann", "ben", "cat", "dan", "eve"):
        server.handle(f"{name}@example.org", f"signup {name} secret-{name}")
    world, relay = start_world()
    entered, release = threading.Event(), threading.Event()

    def hold_the_third() -> None:
        if len(world.mails) == 2:
            entered.set()
            release.wait(30)

    world.before_data = hold_the_third
    env = processes.env(
        database_url=url, smtp_url=f"smtp://127.0.0.1:{relay.port}", address="pbem@games.test"
    )
    process = processes.start(
        [sys.executable, "-m", "pbem.cli", "deliver"], env=env, cwd=tmp_path, stderr=subprocess.PIPE
    )
    try:
        assert entered.wait(60), process.stderr.read() if process.stderr else ""
        processes.kill(process)
    finally:
        release.set()
    time.sleep(0.2)  # the relay finishes taking the third mail
    settings = Settings(address="pbem@games.test", smtp_url=env["PBEM_SMTP_URL"])
    with server.sessions() as session:
        rows = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
        assert [r.sent_at is not None for r in rows] == [True, True, False, False, False]
    transport = SmtpTransport(settings.smtp_url)
    later = utc_now() + timedelta(minutes=6)  # the dead loop's lease on the third is over
    assert deliver_due(server.sessions, settings, transport, later) == 3
    relay.stop()
    engine.dispose()
    counts = collections.Counter(str(mail["Subject"]) for mail in world.mails)
    assert set(counts) == {f"pbem signup {n}" for n in ("ann", "ben", "cat", "dan", "eve")}
    assert counts["pbem signup cat"] == 2  # in flight when killed: SMTP's one duplicate
    assert all(counts[f"pbem signup {n}"] == 1 for n in ("ann", "ben", "dan", "eve"))
    ids = collections.Counter(str(mail["Message-ID"]) for mail in world.mails)
    assert len(ids) == 5  # the duplicate carries the same Message-ID, so clients merge it
