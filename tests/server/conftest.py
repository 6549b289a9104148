"""Fixtures of the command layer's tests: a clock tests move by hand, and a
server on the test's database (SQLite and PostgreSQL) that keeps it. A test
file may define its own `server` for other needs."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from pbem.server import Server
from pbem.store import session_factory
from tests.server.test_commands import CheckedServer, Clock


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def server(engine: Engine, clock: Clock) -> Server:
    return CheckedServer(session_factory(engine), clock)
