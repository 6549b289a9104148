"""The same move mailed twice, handled by two processes at once on a real
database: it is played once, and the other copy gets the stale-move error."""

from __future__ import annotations

import threading
import time
from multiprocessing.context import SpawnContext

import pytest
from sqlalchemy import Engine, event

from pbem.store import Board, make_engine, session_factory
from pbem.store.boards import StaleBoard, apply_move
from tests.conftest import ENGINES
from tests.server.test_commands import CheckedServer, Clock, signup


def _handle(url: str, line: str, start: object, results: object) -> None:
    engine = make_engine(url)
    server = CheckedServer(session_factory(engine), Clock())
    start.wait()  # type: ignore[attr-defined]
    messages = server.handle("alice@example.org", line)
    results.put([m.subject for m in messages.mails])  # type: ignore[attr-defined]
    engine.dispose()


def test_a_duplicated_move_racing_itself_is_played_once(
    engine: Engine, database_url: str, spawn: SpawnContext
) -> None:
    server = CheckedServer(session_factory(engine), Clock())
    signup(server, "alice", "bob")
    server.handle("alice@example.org", "vasco challenge alice bob")
    context = spawn
    start = context.Barrier(2)
    results = context.Queue()
    line = "vasco move 1 alice pw-alice a0,0#1"
    racers = [
        context.Process(target=_handle, args=(database_url, line, start, results)) for _ in range(2)
    ]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(60)
    outcomes = sorted(results.get(timeout=5) for _ in racers)
    assert outcomes == [
        ["Vasco Board 1 Error"],
        ["Vasco Board 1 bob", "Vasco Board 1 bob"],
    ]
    with server.sessions() as session:
        assert session.get_one(Board, 1).version == 1


def test_a_move_checked_before_the_board_ended_does_not_revive_it(engine: Engine) -> None:
    """A move whose command read the board while it was active, and writes
    after a resignation ended it at the same version, is refused: the board
    stays finished with its result. (It was not: the move revived it.)"""
    server = CheckedServer(session_factory(engine), Clock())
    signup(server, "alice", "bob")
    server.handle("alice@example.org", "vasco challenge alice bob")
    server.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")
    sessions = session_factory(engine)
    with server.reads() as session:
        seen = session.get_one(Board, 1)  # read while active: bob to move
        assert seen.status == "active"
    server.handle("bob@example.org", "vasco resign 1 bob pw-bob")  # (he declines)
    with sessions() as session:
        stale = session.merge(seen, load=False)  # as that command still sees it
        try:
            apply_move(session, stale, stale.version, "b1,0", server.clock())
        except StaleBoard:
            session.rollback()
        else:
            session.commit()
    with sessions() as session:
        board = session.get_one(Board, 1)
        assert board.status == "finished" and board.version == 1
        assert board.result is not None and "declined" in board.result


@pytest.mark.parametrize("database_url", ENGINES[1:], indirect=True)
def test_one_mail_handled_by_two_servers_each_way_at_once_is_played_once(
    engine: Engine, database_url: str
) -> None:
    """Two servers on one PostgreSQL take the same mailed move at the same
    moment, one the quick way (it knows the password), one the full way.
    The full command is held after its first write until the quick one
    waits on a lock (or is done): both then finish, one plays the move and
    the other does nothing. The full command noted the mail's key before it
    locked the board, the quick one the other way round, and they
    deadlocked (seen in test_many_servers.py under load)."""
    quick = CheckedServer(session_factory(engine), Clock())
    signup(quick, "alice", "bob")
    quick.handle("alice@example.org", "vasco challenge alice bob")
    quick.handle("alice@example.org", "vasco move 1 alice pw-alice a0,0")  # (a known password)
    full_engine = make_engine(database_url)
    full = CheckedServer(session_factory(full_engine), Clock(), quick_moves=False)
    first_write, resumed = threading.Event(), threading.Event()

    def hold(connection: object, cursor: object, statement: str, *args: object) -> None:
        if statement.lstrip().upper().startswith(("INSERT", "UPDATE")) and not first_write.is_set():
            first_write.set()
            assert resumed.wait(30)

    event.listen(full_engine, "after_cursor_execute", hold)
    line, mail = "vasco move 1 bob pw-bob b1,0", "<the-one@example.org>"
    outcomes: dict[str, object] = {}

    def run(name: str, server: CheckedServer) -> None:
        try:
            outcomes[name] = [
                m.subject for m in server.handle("bob@example.org", line, message_id=mail).mails
            ]
        except Exception as error:  # (a deadlock, as it was)
            outcomes[name] = error

    taking = [
        threading.Thread(target=run, args=pair) for pair in (("full", full), ("quick", quick))
    ]
    taking[0].start()
    assert first_write.wait(30)
    taking[1].start()
    deadline = time.monotonic() + 30
    while taking[1].is_alive() and not waiting_on_a_lock(engine):
        assert time.monotonic() < deadline, "the quick server neither waited nor ended"
        time.sleep(0.01)
    resumed.set()
    for thread in taking:
        thread.join(60)
    full_engine.dispose()
    assert sorted(map(str, outcomes.values())) == [
        "['Vasco Board 1 alice', 'Vasco Board 1 alice']",
        "[]",
    ], outcomes
    with quick.sessions() as session:
        assert session.get_one(Board, 1).version == 2


def waiting_on_a_lock(engine: Engine) -> bool:
    """Whether a connection of this PostgreSQL waits for a lock now."""
    with engine.connect() as connection:
        query = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        return bool(connection.exec_driver_sql(query).scalar())
