"""The same move mailed twice, handled by two processes at once on a real
database: it is played once, and the other copy gets the stale-move error."""

from __future__ import annotations

import multiprocessing

from sqlalchemy import Engine

from pbem.store import Board, make_engine, session_factory
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
        ["Vasco Board 1 bob", "Vasco Board 1 bob"],
        [f"pbem error: {line}"],
    ]
    with server.sessions() as session:
        assert session.get_one(Board, 1).version == 1
