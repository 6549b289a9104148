"""A web process's warm-up (server/warm_up.py): after it, a plain move
compiles nothing and, on PostgreSQL, finds its reads prepared on every
connection the process holds; it writes nothing, and a database that is
not there yet only logs a warning."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from sqlalchemy import Engine, event, func, select, text
from sqlalchemy.engine.interfaces import CacheStats

from pbem.games import get_game
from pbem.server import Server
from pbem.server.language import commands
from pbem.server.warm_up import warm_up
from pbem.store import (
    Board,
    MoveRow,
    OutboxMessage,
    ProcessedMessage,
    User,
    make_engine,
    session_factory,
)
from tests.databases import upgraded_postgresql
from tests.server.test_commands import signup

TABLES = (Board, MoveRow, OutboxMessage, ProcessedMessage, User)


def counts(server: Server) -> list[int]:
    with server.sessions() as session:
        return [session.scalar(select(func.count()).select_from(table)) or 0 for table in TABLES]


def challenged(server: Server, boards: int = 1) -> str:
    """ann and bob on Trugo boards (1, 2, ...); the first legal move's text."""
    signup(server, "ann", "bob")
    for _ in range(boards):
        server.handle("ann@example.org", "trugo challenge ann bob")
    state = get_game("trugo").start()
    return state.move_text(state.legal_moves()[0])


def test_warm_up_reads_and_writes_nothing(server: Server) -> None:
    challenged(server)
    before = counts(server)
    warm_up(server, 4)
    warm_up(server, 4)
    assert counts(server) == before


def cache_use(
    database_url: str, board: int, move: str, *, warmed: bool
) -> list[tuple[str, CacheStats]]:
    """Each statement of a plain move on a new engine (a new process, as
    far as compiling goes) and whether it was compiled then, after a
    warm-up or not."""
    engine = make_engine(database_url)
    try:
        server = Server(session_factory(engine))
        if warmed:
            warm_up(server, 4)
        said: list[tuple[str, CacheStats]] = []

        def note(_connection: Any, _cursor: Any, statement: str, *rest: Any) -> None:
            said.append((statement.split(None, 1)[0].upper(), rest[1].cache_hit))

        event.listen(engine, "before_cursor_execute", note)
        try:
            command = commands.Move(game="trugo", board=board, userid="ann", move=move)
            sent = server.execute(command, as_user="ann")
        finally:
            event.remove(engine, "before_cursor_execute", note)
        assert [mail.error for mail in sent.mails] == [None, None]
        return said
    finally:
        engine.dispose()


def test_after_warm_up_a_plain_move_compiles_nothing(
    server: Server, database_url: str, engine: Engine
) -> None:
    """Without the warm-up, a new process's first move compiled its
    statements; with it, it compiles none on PostgreSQL (its one write
    statement included) and none of its reads on SQLite (whose write turn
    is a transaction of its own statements, compiled once per process)."""
    move = challenged(server, boards=2)
    cold = cache_use(database_url, 1, move, warmed=False)
    assert ("SELECT", CacheStats.CACHE_MISS) in cold
    warm = cache_use(database_url, 2, move, warmed=True)
    checked = (
        warm
        if engine.dialect.name == "postgresql"
        else [(kind, hit) for kind, hit in warm if kind == "SELECT"]
    )
    assert checked and all(hit == CacheStats.CACHE_HIT for _, hit in checked)


def test_every_held_postgresql_connection_has_the_reads_prepared(postgres_server: str) -> None:
    """(PostgreSQL only: SQLite has no server to prepare statements on.)"""
    engine = make_engine(upgraded_postgresql(postgres_server))
    warm_up(Server(session_factory(engine)), 4)
    held = [engine.connect() for _ in range(4)]
    try:
        prepared = [
            connection.scalar(text("SELECT count(*) FROM pg_prepared_statements"))
            for connection in held
        ]
    finally:
        for connection in held:
            connection.close()
        engine.dispose()
    assert all(count >= 6 for count in prepared), prepared


def test_a_database_not_there_yet_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    engine = make_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")
    try:
        with caplog.at_level(logging.WARNING, logger="pbem.server.warm_up"):
            warm_up(Server(session_factory(engine)), 2)
    finally:
        engine.dispose()
    assert "could not warm up" in caplog.text
