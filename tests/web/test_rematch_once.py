"""A rematch is made once, however many times it is asked for: the form
sent twice, or both players clicking at the same moment (on SQLite and
PostgreSQL), makes one board, and every later click goes to it."""

from __future__ import annotations

import threading

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from pbem.server import Server
from pbem.store import Board
from tests.web.test_api import BOTH_ENGINES, bearer, client, server, tokens  # noqa: F401
from tests.web.test_open_challenges_web import signed_up_as
from tests.web.test_pages import csrf, flashes


def finished_board(client: TestClient, server: Server, token: str) -> None:  # noqa: F811
    made = client.post(
        "/api/vasco/boards", json={"first": "alice", "second": "bob"}, headers=bearer(token)
    )
    assert made.status_code == 201, made.text
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    server.handle("bob@example.org", "vasco resign 1 bob pw-bob")


def boards(server: Server) -> int:  # noqa: F811
    with server.sessions() as session:
        return session.scalar(select(func.count()).select_from(Board)) or 0


def test_a_rematch_form_sent_twice_makes_one_board(
    client: TestClient,  # noqa: F811
    server: Server,  # noqa: F811
    tokens: dict[str, str],  # noqa: F811
) -> None:
    finished_board(client, server, tokens["alice"])
    alice = signed_up_as(server, "alice")
    token = csrf(alice, "/vasco/1")
    first = alice.post("/vasco/1/rematch", data={"csrf": token})
    second = alice.post("/vasco/1/rematch", data={"csrf": token})  # the double click
    assert "Board 2 started: the rematch of board 1" in " ".join(flashes(first.text))
    assert "Board 2 is the rematch of board 1, made already" in " ".join(flashes(second.text))
    assert str(second.url).endswith("/vasco/2")
    bob = signed_up_as(server, "bob")  # the other player's click goes there too
    theirs = bob.post("/vasco/1/rematch", data={"csrf": csrf(bob, "/vasco/1")})
    assert str(theirs.url).endswith("/vasco/2")
    assert boards(server) == 2
    with server.sessions() as session:
        assert [p.user.userid for p in session.get_one(Board, 2).players] == ["bob", "alice"]
    # The rematch's own rematch is a new board.
    server.handle("bob@example.org", "vasco move 2 bob pw-bob a0,0")
    server.handle("alice@example.org", "vasco resign 2 alice pw-alice")
    again = alice.post("/vasco/2/rematch", data={"csrf": csrf(alice, "/vasco/2")})
    assert "Board 3 started: the rematch of board 2" in " ".join(flashes(again.text))


@BOTH_ENGINES
def test_rematch_clicks_racing_make_one_board(
    client: TestClient,  # noqa: F811
    server: Server,  # noqa: F811
    tokens: dict[str, str],  # noqa: F811
) -> None:
    finished_board(client, server, tokens["alice"])
    browsers = [signed_up_as(server, name) for name in ("alice", "bob", "alice", "bob")]
    forms = [csrf(browser, "/vasco/1") for browser in browsers]
    start = threading.Barrier(len(browsers))
    landed: list[str] = []

    def click(browser: TestClient, token: str) -> None:
        start.wait(30)
        landed.append(str(browser.post("/vasco/1/rematch", data={"csrf": token}).url))

    threads = [
        threading.Thread(target=click, args=pair) for pair in zip(browsers, forms, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert boards(server) == 2
    assert len(landed) == len(browsers) and all(url.endswith("/vasco/2") for url in landed)
