"""Password guessing is throttled per userid and per source, by mail and on
the web; an unknown userid is throttled like a known one; the block lifts
once the failures are a window old."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from pbem.server import Server
from pbem.server.players import throttle
from pbem.server.players.throttle import PER_SOURCE, PER_USERID, WINDOW, Failures
from pbem.settings import Settings
from pbem.store import session_factory
from pbem.web import create_app
from tests.server.test_commands import Clock, signup

BLOCKED = "Too many wrong passwords lately"


class Seconds:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def seconds(monkeypatch: pytest.MonkeyPatch) -> Seconds:
    clock = Seconds()
    monkeypatch.setattr(throttle, "FAILURES", Failures(clock))
    return clock


@pytest.fixture
def server(engine: Engine) -> Server:
    server = Server(session_factory(engine), Clock())
    signup(server, "alice", "bob")
    server.handle("alice@example.org", "vasco challenge alice bob")
    return server


def mailed(server: Server, sender: str, line: str) -> str:
    """Every body the command's mails hold, together."""
    return "\n".join(reply.body for reply in server.handle(sender, line).mails)


@pytest.mark.parametrize("userid", ["alice", "nosuchuser"])
def test_a_userid_is_blocked_after_its_limit_then_freed(
    server: Server, seconds: Seconds, userid: str
) -> None:
    for n in range(PER_USERID):  # from ten different addresses: the userid's own limit
        body = mailed(server, f"guesser{n}@example.org", f"vacation {userid} guess{n} on")
        assert BLOCKED not in body
    blocked = mailed(server, "x@example.org", f"vasco move 1 {userid} pw-{userid} a0,0")
    assert BLOCKED in blocked and "15 more minutes" in blocked
    # another player is not touched
    assert BLOCKED not in mailed(server, "bob@example.org", "vacation bob pw-bob on")
    seconds.now += WINDOW + 1
    after = mailed(server, "alice@example.org", f"vasco move 1 {userid} pw-{userid} a0,0")
    assert BLOCKED not in after


def test_a_source_is_blocked_after_its_limit(server: Server, seconds: Seconds) -> None:
    for n in range(PER_SOURCE):  # thirty userids from one address
        mailed(server, "guesser@example.org", f"vacation user{n} guess on")
    assert BLOCKED in mailed(server, "guesser@example.org", "vacation bob pw-bob on")
    assert BLOCKED not in mailed(server, "bob@example.org", "vacation bob pw-bob on")


def test_the_web_login_is_throttled_by_userid(server: Server, seconds: Seconds) -> None:
    client = TestClient(create_app(server, Settings(secret_key="k" * 40)))
    page = client.get("/login").text
    token = page.split('name="csrf" value="')[1].split('"')[0]
    answers = [
        client.post("/login", data={"csrf": token, "userid": "alice", "password": f"g{n}"})
        for n in range(PER_USERID + 1)
    ]
    assert all(a.status_code == 403 for a in answers)
    assert BLOCKED not in answers[-2].text and BLOCKED in answers[-1].text
    right = client.post("/login", data={"csrf": token, "userid": "alice", "password": "pw-alice"})
    assert BLOCKED in right.text  # not even the right password, until the window passes
    seconds.now += WINDOW + 1
    right = client.post(
        "/login", data={"csrf": token, "userid": "alice", "password": "pw-alice"},
        follow_redirects=False,
    )  # fmt: skip
    assert right.status_code == 303


def test_api_token_guessing_is_throttled_by_source(server: Server, seconds: Seconds) -> None:
    client = TestClient(create_app(server, Settings(secret_key="k" * 40)))
    answers = [
        client.get("/api/me", headers={"Authorization": f"Bearer pbem_guess{n}"}).status_code
        for n in range(PER_SOURCE + 1)
    ]
    assert answers[:PER_SOURCE] == [401] * PER_SOURCE and answers[-1] == 429
    seconds.now += WINDOW + 1
    assert client.get("/api/me", headers={"Authorization": "Bearer pbem_x"}).status_code == 401
