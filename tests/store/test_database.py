"""SQLite writers take turns on a lock file (`WriterQueue`): in order,
without SQLite's sleeping busy handler, across threads and processes, and a
thread that would wait for itself is told so at once."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from multiprocessing.context import SpawnContext
from pathlib import Path

import pytest
from sqlalchemy import Connection, Engine, event, text

from pbem.store import make_engine, session_factory
from pbem.store.database import SQLITE_MMAP_BYTES, GroupCommit, NestedWrite, reading


def counter_engine(path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE IF NOT EXISTS c (n INTEGER)"))
        if connection.execute(text("SELECT count(*) FROM c")).scalar() == 0:
            connection.execute(text("INSERT INTO c VALUES (0)"))
    return engine


def bump_many(path: str, times: int) -> None:
    """Read the counter, wait a little inside the transaction, write it
    back plus one: lost updates show if two writers ever overlap."""
    sessions = session_factory(counter_engine(Path(path)))
    for _ in range(times):
        with sessions.begin() as session:
            n = session.execute(text("SELECT n FROM c")).scalar_one()
            time.sleep(0.001)
            session.execute(text("UPDATE c SET n = :n"), {"n": n + 1})


def test_writers_in_threads_and_processes_never_overlap(
    tmp_path: Path, spawn: SpawnContext
) -> None:
    path = tmp_path / "db.sqlite3"
    engine = counter_engine(path)
    context = spawn
    processes = [context.Process(target=bump_many, args=(str(path), 40)) for _ in range(2)]
    threads = [threading.Thread(target=bump_many, args=(str(path), 40)) for _ in range(4)]
    started = time.monotonic()
    for worker in [*processes, *threads]:
        worker.start()
    for worker in [*processes, *threads]:
        worker.join(timeout=120)
    assert all(process.exitcode == 0 for process in processes)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT n FROM c")).scalar_one() == 6 * 40
    # 240 turns of about a millisecond each: far from SQLite's polling sleeps
    # (which grow to 100 ms a try), and from its 30 s busy timeout.
    assert time.monotonic() - started < 60


def test_a_reader_does_not_wait_for_a_writer(tmp_path: Path) -> None:
    engine = counter_engine(tmp_path / "db.sqlite3")
    writes, reads = session_factory(engine), reading(session_factory(engine))
    with writes.begin() as writer:
        writer.execute(text("UPDATE c SET n = 7"))
        started = time.monotonic()
        with reads() as reader:
            assert reader.execute(text("SELECT n FROM c")).scalar_one() == 0
        assert time.monotonic() - started < 1


def test_connections_read_through_a_shared_memory_map(tmp_path: Path) -> None:
    """Every connection maps the database (the operating system's cache,
    shared by every process, instead of a small cache of each connection's
    own), and one engine still reads what another has just committed."""
    path = tmp_path / "db.sqlite3"
    writer, reader = counter_engine(path), make_engine(f"sqlite:///{path}")
    with reader.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA mmap_size").scalar() == SQLITE_MMAP_BYTES
        assert connection.execute(text("SELECT n FROM c")).scalar_one() == 0
    with writer.begin() as connection:
        connection.execute(text("UPDATE c SET n = 5"))
    with reader.connect() as connection:
        assert connection.execute(text("SELECT n FROM c")).scalar_one() == 5


def test_a_write_inside_a_write_in_one_thread_fails_at_once(tmp_path: Path) -> None:
    sessions = session_factory(counter_engine(tmp_path / "db.sqlite3"))
    started = time.monotonic()
    with sessions.begin() as outer:
        outer.execute(text("UPDATE c SET n = 1"))
        with (
            pytest.raises(NestedWrite, match="finish one before starting the next"),
            sessions.begin() as inner,
        ):
            inner.execute(text("UPDATE c SET n = 2"))
    assert time.monotonic() - started < 5
    # The failed attempt left nothing held: the next writer goes straight in.
    with sessions.begin() as session:
        assert session.execute(text("SELECT n FROM c")).scalar_one() == 1


def test_a_turn_ends_with_its_transaction_when_it_fails(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    sessions = session_factory(counter_engine(path))
    with pytest.raises(ZeroDivisionError), sessions.begin() as session:
        session.execute(text("UPDATE c SET n = 5"))
        _ = 1 / 0
    done = threading.Event()

    def other_thread() -> None:
        with sessions.begin() as session:
            session.execute(text("UPDATE c SET n = 6"))
        done.set()

    threading.Thread(target=other_thread).start()
    assert done.wait(10)
    with sessions.begin() as session:
        assert session.execute(text("SELECT n FROM c")).scalar_one() == 6


def test_group_commit_writes_waiting_turns_together_each_in_its_own_savepoint(
    tmp_path: Path,
) -> None:
    """Turns from many threads at once: every one applied exactly once, in
    fewer commits than turns; a turn that raises is rolled back alone and
    its caller gets the exception; a caller returns only once its work is
    committed (a new connection sees it)."""
    engine = counter_engine(tmp_path / "db.sqlite3")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE seen (who INTEGER PRIMARY KEY)"))
    commits = []
    event.listen(engine, "commit", lambda _connection: commits.append(1))
    turns = GroupCommit(engine)
    results: dict[int, object] = {}

    def work(who: int, connection: Connection) -> int:
        n = connection.execute(text("SELECT n FROM c")).scalar_one()
        connection.execute(text("UPDATE c SET n = :n"), {"n": n + 1})
        connection.execute(text("INSERT INTO seen VALUES (:who)"), {"who": who})
        time.sleep(0.002)  # the others pile up meanwhile
        if who % 7 == 3:
            raise ValueError(f"turn {who} refused")
        return who * 10

    def one(who: int) -> None:
        try:
            results[who] = turns.run(lambda connection: work(who, connection))
        except ValueError as error:
            results[who] = error
            return
        with engine.connect() as reader:  # committed before run returned
            seen = reader.execute(text("SELECT 1 FROM seen WHERE who = :w"), {"w": who})
            assert seen.first() is not None

    threads = [threading.Thread(target=one, args=(who,)) for who in range(60)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    refused = {who for who in range(60) if who % 7 == 3}
    assert {who: results[who] for who in range(60) if who not in refused} == {
        who: who * 10 for who in range(60) if who not in refused
    }
    assert all(isinstance(results[who], ValueError) for who in refused)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT n FROM c")).scalar_one() == 60 - len(refused)
        kept = set(connection.execute(text("SELECT who FROM seen")).scalars())
    assert kept == set(range(60)) - refused
    assert len(commits) < 60  # waiting turns went in together


def test_group_commit_on_a_failed_commit_fails_every_turn_of_the_batch(tmp_path: Path) -> None:
    engine = counter_engine(tmp_path / "db.sqlite3")
    turns = GroupCommit(engine)

    def broken_commit(_connection: Connection) -> None:
        raise OSError("the disk is full")

    event.listen(engine, "commit", broken_commit)
    with pytest.raises(OSError, match="disk is full"):
        turns.run(lambda connection: connection.execute(text("UPDATE c SET n = 5")))
    event.remove(engine, "commit", broken_commit)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT n FROM c")).scalar_one() == 0
    assert turns.run(lambda connection: 7) == 7  # and the next turn writes again


def test_group_commit_never_reports_work_written_that_a_batch_lost(tmp_path: Path) -> None:
    """A turn that ends its thread (not an ordinary error) takes the batch's
    transaction down with it: the other turns of that batch are told so,
    none of them believes its work was written."""
    engine = counter_engine(tmp_path / "db.sqlite3")
    turns = GroupCommit(engine)
    entered, release = threading.Event(), threading.Event()
    outcomes: dict[str, object] = {}

    def first(connection: Connection) -> None:
        entered.set()
        release.wait(10)  # the others queue behind this batch meanwhile
        connection.execute(text("UPDATE c SET n = n + 1"))

    def dying(connection: Connection) -> None:
        raise SystemExit("the thread ends")

    def bump(connection: Connection) -> str:
        connection.execute(text("UPDATE c SET n = n + 1"))
        return "written"

    def one(name: str, work: Callable[[Connection], object]) -> None:
        try:
            outcomes[name] = turns.run(work)
        except BaseException as error:  # (SystemExit too)
            outcomes[name] = type(error).__name__

    leader = threading.Thread(target=one, args=("first", first))
    leader.start()
    assert entered.wait(10)
    others = [
        threading.Thread(target=one, args=(name, work))
        for name, work in (("dying", dying), ("bump", bump))
    ]
    for thread in others:
        thread.start()
    time.sleep(0.2)  # both wait for the next batch
    release.set()
    for thread in [leader, *others]:
        thread.join(10)
    assert outcomes == {"first": None, "dying": "SystemExit", "bump": "SystemExit"}
    with engine.connect() as connection:
        assert connection.execute(text("SELECT n FROM c")).scalar_one() == 1  # the first only


def test_a_busy_process_keeps_its_connections_open(engine: Engine) -> None:
    """A web process's threads (8), each holding up to two connections,
    reuse them: none is closed on return to the pool, so a busy process
    never pays a new PostgreSQL connection (a fork and a login) per request."""
    opened = []
    event.listen(engine, "connect", lambda *_: opened.append(1))
    for _ in range(3):
        held = [engine.connect() for _ in range(16)]
        for connection in held:
            connection.execute(text("SELECT 1"))
            connection.close()
    assert len(opened) == 16
    assert engine.pool.checkedin() == 16  # type: ignore[attr-defined]
