"""argon2 runs with no transaction open, and a password verified once is not
verified again until it changes (server/players/passwords.py), on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from argon2 import PasswordHasher
from sqlalchemy import Engine, event

from pbem.server import Server
from pbem.server.players import passwords
from pbem.store import session_factory
from tests.server.test_commands import CheckedServer, Clock


class Watched:
    """Counts argon2 calls and checks that no transaction of the engine is
    open while one runs."""

    def __init__(self, engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
        self.open = 0
        self.lock = threading.Lock()
        self.verifies = 0
        self.hashes = 0
        self.inside: list[str] = []
        event.listen(engine, "begin", self._begin)
        event.listen(engine, "commit", self._end)
        event.listen(engine, "rollback", self._end)
        real = passwords.HASHER
        watched = self

        class Hasher(PasswordHasher):
            def verify(self, hash: str | bytes, password: str | bytes) -> bool:
                watched.verifies += 1
                watched._check("verify")
                return real.verify(hash, password)

            def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
                watched.hashes += 1
                watched._check("hash")
                return real.hash(password, salt=salt)

        monkeypatch.setattr(passwords, "HASHER", Hasher())
        monkeypatch.setattr(passwords, "VERDICTS", passwords.Verdicts())

    def _begin(self, connection: object) -> None:
        with self.lock:
            self.open += 1

    def _end(self, connection: object) -> None:
        with self.lock:
            self.open = max(0, self.open - 1)

    def _check(self, what: str) -> None:
        if self.open:
            self.inside.append(what)


@pytest.fixture
def watched(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> Watched:
    return Watched(engine, monkeypatch)


@pytest.fixture
def server(engine: Engine, watched: Watched) -> Iterator[Server]:
    yield CheckedServer(session_factory(engine), Clock())


def test_argon2_never_runs_inside_a_transaction(server: Server, watched: Watched) -> None:
    server.handle("ann@example.org", "signup ann annpass1")
    server.handle("bob@example.org", "signup bob bobpass1")
    server.handle("ann@example.org", "vasco challenge ann bob")
    server.handle("ann@example.org", "vasco move 1 ann annpass1 a0,0#1")
    server.handle("bob@example.org", "vasco move 1 bob wrongpass b1,0#2")
    server.handle("bob@example.org", "change password bob bobpass1 newpass1")
    server.check_login("ann", "annpass1")
    # two sign-ups and a change made hashes (each then known to match); only
    # bob's wrong password needed a check
    assert watched.hashes == 3 and watched.verifies == 1
    assert watched.inside == []


def test_a_verified_password_is_not_verified_again(server: Server, watched: Watched) -> None:
    server.handle("ann@example.org", "signup ann annpass1")  # made here: known to match
    server.handle("bob@example.org", "signup bob bobpass1")
    server.handle("ann@example.org", "vasco challenge ann bob")
    for number, move in enumerate(["a0,0", "b1,0", "a2,1"], start=1):
        who = "ann" if number % 2 else "bob"
        [*_] = server.handle(
            f"{who}@example.org", f"vasco move 1 {who} {who}pass1 {move}#{number}"
        ).mails
    assert server.check_login("ANN", "annpass1") == "ann"
    assert watched.verifies == 0


def test_a_wrong_password_is_refused_and_refused_again_without_more_work(
    server: Server, watched: Watched
) -> None:
    server.handle("ann@example.org", "signup ann annpass1")
    for _ in range(3):
        [error] = server.handle("ann@example.org", "vacation ann guess123 on").mails
        assert "do not match" in error.body
    assert watched.verifies == 1


def test_an_unknown_userid_costs_an_argon2_check_like_a_known_one(
    server: Server, watched: Watched
) -> None:
    server.handle("ann@example.org", "signup ann annpass1")
    [unknown] = server.handle("x@example.org", "vacation nobody guess123 on").mails
    [known] = server.handle("x@example.org", "vacation ann guess123 on").mails
    assert watched.verifies == 2
    first_line = [mail.body.split("\n")[0].replace("nobody", "ann") for mail in (unknown, known)]
    assert first_line[0] == first_line[1]


def test_after_a_password_change_only_the_new_password_works(
    server: Server, watched: Watched
) -> None:
    server.handle("ann@example.org", "signup ann annpass1")
    server.handle("ann@example.org", "vacation ann annpass1 on")  # remembered as matching
    server.handle("ann@example.org", "change password ann annpass1 newpass1")
    [refused] = server.handle("ann@example.org", "vacation ann annpass1 off").mails
    assert "do not match" in refused.body
    [done] = server.handle("ann@example.org", "vacation ann newpass1 off").mails
    assert done.subject == "pbem vacation ann off"


def test_another_process_never_trusts_a_verdict_about_the_old_password(
    engine: Engine, watched: Watched
) -> None:
    """Two servers (each with its own verdicts, as two processes have): a
    change made through one is honoured by the other at once."""
    one = Server(session_factory(engine), Clock())
    other = Server(session_factory(engine), Clock())
    one.handle("ann@example.org", "signup ann annpass1")
    other.handle("ann@example.org", "vacation ann annpass1 on")
    other_verdicts = passwords.VERDICTS
    passwords.VERDICTS = passwords.Verdicts()  # "one" is another process now
    try:
        one.handle("ann@example.org", "change password ann annpass1 newpass1")
    finally:
        passwords.VERDICTS = other_verdicts
    [refused] = other.handle("ann@example.org", "vacation ann annpass1 off").mails
    assert "do not match" in refused.body


def test_handed_out_argon2_work_comes_back_to_the_door(
    server: Server, watched: Watched, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within `handed_out` a command that needs argon2 raises PasswordWork
    with nothing done (the web does it in threads of its own: web/
    password_lane.py); run again after that work, it goes on."""
    server.handle("ann@example.org", "signup ann annpass1")
    monkeypatch.setattr(passwords, "VERDICTS", passwords.Verdicts())  # (a process afresh)
    with passwords.handed_out(), pytest.raises(passwords.PasswordWork) as login:
        server.check_login("ann", "annpass1")
    with passwords.handed_out(), pytest.raises(passwords.PasswordWork) as change:
        server.handle("ann@example.org", "vacation ann annpass1 on")
    assert watched.verifies == 0
    login.value.do()
    assert (login.value.password, change.value.password) == ("annpass1", "annpass1")
    with passwords.handed_out():
        assert server.check_login("ann", "annpass1") == "ann"
        [done] = server.handle("ann@example.org", "vacation ann annpass1 on").mails
    assert done.subject == "pbem vacation ann on"
    assert watched.verifies == 1


def test_a_multiple_mail_does_its_argon2_work_itself(
    server: Server, watched: Watched, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its lines before the one that needs argon2 are done already, so it
    cannot start again: its work is never handed out, and each line runs once."""
    server.handle("ann@example.org", "signup ann annpass1")
    server.handle("bob@example.org", "signup bob bobpass1")
    monkeypatch.setattr(passwords, "VERDICTS", passwords.Verdicts())  # (a process afresh)
    body = "vacation ann annpass1 on\nvacation bob bobpass1 on\n"
    with passwords.handed_out():
        sent = server.handle("ann@example.org", "multiple", body)
    assert [mail.subject for mail in sent.mails] == ["pbem vacation ann on", "pbem vacation bob on"]
    assert watched.verifies == 2
