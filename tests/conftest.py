"""What every test shares: the tiers, a hermetic environment, cheap argon2,
the programs a test starts, and real databases (a fresh SQLite file, and a
throwaway PostgreSQL server started from Debian's binaries for the run).

The tiers are markers applied from what a test touches, never by hand:
`postgresql` (the PostgreSQL server: the `postgresql` parameter of the
`database_url` fixture or of `ENGINES`, or `postgres_server` itself),
`browser` (the `chromium` fixture) and `subprocess` (the `processes`
fixture, or a parameter that starts programs, like the `receive` and `imap`
mail doors). `make test-fast` runs what has none of them
(docs/development.md)."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from pbem.server import passwords
from pbem.store import make_engine
from tests.databases import empty_postgresql, upgraded_postgresql, upgraded_sqlite
from tests.processes import Processes

TIERS = {
    "postgresql": "needs the tests' own PostgreSQL server",
    "browser": "drives Debian's chromium",
    "subprocess": "starts programs of its own (a pbem command, a server, a helper)",
}
TIER_FIXTURES = {"postgres_server": "postgresql", "chromium": "browser", "processes": "subprocess"}
POSTGRESQL = pytest.mark.postgresql
SUBPROCESS = pytest.mark.subprocess
# Each engine a test runs on, for a test or fixture parametrized by hand.
ENGINES = [pytest.param("sqlite", id="sqlite"), pytest.param("postgresql", marks=POSTGRESQL)]


def pytest_configure(config: pytest.Config) -> None:
    for name, what in TIERS.items():
        config.addinivalue_line("markers", f"{name}: {what}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tier each test by the fixtures it uses (their parameters' marks, as
    `database_url`'s postgresql, arrive with them)."""
    for item in items:
        for name in set(getattr(item, "fixturenames", ())) & set(TIER_FIXTURES):
            item.add_marker(TIER_FIXTURES[name])
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "postgresql" in callspec.params.values():
            item.add_marker(POSTGRESQL)  # (an engine parametrized without ENGINES)


# No test reads the host's settings: a PBEM_ variable exported in the shell
# (a database URL, a port) or a pbem.toml in the folder the tests run from
# would otherwise reach every server the tests start.
for variable in [name for name in os.environ if name.startswith("PBEM_")]:
    del os.environ[variable]
os.environ["PBEM_CONFIG"] = os.devnull  # an empty settings file

# argon2 at its cheapest in every test and every server a test starts (the
# environment passes to them): at the default cost each hash and each first
# check takes a fifth of a second. tests/server/test_password_cost.py checks
# the cost itself at the default and at a host's setting.
CHEAP_ARGON2 = {
    "PBEM_ARGON2_TIME_COST": "1",
    "PBEM_ARGON2_MEMORY_KIB": "8",
    "PBEM_ARGON2_PARALLELISM": "1",
}
os.environ.update(CHEAP_ARGON2)
passwords.set_cost(1, 8, 1)

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


def postgres_for(request: pytest.FixtureRequest) -> str:
    """The PostgreSQL server, for a test tiered `postgresql` (the fast tier
    must never start it: a test that reaches it untiered fails, saying so)."""
    if request.node.get_closest_marker("postgresql") is None:
        pytest.fail(
            f"{request.node.nodeid} uses PostgreSQL but is not tiered postgresql: "
            "parametrize it with tests.conftest.ENGINES or take the postgres_server fixture"
        )
    return str(request.getfixturevalue("postgres_server"))


def empty_database_url(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new database with no tables yet, on `kind`'s engine."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'pbem.sqlite3'}"
    return empty_postgresql(postgres_for(request))


def upgraded_database_url(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new database with every table, on `kind`'s engine (a
    copy of one upgraded once: tests/databases.py)."""
    if kind == "sqlite":
        return upgraded_sqlite(tmp_path / "pbem.sqlite3")
    return upgraded_postgresql(postgres_for(request))


@pytest.fixture(params=ENGINES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, upgraded database on each engine, its URL."""
    return upgraded_database_url(request.param, request, tmp_path)


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def processes() -> Iterator[Processes]:
    """Programs started by this test, all ended with it (tests/processes.py)."""
    started = Processes()
    yield started
    started.close()


@pytest.fixture(scope="session")
def numba_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The environment of a process using a numba cache of its own, which a
    first process filled by compiling every game's loop and the Vacu search
    (as a host's first start does); for the tests of loading from it."""
    folder = tmp_path_factory.mktemp("numba-cache")
    env = os.environ | {"NUMBA_CACHE_DIR": str(folder)}
    script = "import pbem.games, pbem.ai.vacu_tree as t; pbem.games.warm_up(); t.warm_up()"
    compiling = Processes()
    try:
        compiling.run([sys.executable, "-c", script], env=env, check=True, timeout=600)
        yield env
    finally:
        compiling.close()


@pytest.fixture(autouse=True)
def _fresh_password_failures() -> None:
    """Each test starts with no wrong passwords counted (server/throttle.py
    counts them per process, and many tests send wrong ones on purpose)."""
    from pbem.server.throttle import forget_failures

    forget_failures()
