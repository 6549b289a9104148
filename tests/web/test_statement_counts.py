"""No page loads rows per board or per player in a loop: the number of SQL
statements a page or an API read runs does not grow with what it lists, on
SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event, select

from pbem.server import Server
from pbem.server.players.ratings import rate_finished_boards
from pbem.settings import Settings
from pbem.store import Ending, User, session_factory
from pbem.store.boards import apply_move, create_board, finish_board
from pbem.web import create_app

PAGES = [
    "/",
    "/vasco",
    "/vasco?show=finished",
    "/vasco/standings",
    "/players/p0",
    "/vasco/1",
    "/api/vasco/boards",
    "/api/vasco/boards?show=finished",
    "/api/vasco/standings",
    "/api/players/p0",
    "/api/vasco/boards/1",
    "/api/vasco/boards/1/svg",
]


class Counter:
    def __init__(self, engine: Engine) -> None:
        self.count = 0
        event.listen(engine, "before_cursor_execute", self._count)

    def _count(self, *args: object) -> None:
        self.count += 1


@pytest.fixture
def site(engine: Engine) -> Iterator[tuple[Server, TestClient, Counter]]:
    server = Server(session_factory(engine))
    for number in range(12):
        server.handle(f"p{number}@example.org", f"signup p{number} secret{number}")
    client = TestClient(create_app(server, Settings(secret_key="k" * 40)))
    yield server, client, Counter(engine)


def add_boards(server: Server, count: int) -> None:
    """`count` boards among the players, in every state: fresh, played,
    finished and rated."""
    now = datetime(2026, 11, 1)
    with server.sessions.begin() as session:
        users = list(session.scalars(select(User).order_by(User.id)))
        for number in range(count):
            first, second = users[number % 12], users[(number * 5 + 1) % 12]
            if first.id == second.id:
                second = users[(number + 1) % 12]
            board = create_board(session, "vasco", [], [first, second], now)
            if number % 3:
                apply_move(session, board, 0, "a0,0", now + timedelta(minutes=number))
            if number % 3 == 2:
                finish_board(
                    session,
                    board,
                    0,
                    "a resignation",
                    Ending.RESIGNATION,
                    now + timedelta(hours=number),
                )
        rate_finished_boards(session, now)


def statements(client: TestClient, counter: Counter) -> dict[str, int]:
    found = {}
    for path in PAGES:
        client.get(path)  # once to warm the caches
        counter.count = 0
        response = client.get(path)
        assert response.status_code == 200, (path, response.text[:300])
        found[path] = counter.count
    return found


def test_the_statements_of_a_page_do_not_grow_with_the_boards(
    site: tuple[Server, TestClient, Counter],
) -> None:
    server, client, counter = site
    add_boards(server, 6)
    few = statements(client, counter)
    add_boards(server, 90)
    many = statements(client, counter)
    assert many == few
    assert max(few.values()) <= 12, few
