"""How much work a database does for some statements, to test that a query
costs what it finds and not what the tables hold: the plan, not the clock
(these machines are noisy). SQLite counts its virtual machine's steps;
PostgreSQL the buffer pages the plan touched (EXPLAIN ANALYZE, BUFFERS)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, event

STEPS = 10  # SQLite's instructions between two counts


@contextmanager
def reads_of(engine: Engine) -> Iterator[list[tuple[str, Any]]]:
    """The SELECT statements (with their parameters) run on the engine inside."""
    seen: list[tuple[str, Any]] = []

    def note(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_rest: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def work_of(engine: Engine, statements: list[tuple[str, Any]]) -> int:
    """The work of running these statements again, in the database's own unit."""
    raw = engine.raw_connection()
    try:
        driver = raw.driver_connection
        if engine.dialect.name == "sqlite":
            return _sqlite_steps(driver, statements)
        return _postgres_pages(driver, statements)
    finally:
        raw.close()


def _sqlite_steps(driver: Any, statements: list[tuple[str, Any]]) -> int:
    count = [0]

    def step() -> int:
        count[0] += 1
        return 0  # go on

    driver.set_progress_handler(step, STEPS)
    try:
        for statement, parameters in statements:
            driver.execute(statement, parameters).fetchall()
    finally:
        driver.set_progress_handler(None, STEPS)
    return count[0]


def _postgres_pages(driver: Any, statements: list[tuple[str, Any]]) -> int:
    pages = 0
    with driver.cursor() as cursor:
        for statement, parameters in statements:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + statement, parameters)
            [[[plan]]] = cursor.fetchall()
            top: dict[str, Any] = plan["Plan"]
            pages += int(top.get("Shared Hit Blocks", 0)) + int(top.get("Shared Read Blocks", 0))
    driver.rollback()
    return pages


def statistics_as_autovacuum_keeps_them(engine: Engine) -> None:
    """What PostgreSQL's autovacuum does on its own a minute or so after
    tables change (too late for a test): the planner's statistics, and the
    old versions of changed rows gone from the indexes."""
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("VACUUM (ANALYZE)")


class QueryWork:
    """What the `query_work` fixture gives (tests/conftest.py): the helpers
    above, for a test that measures a query among the many rows it made
    first (tiered slow: making them takes seconds)."""

    reads_of = staticmethod(reads_of)
    work_of = staticmethod(work_of)
    statistics_as_autovacuum_keeps_them = staticmethod(statistics_as_autovacuum_keeps_them)
