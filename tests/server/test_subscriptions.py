"""Subscribers get copies of board mails; `all` follows every new board;
`newboards` announces new boards; each mail says how to stop it."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from pbem.server import Server
from pbem.store import session_factory
from tests.server.test_commands import CheckedServer, Clock, signup


@pytest.fixture
def server(engine: Engine) -> Server:
    server = CheckedServer(session_factory(engine), Clock())
    signup(server, "alice", "bob", "carol", "dave")
    return server


def test_a_subscriber_gets_copies_and_is_named_on_the_board(server: Server) -> None:
    server.handle("alice@example.org", "vasco challenge alice bob")
    [ok] = server.handle("carol@example.org", "vasco subscribe carol pw-carol 1").mails
    assert "copies of the mails of board 1" in ok.body
    messages = server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    copies = [m for m in messages.mails if m.to == ("carol@example.org",)]
    assert len(copies) == 1 and "vasco unsubscribe carol PASSWORD 1" in copies[0].body
    assert all("Subscribers: carol." in m.body for m in messages.mails)
    server.handle("carol@example.org", "vasco unsubscribe carol pw-carol 1")
    messages = server.handle("bob@example.org", "vasco move 1 bob pw-bob b1,0")
    assert all(m.to != ("carol@example.org",) for m in messages.mails)


def test_subscribing_to_all_follows_every_new_board(server: Server) -> None:
    [ok] = server.handle("carol@example.org", "trugo subscribe carol pw-carol all").mails
    assert "every new Trugo board" in ok.body
    messages = server.handle("alice@example.org", "trugo challenge alice bob")
    assert ("carol@example.org",) in [m.to for m in messages.mails]
    messages = server.handle("alice@example.org", "vasco challenge alice bob")
    assert ("carol@example.org",) not in [m.to for m in messages.mails]


def test_newboards_announces_new_boards(server: Server) -> None:
    server.handle("dave@example.org", "vacu newboards dave pw-dave on")
    messages = server.handle("alice@example.org", "vacu challenge alice bob -komi=6")
    [news] = [m for m in messages.mails if m.to == ("dave@example.org",)]
    assert news.subject == "Vacu Board 1 started" and "newboards dave PASSWORD off" in news.body
    server.handle("dave@example.org", "vacu newboards dave pw-dave off")
    messages = server.handle("alice@example.org", "vacu challenge alice bob -komi=6")
    assert ("dave@example.org",) not in [m.to for m in messages.mails]


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("vasco subscribe carol pw-carol", "Write this command as: vasco subscribe"),
        ("vasco subscribe carol pw-carol 9", "There is no Vasco board 9"),
        ("vasco subscribe carol wrong all", "do not match"),
        ("vasco newboards carol pw-carol maybe", "newboards USERID PASSWORD on|off"),
        ("vasco notify carol pw-carol maybe", "notify USERID PASSWORD [BOARD ...] [on|off]"),
    ],
)
def test_subscription_errors(server: Server, line: str, words: str) -> None:
    [error] = server.handle("carol@example.org", line).mails
    assert words in error.body
