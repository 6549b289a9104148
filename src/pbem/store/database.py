"""The database connection: which database, how to connect, and upgrading it.

`PBEM_DATABASE_URL` names the database (`postgresql+psycopg://user@host/db`);
without it the server keeps everything in SQLite at ./var/pbem.sqlite3, in
WAL mode. SQLite transactions that write start with BEGIN IMMEDIATE, so two
commands on one board queue for the write lock instead of failing late, and
they queue first on a lock file beside the database (`WriterQueue`): SQLite
itself makes a waiting writer sleep and poll, which under load wastes most of
the lock's time and leaves tails of seconds. Sessions only for reading
(`reading`) begin deferred, and in WAL mode they neither wait for nor hold up
a writer. PostgreSQL runs at READ COMMITTED and
the boards' version check settles races.

Busy is an answer: a writer that cannot have its turn within
`wait_seconds()` (5 s, `PBEM_DATABASE_WAIT`) raises `DatabaseBusy`, and
PostgreSQL gives up connecting and waiting for a lock after as long; the
doors answer such a failure (`unavailable`) with "busy, try again" (503, 451),
never a hang or a 500. Reads never wait for the write lock.
"""

from __future__ import annotations

import ast
import fcntl
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from sqlalchemy import Connection, CursorResult, Engine, Result, create_engine, event
from sqlalchemy import exc as sqlalchemy_errors
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import NullPool

if TYPE_CHECKING:
    from alembic.config import Config

DEFAULT_PATH = Path("var") / "pbem.sqlite3"


