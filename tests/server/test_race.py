"""The same move mailed twice, handled by two processes at once on a real
database: it is played once, and the other copy gets the stale-move error."""

from __future__ import annotations

import multiprocessing

from sqlalchemy import Engine

from pbem.store import Board, make_engine, session_factory
from pbem.store.boards import StaleBoard, apply_move
from tests.server.test_commands import CheckedServer, Clock, signup


def _handle(url: str, line: str, start: object, results: object) -> None:
    engine = make_engine(url)
    server = CheckedServer(session_factory(engine), Clock())
    start.wait()  # type: ignore[attr-defined]
    messages = server.handle("alice@example.org", line)
    results.put([m.subject for m in messages])  # type: ignore[attr-defined]
    engine.dispose()


def test_a_duplicated_move_racing_itself_is_played_once(engine: Engine, database_url: str) -> None:
    server = CheckedServer(session_factory(engine), Clock())
    signup(server, "alice", "bob")
    server.handle("alice@example.org", "vasco challenge alice bob")
    context = multiprocessing.get_context("spawn")
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
