"""New, upgraded databases for the tests, in milliseconds: the migrations
run once per test process into a template (an SQLite file, a PostgreSQL
template database) and each test gets a copy of it. A fresh upgrade costs
0.3 to 0.5 s, and some 700 tests start from an empty database;
tests/store/test_migrations.py runs the migrations themselves."""

from __future__ import annotations

import atexit
import shutil
import tempfile
import threading
import uuid
from pathlib import Path

from sqlalchemy import create_engine, text

from pbem.store import make_engine, upgrade

_lock = threading.Lock()
_sqlite_template: Path | None = None
_postgres_templates: dict[str, str] = {}  # server URL: its template database's name


def _upgraded(url: str) -> None:
    engine = make_engine(url)
    try:
        upgrade(engine)
    finally:
        engine.dispose()


def sqlite_template() -> Path:
    """The upgraded SQLite file of this test process (made on first use)."""
    global _sqlite_template
    with _lock:
        if _sqlite_template is None:
            folder = Path(tempfile.mkdtemp(prefix="pbem-template-"))
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            path = folder / "template.sqlite3"
            _upgraded(f"sqlite:///{path}")
            checkpoint = create_engine(f"sqlite:///{path}")
            with checkpoint.connect() as connection:  # all of it in the one file
                connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            checkpoint.dispose()
            _sqlite_template = path
        return _sqlite_template


def upgraded_sqlite(path: Path) -> str:
    """The URL of a new, upgraded SQLite database at `path` (a copy of the
    template; `path` must not exist yet)."""
    if path.exists():
        raise FileExistsError(f"{path} exists: a new database needs a new file")
    shutil.copyfile(sqlite_template(), path)
    return f"sqlite:///{path}"


def _create_database(server: str, name: str, template: str | None = None) -> None:
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            copy = f' TEMPLATE "{template}"' if template else ""
            connection.execute(text(f'CREATE DATABASE "{name}"{copy}'))
    finally:
        admin.dispose()


def drop_postgresql(url: str) -> None:
    """Drop a test's database (connections left open are ended): a run
    makes hundreds, and the server's files are in memory when they can be."""
    server, _, name = url.rpartition("/")
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def empty_postgresql(server: str) -> str:
    """The URL of a new database with no tables on the PostgreSQL `server`."""
    name = f"test_{uuid.uuid4().hex[:12]}"
    _create_database(server, name)
    return f"{server}/{name}"


def upgraded_postgresql(server: str) -> str:
    """The URL of a new, upgraded database on the PostgreSQL `server` (a copy
    of the template database, which no connection holds open)."""
    with _lock:
        template = _postgres_templates.get(server)
        if template is None:
            template = f"template_{uuid.uuid4().hex[:12]}"
            _create_database(server, template)
            _upgraded(f"{server}/{template}")
            _postgres_templates[server] = template
    name = f"test_{uuid.uuid4().hex[:12]}"
    _create_database(server, name, template)
    return f"{server}/{name}"