def database_url(environ: dict[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    url = env.get("PBEM_DATABASE_URL", "").strip()
    return url or f"sqlite:///{DEFAULT_PATH}"


# Connections a process keeps open once it has used them. A process runs
# several threads (a web process its request threads and the live pages'
# reads), and a thread can hold two at once (a command's transaction and
# a single read beside it): with SQLAlchemy's default of 5 kept, a busy
# process opened and closed a PostgreSQL connection (a fork and a login on
# the server) for most requests. It never opens more than it uses at once.
POOL = {"pool_size": 16, "max_overflow": 16}

# How long a command waits for the database before it is answered "busy":
# SQLite's write turn, PostgreSQL's connecting and its row and table locks.
DEFAULT_WAIT_SECONDS = 5.0


def wait_seconds(environ: dict[str, str] | None = None) -> float:
    """The bound on a wait for the database (`PBEM_DATABASE_WAIT`, seconds)."""
    env = os.environ if environ is None else environ
    try:
        seconds = float(env.get("PBEM_DATABASE_WAIT", "") or DEFAULT_WAIT_SECONDS)
    except ValueError:
        return DEFAULT_WAIT_SECONDS
    return seconds if seconds > 0 else DEFAULT_WAIT_SECONDS


class DatabaseBusy(RuntimeError):
    """The database could not be had within the bounded wait (another
    writer holds SQLite's write lock): nothing was done; try again soon."""


def causes(error: BaseException) -> Iterator[BaseException]:
    """`error` and every error it wraps, each once: SQLAlchemy's `.orig`
    (the driver's error), and the `__cause__` and `__context__` chains."""
    seen: set[int] = set()
    pending: list[object] = [error]
    while pending:
        current = pending.pop()
        if not isinstance(current, BaseException) or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        pending += [getattr(current, "orig", None), current.__cause__, current.__context__]


def unavailable(error: BaseException) -> bool:
    """Whether `error` (or what it wraps) is the database being busy or out
    of reach, not a fault of the request: `DatabaseBusy`, a lost or refused
    connection, a lock or statement timeout (SQLAlchemy's OperationalError,
    DisconnectionError, InterfaceError, a pool's TimeoutError). Nothing was
    done, and the same request later may well succeed."""
    kinds = (
        DatabaseBusy,
        sqlalchemy_errors.OperationalError,
        sqlalchemy_errors.DisconnectionError,
        sqlalchemy_errors.InterfaceError,
        sqlalchemy_errors.TimeoutError,
    )
    return any(isinstance(cause, kinds) for cause in causes(error))


def make_engine(url: str | None = None) -> Engine:
    """An engine for `url` (default: database_url()), SQLite made safe for
    several processes: WAL, a busy timeout, foreign keys, BEGIN IMMEDIATE.
    Its errors never show the statement's values (a password hash, a token
    hash), so no log line can hold them."""
    url = url or database_url()
    bound = wait_seconds()
    if not url.startswith("sqlite"):
        # No ping before each use of a pooled connection: it was a round trip
        # on every one (a move takes five). After the server restarts, the
        # first use of an old connection fails (a web request gets a 503, a
        # mail a 451 that its sender retries), and that failure invalidates
        # every connection the pool held then, so the pool starts anew. A
        # server away or a lock held too long is answered within `bound`.
        timeouts = {}
        if url.startswith("postgresql"):
            timeouts = {
                "connect_timeout": max(1, round(bound)),
                "options": f"-c lock_timeout={round(bound * 1000)}",
            }
        return create_engine(url, hide_parameters=True, connect_args=timeouts, **POOL)
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": bound}, hide_parameters=True, **POOL)
    database = engine.url.database
    queue = (
        WriterQueue(f"{database}.write-lock", bound)
        if database and database != ":memory:"
        else None
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        wal_mode(cursor)
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={round(bound * 1000)}")
        cursor.execute(f"PRAGMA mmap_size={SQLITE_MMAP_BYTES}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        if connection.get_execution_options().get(READING):
            connection.exec_driver_sql("BEGIN")
            return
        if queue is not None:
            queue.enter(connection.info)
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    if queue is not None:

        @event.listens_for(engine, "checkin")
        def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
            queue.leave(record.info)

        @event.listens_for(engine, "invalidate")
        def _on_invalidate(_dbapi_connection: Any, record: Any, _error: Any) -> None:
            queue.leave(record.info)

        @event.listens_for(engine, "close")
        def _on_close(_dbapi_connection: Any, record: Any) -> None:
            queue.forget(record.info)

    return engine


class UpgradeRefused(RuntimeError):
    """An upgrade stopped before its commit, the database left as it was;
    the message says why and what to do."""


class NestedWrite(RuntimeError):
    """A thread that is writing began a second write transaction: it would
    wait for itself."""


class WriterQueue:
    """Writers to one SQLite file, on this machine, take turns in the order
    the kernel wakes them: an exclusive `flock` on a lock file beside the
    database is taken before BEGIN IMMEDIATE and given back when the
    connection returns to the pool (after its COMMIT or ROLLBACK). A waiter
    sleeps in the kernel and wakes the moment the lock is free, where
    SQLite's own busy handler would poll with growing sleeps. Each pooled
    connection has its own open lock file, so threads of one process queue
    too; a process that dies lets go of its turn with its files.

    The wait is bounded (`bound` seconds): a writer still waiting then raises
    `DatabaseBusy`. A turn free at once is taken without a wait; otherwise
    a thread of its own sleeps in the kernel for it, and a turn that comes
    after the caller gave up is given back at once (its file closed)."""

    def __init__(self, path: str, bound: float = DEFAULT_WAIT_SECONDS) -> None:
        self.path = path
        self.bound = bound
        self._holding = threading.local()

    def _file(self, info: dict[str, Any]) -> int:
        if "writer_queue" not in info:
            info["writer_queue"] = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        return cast(int, info["writer_queue"])

    def enter(self, info: dict[str, Any]) -> None:
        if info.get("writer_turn"):
            return  # this connection is already in its turn
        held = getattr(self._holding, "info", None)
        if held is not None and held is not info and held.get("writer_turn"):
            raise NestedWrite(
                "a write transaction began while this thread's other write transaction "
                "was still open; finish one before starting the next"
            )
        descriptor = self._file(info)
        if not _lock_now(descriptor) and not _lock_within(descriptor, self.bound):
            info.pop("writer_queue")  # (the waiting thread closes it)
            raise DatabaseBusy(
                f"the database is busy: another writer held it for over {self.bound:g} s"
            )
        info["writer_turn"] = True
        self._holding.info = info

    def leave(self, info: dict[str, Any]) -> None:
        if not info.pop("writer_turn", False):
            return
        fcntl.flock(info["writer_queue"], fcntl.LOCK_UN)
        if getattr(self._holding, "info", None) is info:
            self._holding.info = None

    def forget(self, info: dict[str, Any]) -> None:
        self.leave(info)
        descriptor = info.pop("writer_queue", None)
        if descriptor is not None:
            os.close(descriptor)


def _lock_now(descriptor: int) -> bool:
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _lock_within(descriptor: int, bound: float) -> bool:
    """Whether the lock on `descriptor` was had within `bound` seconds. A
    thread waits for it in the kernel (woken the moment it is free); when
    the caller gave up first, that thread closes `descriptor` once it has
    the lock, which lets it go."""
    had = threading.Event()
    settled = threading.Lock()
    abandoned = False

    def wait() -> None:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        except OSError:
            os.close(descriptor)
            return
        with settled:
            if abandoned:
                os.close(descriptor)
                return
            had.set()

    threading.Thread(target=wait, name="pbem-write-turn", daemon=True).start()
    if had.wait(bound):
        return True
    with settled:
        if had.is_set():
            return True
        abandoned = True
    return False


T = TypeVar("T")


@dataclass
class _Turn(Generic[T]):
    """One caller's work in a shared write transaction, and how it went."""

    work: Callable[[Connection], T]
    done: threading.Event = field(default_factory=threading.Event)
    lead: bool = False  # woken to write the next batch, not because its own was written
    result: T | None = None
    error: BaseException | None = None


class GroupCommit:
    """Short write turns of one process, written together on SQLite.

    SQLite writes one transaction at a time, and each commit waits for the
    disk. Under load, the threads of a process that all want a write turn
    would queue for the lock one by one; here the first of them writes the
    work of every thread waiting at that moment in one transaction, each in
    a SAVEPOINT of its own (a piece that raises is rolled back alone, and
    its caller gets the exception; a turn alone needs no savepoint), commits
    once, and hands the next batch to the next waiter. Each caller returns
    only after the commit that holds its work, so nothing is acknowledged
    before it is on disk. On PostgreSQL, which commits concurrent
    transactions side by side, each turn is a transaction of its own."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.batched = engine.dialect.name == "sqlite"
        # PostgreSQL's turns that are one statement go straight through.
        self.alone: Engine | None = None if self.batched else single_writes(engine)
        self._lock = threading.Lock()
        self._waiting: list[_Turn[Any]] = []
        self._writing = False  # a thread is writing a batch

    def run(self, work: Callable[[Connection], T]) -> T:
        """`work(connection)` in a write transaction, committed on return."""
        if not self.batched:
            with self.engine.begin() as connection:
                return work(connection)
        turn = _Turn(work)
        with self._lock:
            self._waiting.append(turn)
            lead = not self._writing
            self._writing = True
        if not lead:
            turn.done.wait()
            if turn.lead:  # the last writer handed the next batch to us
                turn.done.clear()
                lead = True
        if lead:
            self._write_batch()
            turn.done.wait()  # (written in this batch or an earlier one)
        if turn.error is not None:
            raise turn.error
        return cast(T, turn.result)

    def _write_batch(self) -> None:
        """Write every waiting turn in one transaction, then wake the next
        writer, if any turn came meanwhile."""
        with self._lock:
            batch, self._waiting = self._waiting, []
        try:
            with self.engine.begin() as connection:
                if len(batch) == 1:  # alone: its own transaction (its error: below)
                    batch[0].result = batch[0].work(connection)
                    return
                for turn in batch:
                    savepoint = connection.begin_nested()
                    try:
                        turn.result = turn.work(connection)
                    except Exception as error:
                        savepoint.rollback()
                        turn.error = error
                    else:
                        savepoint.commit()
        except BaseException as error:  # nothing of the batch was written (a lone turn
            # that raised, or a failed commit)
            for turn in batch:  # (each caller raises it; this thread's own turn is one)
                turn.error = turn.error or error
        finally:
            with self._lock:
                following = self._waiting[0] if self._waiting else None
                self._writing = following is not None
            for turn in batch:
                turn.done.set()
            if following is not None:
                following.lead = True
                following.done.set()


# SQLite reads the database through a memory map of up to this many bytes
# instead of copying pages into each connection's own 2 MB cache: every
# connection of every process then shares the operating system's cache, so a
# large database's index and table pages stay at hand (the standings of
# 100,000 boards: 10 ms a page without, 7.4 with, 5.9 for 4,000 boards).
SQLITE_MMAP_BYTES = 256 * 1024 * 1024

READING = "pbem_reading"  # the execution option of sessions that only read


def wal_mode(cursor: Any) -> None:
    """Switch to write-ahead logging. SQLite answers "database is locked" at
    once, without waiting, while another process is making a new database's
    file WAL too (processes starting together): try again for a while."""
    for attempt in range(100):
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == 99:
                raise
            time.sleep(0.05 + 0.01 * attempt)


def statements(engine: Engine) -> Engine:
    """The engine for reads that are one statement, or several that need not
    agree with each other: on PostgreSQL in autocommit, so each is one round
    trip with no BEGIN and ROLLBACK around it; on SQLite a reading engine
    (a deferred BEGIN costs nothing there, and takes no write lock)."""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="AUTOCOMMIT")
    return engine.execution_options(**{READING: True})


def single_writes(engine: Engine) -> Engine:
    """The engine for a write that is one statement: on PostgreSQL in
    autocommit, one round trip with no BEGIN and COMMIT around it (a
    statement is atomic on its own); on SQLite the engine itself, so the
    write takes its turn in a transaction like any other."""
    return statements(engine) if engine.dialect.name == "postgresql" else engine


def session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions for changing things (`with sessions.begin() as session:`)."""
    return sessionmaker(engine, expire_on_commit=False)


def reading(sessions: sessionmaker[Session]) -> sessionmaker[Session]:
    """Sessions on the same database for reading only, which under SQLite
    take no write lock."""
    engine = sessions.kw["bind"]
    return sessionmaker(engine.execution_options(**{READING: True}), expire_on_commit=False)


MIGRATIONS = resources.files("pbem.store") / "migrations"


def alembic_config(engine: Engine) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


# A migration's own lines naming it and its parent: `revision = "0026"`.
_NAMES = re.compile(
    r"^(revision|down_revision|branch_labels|depends_on)(?:\s*:[^=\n]*)?\s*=\s*(.*?)\s*$",
    re.MULTILINE,
)


def head_revisions() -> set[str] | None:
    """The newest revision of the migrations folder, read from each file's
    `revision = ...` and `down_revision = ...` lines without alembic
    (importing it and loading every migration to find nothing to do was a
    seventh of each `pbem receive`: docs/performance.md); None when a file
    says more than such lines can (a merge, a branch, a dependency, a
    computed name), and alembic decides."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for script in (MIGRATIONS / "versions").iterdir():
        if not script.name.endswith(".py"):
            continue
        try:
            names = {
                match[1]: ast.literal_eval(match[2])
                for match in _NAMES.finditer(script.read_text("utf-8"))
            }
        except (ValueError, SyntaxError):
            return None
        revision, parent = names.get("revision"), names.get("down_revision")
        if not isinstance(revision, str) or not (parent is None or isinstance(parent, str)):
            return None
        if names.get("branch_labels") is not None or names.get("depends_on") is not None:
            return None
        revisions.add(revision)
        if parent is not None:
            parents.add(parent)
    heads = revisions - parents
    return heads if len(heads) == 1 else None


def is_up_to_date(engine: Engine) -> bool:
    """Whether the database stands at the migrations' head already: one read
    of `alembic_version`, False when it has no such table (a new database).
    A database being upgraded meanwhile shows its old revision until the
    upgrade commits (the migrations' DDL is one transaction on both engines:
    migrations/env.py), so a reader that sees the head sees its tables.
    A database that cannot be reached at all raises here, as alembic would."""
    heads = head_revisions()
    if heads is None:
        return False
    with statements(engine).connect() as connection:
        try:
            stored = connection.exec_driver_sql("SELECT version_num FROM alembic_version").all()
        except DBAPIError:  # no such table (yet): alembic makes it
            return False
    return {row[0] for row in stored} == heads


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database's tables up to `revision` (the newest by default).

    A database already at the newest costs one read and no alembic (every
    `pbem receive` and `pbem send` asks). Processes starting at once upgrade
    one after the other: PostgreSQL by an advisory lock (migrations/env.py);
    an SQLite file by a lock on a file beside it (SQLite's DDL is not one
    transaction, so the database's own lock would let two processes run the
    same step)."""
    if revision == "head" and is_up_to_date(engine):
        return
    from alembic import command

    if engine.url.get_backend_name() == "postgresql":
        # Without the engine's bounded lock wait: a process starting beside
        # another's upgrade waits for it (its advisory lock) however long.
        patient = create_engine(engine.url, hide_parameters=True, poolclass=NullPool)
        try:
            command.upgrade(alembic_config(patient), revision)
        finally:
            patient.dispose()
        return
    database = engine.url.database if engine.url.get_backend_name() == "sqlite" else None
    if not database or database == ":memory:":
        command.upgrade(alembic_config(engine), revision)
        return
    with open(f"{database}.upgrade-lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        command.upgrade(alembic_config(engine), revision)


def rows_changed(result: Result[Any]) -> int:
    """How many rows an UPDATE or DELETE changed (its cursor's count)."""
    return cast(CursorResult[Any], result).rowcount
