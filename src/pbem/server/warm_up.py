"""A web process made ready before its first request.

Right after a start, every request paid for what the process had not done
yet: SQLAlchemy compiled each statement on its first use (under a burst
every thread compiled the same ones at once), each pooled PostgreSQL
connection was opened by the request that first needed it, and on each
connection a statement is prepared only on its sixth run (psycopg's
prepare_threshold), its plan settled on the sixth run after that
(PostgreSQL's custom plans), so the first moves after a start cost far
more than the rest (docs/performance.md). `warm_up` does all of it once, at start,
on keys that match nothing: it reads and writes no board."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Executable
from sqlalchemy.exc import SQLAlchemyError

from . import api_tokens
from .boards import quick_move
from .service import Server
from .views import board_view

log = logging.getLogger(__name__)

# Runs of each read on each connection: psycopg prepares it on the sixth,
# and PostgreSQL settles its plan after five more.
POSTGRES_RUNS = 11


def warm_up(server: Server, connections: int) -> None:
    """Compile the hot statements and, on PostgreSQL, open `connections`
    pooled connections (as many as the process runs requests at once) with
    the hot reads prepared on each. A failure (the database not up yet) is
    logged: the requests then pay as before."""
    reader = server.reader
    postgres = reader.dialect.name == "postgresql"
    reads: tuple[tuple[Executable, Mapping[str, Any]], ...] = (
        *api_tokens.WARM_READS,
        *quick_move.WARM_READS,
        *board_view.warm_reads(reader.dialect.name),
    )
    try:
        with contextlib.ExitStack() as stack:
            count = connections if postgres else 1
            held = [stack.enter_context(reader.connect()) for _ in range(count)]
            for connection in held:
                for _ in range(POSTGRES_RUNS if postgres else 1):
                    for statement, values in reads:
                        connection.execute(statement, values).all()
            if postgres:
                quick_move.warm_write(held[0], server.clock())
    except SQLAlchemyError as error:
        log.warning("could not warm up the database connections: %s", error)
