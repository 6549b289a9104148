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

import fcntl
import glob
import multiprocessing
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from multiprocessing.context import SpawnContext
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings
from sqlalchemy import Engine

from pbem.bots import BotWorker
from pbem.server import Server
from pbem.server.players import passwords
from pbem.store import make_engine
from tests.databases import (
    drop_postgresql,
    empty_postgresql,
    upgraded_postgresql,
    upgraded_sqlite,
)
from tests.processes import Processes
from tests.store.query_work import QueryWork

TIERS = {
    "postgresql": "needs the tests' own PostgreSQL server",
    "browser": "drives Debian's chromium",
    "subprocess": "starts programs or Python processes of its own (a pbem command, a server)",
    "slow": "the search's strength, the benchmarks, a query's cost among many rows",
}
TIER_FIXTURES = {
    "postgres_server": "postgresql",
    "chromium": "browser",
    "processes": "subprocess",
    "spawn": "subprocess",
    "bot_workers": "subprocess",
    "query_work": "slow",
}
# Folders whose every test is slow by nature: the bots' search played to
# its strength, and the benchmarks run end to end.
SLOW_FOLDERS = ("ai", "bench")
TESTS = Path(__file__).parent
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
        if item.path.relative_to(TESTS).parts[0] in SLOW_FOLDERS:
            item.add_marker("slow")
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "postgresql" in callspec.params.values():
            item.add_marker(POSTGRESQL)  # (an engine parametrized without ENGINES)


# The fast loop's profile (`make test-fast` loads it): property tests run a
# quarter of their random examples there, every one of them in `make test`.
hypothesis_settings.register_profile("fast")


def examples(count: int) -> int:
    """How many random examples a property test runs: `count`, or a quarter
    of them (10 at least) under the fast loop's profile."""
    if hypothesis_settings.get_current_profile_name() == "fast":
        return max(10, count // 4)
    return count


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
    # In memory where the machine has a tmpfs: each test copies a database of
    # 9 MB there (and drops it), and nothing of it need outlive the run.
    memory = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    home = Path(tempfile.mkdtemp(prefix="pbem-postgres-", dir=memory))  # (not root's 0700 tmp)
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
    """The URL of a new database with no tables yet, on `kind`'s engine
    (on PostgreSQL dropped when the test ends)."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'pbem.sqlite3'}"
    url = empty_postgresql(postgres_for(request))
    request.addfinalizer(lambda: drop_postgresql(url))
    return url


def upgraded_database_url(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new database with every table, on `kind`'s engine (a
    copy of one upgraded once: tests/databases.py; on PostgreSQL dropped
    when the test ends)."""
    if kind == "sqlite":
        return upgraded_sqlite(tmp_path / "pbem.sqlite3")
    url = upgraded_postgresql(postgres_for(request))
    request.addfinalizer(lambda: drop_postgresql(url))
    return url


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


WARM_UP = "import pbem.games, pbem.ai.vacu_tree as t; pbem.games.warm_up(); t.warm_up()"


@pytest.fixture(scope="session")
def numba_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """numba's cache (beside the compiled modules, as on a host) holds every
    game's loop and the Vacu search: a first process compiled them, or
    found them there (`make test` warms it up before the tests, as a host's
    first start does). Once per run: the test processes share it."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # (each process's own folder is in the run's)
    with open(root / "numba-cache.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # (the others wait for the first)
        if not (root / "numba-cache.warm").exists():
            compiling = Processes()
            try:
                compiling.run([sys.executable, "-c", WARM_UP], check=True, timeout=600)
            finally:
                compiling.close()
            (root / "numba-cache.warm").touch()


@pytest.fixture
def spawn() -> Iterator[SpawnContext]:
    """multiprocessing's spawn context, for Python processes of the test's
    own (servers racing each other); any still alive at the end is killed."""
    before = set(multiprocessing.active_children())
    yield multiprocessing.get_context("spawn")
    for child in set(multiprocessing.active_children()) - before:
        child.kill()
        child.join(30)


BotWorkers = Callable[[Server, str], BotWorker]  # what the bot_workers fixture gives


@pytest.fixture
def bot_workers() -> Iterator[BotWorkers]:
    """Makes bot workers on a server, closed when the test ends: a bot's
    search runs in a process of its own (spawned at its first search)."""
    made: list[BotWorker] = []

    def make(server: Server, holder: str) -> BotWorker:
        made.append(BotWorker(server, holder=holder))
        return made[-1]

    yield make
    for worker in made:
        worker.close()


@pytest.fixture
def query_work() -> QueryWork:
    """How much work the database does for some statements (tests/store/query_work.py)."""
    return QueryWork()
