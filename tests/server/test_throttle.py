"""Password guessing is throttled per userid and per client, in the database:
every process and server counts the same failures (two `Server`s, `pbem
receive` processes). Past a limit a key is paced, not shut; an unknown
userid is throttled like a known one; a flood of bad tokens or passwords
from one client never refuses a valid token or another client's right
password; X-Forwarded-For is believed from the trusted proxies only."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select

from pbem.server import Server, api_tokens
from pbem.server.players import throttle
from pbem.server.players.throttle import PER_SOURCE, PER_USERID, SOURCE_PACE, USER_PACE
from pbem.settings import Settings
from pbem.store import OutboxMessage, make_engine, session_factory
from pbem.web import create_app
from pbem.web.clients import client_address
from tests.processes import Processes
from tests.server.test_commands import Clock, signup

BLOCKED = "Too many wrong passwords lately"


class Moments:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 9, 0)

    def __call__(self) -> datetime:
        return self.now

    def wait(self, span: timedelta) -> None:
        self.now += span + timedelta(seconds=1)


@pytest.fixture
def moments(monkeypatch: pytest.MonkeyPatch) -> Moments:
    clock = Moments()
    monkeypatch.setattr(throttle, "clock", clock)
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


def web(server: Server, peer: str = "203.0.113.9", proxies: str = "") -> TestClient:
    settings = Settings(secret_key="k" * 40, trusted_proxies=proxies)
    return TestClient(create_app(server, settings), client=(peer, 50000))


def log_in(client: TestClient, userid: str, password: str, **headers: str) -> tuple[int, str]:
    page = client.get("/login").text
    csrf = page.split('name="csrf" value="')[1].split('"')[0]
    answer = client.post(
        "/login", data={"csrf": csrf, "userid": userid, "password": password},
        headers=headers, follow_redirects=False,
    )  # fmt: skip
    return answer.status_code, answer.text


@pytest.mark.parametrize("userid", ["alice", "nosuchuser"])
def test_a_userid_is_paced_after_its_limit(server: Server, moments: Moments, userid: str) -> None:
    for n in range(PER_USERID):  # from ten different addresses: the userid's own limit
        body = mailed(server, f"guesser{n}@example.org", f"vacation {userid} guess{n} on")
        assert BLOCKED not in body
    blocked = mailed(server, "x@example.org", f"vasco move 1 {userid} pw-{userid} a0,0")
    assert BLOCKED in blocked and "more seconds" in blocked
    assert BLOCKED not in mailed(server, "bob@example.org", "vacation bob pw-bob on")
    moments.wait(USER_PACE)  # paced, not shut: the owner gets in a pace later
    after = mailed(server, "alice@example.org", f"vasco move 1 {userid} pw-{userid} a0,0")
    assert BLOCKED not in after
    if userid == "alice":
        assert "do not match" not in after


def test_a_client_is_paced_after_its_limit(server: Server, moments: Moments) -> None:
    for n in range(PER_SOURCE):  # thirty userids from one address
        mailed(server, "guesser@example.org", f"vacation user{n} guess on")
    assert BLOCKED in mailed(server, "guesser@example.org", "vacation bob guess on")
    assert BLOCKED not in mailed(server, "bob@example.org", "vacation bob pw-bob on")
    # (a right password this process has checked before is taken from anyone)
    assert BLOCKED not in mailed(server, "guesser@example.org", "vacation bob pw-bob off")
    moments.wait(SOURCE_PACE)
    assert BLOCKED not in mailed(server, "guesser@example.org", "vacation user0 guess on")
    assert BLOCKED in mailed(server, "guesser@example.org", "vacation user1 guess on")


def test_the_web_login_is_paced_by_userid(server: Server, moments: Moments) -> None:
    client = web(server)
    answers = [log_in(client, "alice", f"g{n}") for n in range(PER_USERID + 1)]
    assert all(code == 403 for code, _ in answers)
    assert BLOCKED not in answers[-2][1] and BLOCKED in answers[-1][1]
    assert BLOCKED in log_in(client, "alice", "pw-alice")[1]  # within the pace
    moments.wait(USER_PACE)
    assert log_in(client, "alice", "pw-alice")[0] == 303


def test_a_flood_of_bad_tokens_locks_out_no_one(server: Server, moments: Moments) -> None:
    token = api_tokens.make_token(server, "alice", "mine")
    client = web(server, peer="127.0.0.1")
    answers = [
        client.get("/api/me", headers={"Authorization": f"Bearer pbem_guess{n}"}).status_code
        for n in range(130)
    ]
    assert answers[:PER_SOURCE] == [401] * PER_SOURCE and set(answers[PER_SOURCE:]) == {429}
    mine = client.get("/api/me", headers={"Authorization": f"Bearer {token}"})
    assert mine.status_code == 200 and mine.json()["userid"] == "alice"
    assert log_in(client, "bob", "pw-bob")[0] == 303  # the same address, another user


def test_x_forwarded_for_is_believed_from_trusted_proxies_only(
    server: Server, moments: Moments
) -> None:
    stranger = web(server, peer="198.51.100.7")
    for n in range(PER_SOURCE):  # a new address named each time: still one client
        log_in(stranger, f"user{n}", "guess", **{"X-Forwarded-For": f"10.9.{n}.1"})
    code, text = log_in(stranger, "user99", "guess", **{"X-Forwarded-For": "10.99.0.1"})
    assert code == 403 and BLOCKED in text
    proxy = web(server, peer="127.0.0.1", proxies="127.0.0.1, ::1")
    for n in range(PER_SOURCE):  # one client behind the proxy, counted as itself
        log_in(proxy, f"user{n}", "guess", **{"X-Forwarded-For": "6.6.6.6"})
    assert BLOCKED in log_in(proxy, "user99", "guess", **{"X-Forwarded-For": "6.6.6.6"})[1]
    assert log_in(proxy, "bob", "pw-bob", **{"X-Forwarded-For": "7.7.7.7"})[0] == 303


def test_the_client_is_the_rightmost_untrusted_address() -> None:
    proxies = Settings(trusted_proxies="10.0.0.0/8,127.0.0.1").trusted_networks
    assert client_address("127.0.0.1", ["1.1.1.1, 2.2.2.2, 10.1.1.1"], proxies) == "2.2.2.2"
    assert client_address("127.0.0.1", ["1.1.1.1", "10.1.1.1"], proxies) == "1.1.1.1"
    assert client_address("5.5.5.5", ["1.1.1.1"], proxies) == "5.5.5.5"  # not a proxy
    assert client_address("127.0.0.1", [], proxies) == "127.0.0.1"
    assert client_address("127.0.0.1", ["nonsense, 10.2.2.2"], proxies) == "10.2.2.2"
    assert client_address("127.0.0.1", ["1.1.1.1"], ()) == "127.0.0.1"  # none trusted


def test_two_servers_count_the_same_failures(engine: Engine, moments: Moments) -> None:
    first = Server(session_factory(engine), Clock())
    signup(first, "alice")
    second = Server(
        session_factory(make_engine(engine.url.render_as_string(hide_password=False))), Clock()
    )
    for n in range(PER_USERID // 2):
        assert BLOCKED not in mailed(first, f"g{n}@example.org", f"vacation alice guess{n} on")
        assert BLOCKED not in mailed(second, f"h{n}@example.org", f"vacation alice guess{n} on")
    assert BLOCKED in mailed(first, "i@example.org", "vacation alice guess on")
    assert BLOCKED in mailed(second, "i@example.org", "vacation alice guess on")


def test_pbem_receive_processes_share_the_count(
    engine: Engine, database_url: str, processes: Processes, tmp_path: Path
) -> None:
    signup(Server(session_factory(engine), Clock()), "alice")
    env = processes.env(database_url=database_url)
    for n in range(15):  # a fresh process for each mail, as a mail server runs it
        sent = (
            f"From: g@example.org\r\nTo: pbem@localhost\r\nSubject: vacation alice guess{n} on\r\n"
            f"Message-ID: <guess{n}@example.org>\r\n\r\n"
        ).encode()
        command = [sys.executable, "-m", "pbem.cli", "receive"]
        subprocess.run(command, input=sent, env=env, cwd=tmp_path, check=True, timeout=120)
    with session_factory(engine)() as session:
        rows = session.execute(
            select(OutboxMessage.recipients, OutboxMessage.body).order_by(OutboxMessage.id)
        ).all()
    bodies = [body for recipients, body in rows if recipients == ["g@example.org"]]
    answers = ["blocked" if BLOCKED in body else "checked" for body in bodies]
    assert answers == ["checked"] * PER_USERID + ["blocked"] * (15 - PER_USERID)
