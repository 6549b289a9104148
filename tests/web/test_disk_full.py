"""A full disk is answered 503 with its reason, not a bare 500: SQLite
really full (its largest size set to the pages it has, so the next page it
needs fails with "database or disk is full"), through the JSON API and a
form; and the other errors stay what they were."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event

from pbem.server import Server, out_of_disk
from pbem.settings import Settings
from pbem.store import make_engine, session_factory
from pbem.web import create_app
from pbem.web.app import DISK_FULL_RETRY_SECONDS
from tests.databases import upgraded_sqlite
from tests.server.test_commands import Clock
from tests.web.test_api import bearer, make_token
from tests.web.test_open_challenges_web import signed_up_as
from tests.web.test_pages import csrf


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(upgraded_sqlite(tmp_path / "pbem.sqlite3"))
    yield engine
    engine.dispose()


def fill_the_disk(engine: Engine) -> None:
    """From now on the database cannot grow by one page (SQLITE_FULL)."""
    engine.dispose()
    plain = sqlite3.connect(str(engine.url.database), isolation_level=None)
    plain.execute("VACUUM")  # (no free pages left inside)
    plain.close()

    @event.listens_for(engine, "connect")
    def no_more_pages(dbapi_connection: Any, record: object) -> None:
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

    engine.dispose()  # (every pooled connection opens again under the limit)


def test_a_full_disk_answers_503_with_the_reason(engine: Engine) -> None:
    server = Server(session_factory(engine), Clock())
    token = make_token(server, "alice")
    make_token(server, "bob")
    api = TestClient(create_app(server, Settings(secret_key="k" * 32)))
    alice = signed_up_as(server, "alice")
    form = csrf(alice, "/vasco")
    fill_the_disk(engine)
    statuses = []
    for _ in range(40):  # until a write needs a page the database cannot have
        made = api.post(
            "/api/vasco/boards",
            json={"first": "alice", "second": "bob", "comment": "x" * 4000},
            headers=bearer(token),
        )
        statuses.append(made.status_code)
        if made.status_code != 201:
            break
    assert statuses[-1] == 503, statuses
    assert made.headers["Retry-After"] == str(DISK_FULL_RETRY_SECONDS)
    assert "out of disk space" in made.json()["error"]
    assert "nothing you sent was done" in made.json()["error"]
    # A form: a page saying so (with the page's own headers), not a bare 500.
    page = alice.post(
        "/vasco/challenge",
        data={"csrf": form, "first": "alice", "second": "bob", "comment": "y" * 4000},
        follow_redirects=False,
    )
    assert page.status_code == 503, page.text[:500]
    assert page.headers["Retry-After"] == str(DISK_FULL_RETRY_SECONDS)
    assert "text/html" in page.headers["content-type"]
    assert "Content-Security-Policy" in page.headers
    assert "out of disk space" in page.text and "no move was played" in page.text
    # Reading still works.
    assert api.get("/api/vasco/boards/1").status_code in (200, 404)


def test_what_counts_as_a_full_disk() -> None:
    import errno

    assert out_of_disk(sqlite3.OperationalError("database or disk is full"))
    assert out_of_disk(OSError(errno.ENOSPC, "No space left on device"))
    wrapped = RuntimeError("commit failed")
    wrapped.__cause__ = OSError(errno.ENOSPC, "No space left on device")
    assert out_of_disk(wrapped)

    class DiskFull(Exception):
        sqlstate = "53100"  # (psycopg's errors.DiskFull)

    assert out_of_disk(DiskFull("could not extend file"))
    assert not out_of_disk(sqlite3.OperationalError("database is locked"))
    assert not out_of_disk(OSError(errno.EACCES, "Permission denied"))
    assert not out_of_disk(ValueError("no"))
