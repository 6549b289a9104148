"""Real databases for the store's tests: a fresh SQLite file, and a
throwaway PostgreSQL server started from Debian's binaries for the session."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text

from pbem.store import make_engine, upgrade

POSTGRES_HINT = (
    "the store's tests need PostgreSQL's server programs (Debian: apt-get install "
    "postgresql); .ci/run installs them"
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _as_postgres(args: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run it as the postgres user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return args


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server of our own, on 127.0.0.1."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.fail(POSTGRES_HINT)
    bindir = Path(found[-1]).parent
    home = Path(tempfile.mkdtemp(prefix="pbem-postgres-"))  # not under root's 0700 tmp
    data = home / "data"
    data.mkdir()
    if os.geteuid() == 0:
        shutil.chown(home, "postgres")
        shutil.chown(data, "postgres")
    port = _free_port()
    run = {"check": True, "capture_output": True}
    subprocess.run(
        _as_postgres([str(bindir / "initdb"), "-D", str(data), "-U", "pbem", "-A", "trust", "-N"]),
        **run,
    )
    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off"
    pg_ctl = str(bindir / "pg_ctl")
    log = str(data / "server.log")
    subprocess.run(
        _as_postgres([pg_ctl, "-D", str(data), "-o", options, "-l", log, "-w", "start"]), **run
    )
    try:
        yield f"postgresql+psycopg://pbem@127.0.0.1:{port}"
    finally:
        subprocess.run(_as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "stop"]), **run)
        shutil.rmtree(home, ignore_errors=True)


def empty_database_url(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new database with no tables yet, on `kind`'s engine."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'pbem.sqlite3'}"
    server = request.getfixturevalue("postgres_server")
    name = f"test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return f"{server}/{name}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new, upgraded database on each engine, its URL."""
    url = empty_database_url(request.param, request, tmp_path)
    engine = make_engine(url)
    upgrade(engine)
    engine.dispose()
    yield url


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture(autouse=True)
def _fresh_password_failures() -> None:
    """Each test starts with no wrong passwords counted (server/throttle.py
    counts them per process, and many tests send wrong ones on purpose)."""
    from pbem.server.throttle import forget_failures

    forget_failures()
