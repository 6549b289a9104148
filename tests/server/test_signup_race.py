"""Signups racing for one userid, on SQLite and PostgreSQL: one account is
made, every other sender gets a clear refusal (never a crash), and no log
line holds a password hash."""

from __future__ import annotations

import logging
import threading

import pytest
from sqlalchemy import Engine, func, select
from sqlalchemy.exc import IntegrityError

from pbem.server import Server
from pbem.store import User, session_factory
from tests.server.test_commands import Clock

PERSON = User.bot_level.is_(None)  # the database's own bots are no one's signup


def test_racing_signups_make_one_account_and_refuse_the_rest(
    engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    server = Server(session_factory(engine), Clock())
    start = threading.Barrier(12)
    subjects: list[str] = []
    crashes: list[BaseException] = []

    def sign_up(n: int) -> None:
        start.wait(30)
        try:
            [reply] = server.handle(f"racer{n}@example.org", f"signup same pass-{n}-word").mails
            subjects.append(reply.subject)
            if reply.subject.startswith("pbem error"):
                assert "taken" in reply.body, reply.body
        except BaseException as error:  # collected, then asserted empty
            crashes.append(error)

    threads = [threading.Thread(target=sign_up, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert crashes == []
    assert subjects.count("pbem signup same") == 1 and len(subjects) == 12
    with server.sessions() as session:
        assert session.scalar(select(func.count()).select_from(User).where(PERSON)) == 1
    assert "$argon2" not in caplog.text


def test_a_database_error_never_shows_the_values_it_was_given(engine: Engine) -> None:
    server = Server(session_factory(engine), Clock())
    server.handle("ann@example.org", "signup ann annpass1")
    with server.sessions() as session:
        stored = session.scalars(select(User).where(PERSON)).one().password_hash
    with pytest.raises(IntegrityError) as raised, server.sessions.begin() as session:
        session.add(
            User(
                userid="ann",
                userid_key="ann",
                password_hash=stored,
                mail_preference="every",
                vacation=False,
                created_at=Clock()(),
            )
        )
    assert stored not in str(raised.value) and "$argon2" not in str(raised.value)
