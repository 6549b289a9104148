"""Busy is an answer (issue 50, findings 10 and 14): with SQLite's write
lock held by someone else past the bounded wait, a page read answers at
once, a write through the API or a form answers 503 with Retry-After within
the bound; on PostgreSQL, every connection cut (what a restart does to the
pool) gives 503s, never a 500, and the requests after it answer again."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine, text

from pbem.server import Server
from pbem.settings import Settings
from pbem.store import make_engine, session_factory
from pbem.web import create_app
from pbem.web.app import BUSY_RETRY_SECONDS
from tests.conftest import upgraded_database_url
from tests.databases import upgraded_sqlite
from tests.server.test_commands import Clock
from tests.web.test_api import bearer, make_token
from tests.web.test_open_challenges_web import signed_up_as
from tests.web.test_pages import csrf

BOUND = 2.0  # seconds (PBEM_DATABASE_WAIT)


@pytest.fixture
def engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    monkeypatch.setenv("PBEM_DATABASE_WAIT", str(BOUND))
    engine = make_engine(upgraded_sqlite(tmp_path / "pbem.sqlite3"))
    yield engine
    engine.dispose()


def hold_write_lock(engine: Engine) -> int:
    """Another writer's turn, held until the descriptor is closed."""
    held = os.open(f"{engine.url.database}.write-lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(held, fcntl.LOCK_EX)
    return held


def test_a_held_sqlite_write_lock_answers_busy_and_reads_go_on(engine: Engine) -> None:
    server = Server(session_factory(engine), Clock())
    token = make_token(server, "alice")
    make_token(server, "bob")
    client = TestClient(create_app(server, Settings(secret_key="k" * 32)))
    alice = signed_up_as(server, "alice")
    form = csrf(alice, "/vasco")
    held = hold_write_lock(engine)
    try:
        for path in ("/", "/vasco", "/api/vasco/boards"):
            started = time.monotonic()
            page = client.get(path)
            assert page.status_code == 200, (path, page.text[:300])
            assert time.monotonic() - started < 1.0, path

        started = time.monotonic()
        made = client.post(
            "/api/vasco/boards", json={"first": "alice", "second": "bob"}, headers=bearer(token)
        )
        waited = time.monotonic() - started
        assert made.status_code == 503, made.text[:300]
        assert made.headers["Retry-After"] == str(BUSY_RETRY_SECONDS)
        assert "nothing you sent was done" in made.json()["error"]
        assert BOUND - 0.1 <= waited < BOUND + 2

        started = time.monotonic()
        page = alice.post(
            "/vasco/challenge",
            data={"csrf": form, "first": "alice", "second": "bob"},
            follow_redirects=False,
        )
        assert page.status_code == 503, page.text[:300]
        assert page.headers["Retry-After"] == str(BUSY_RETRY_SECONDS)
        assert "Try again" in page.text
        assert time.monotonic() - started < BOUND + 2
    finally:
        os.close(held)
    # The lock given back, the same write goes through, and nothing was made before.
    made = client.post(
        "/api/vasco/boards", json={"first": "alice", "second": "bob"}, headers=bearer(token)
    )
    assert made.status_code == 201, made.text[:300]
    assert made.json()["board"]["id"] == 1, made.json()  # (the 503s made nothing)


def end_every_connection(url: str) -> None:
    """What a PostgreSQL restart does to a pool: every backend ended."""
    server, _, name = url.rpartition("/")
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": name},
            )
    finally:
        admin.dispose()


@pytest.mark.postgresql
def test_a_postgresql_restart_answers_503_never_500(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_DATABASE_WAIT", str(BOUND))
    url = upgraded_database_url("postgresql", request, tmp_path)
    engine = make_engine(url)
    try:
        server = Server(session_factory(engine), Clock())
        token = make_token(server, "alice")
        make_token(server, "bob")
        client = TestClient(create_app(server, Settings(secret_key="k" * 32)))
        for _ in range(3):  # several connections in the pool
            made = client.post(
                "/api/vasco/boards", json={"first": "alice", "second": "bob"}, headers=bearer(token)
            )
            assert made.status_code == 201, made.text[:300]
            assert client.get("/vasco").status_code == 200
        statuses: list[int] = []
        for round_ in range(6):
            end_every_connection(url)
            for _ in range(3):
                page = client.get("/api/vasco/boards" if round_ % 2 else "/vasco")
                statuses.append(page.status_code)
                if page.status_code == 503:
                    assert page.headers["Retry-After"] == str(BUSY_RETRY_SECONDS)
                made = client.post(
                    "/api/vasco/boards",
                    json={"first": "alice", "second": "bob"},
                    headers=bearer(token),
                )
                statuses.append(made.status_code)
                if made.status_code == 503:
                    assert "nothing you sent was done" in made.json()["error"]
        assert set(statuses) <= {200, 201, 503} and 503 in statuses, statuses
        # The database back to itself: every request answers.
        for _ in range(5):
            assert client.get("/vasco").status_code == 200
            made = client.post(
                "/api/vasco/boards", json={"first": "alice", "second": "bob"}, headers=bearer(token)
            )
            assert made.status_code == 201, made.text[:300]
    finally:
        engine.dispose()
