"""Alembic's entry point: migrate the engine `pbem.store.upgrade` passes in.

On SQLite, a migration alters a table by copying it into a new one and
dropping the old; with foreign keys checked, that drop deletes every row
pointing at the table (ON DELETE CASCADE: a board's players and moves, a
player's addresses and ratings). So foreign keys are off while migrations
run (SQLite only honours that outside a transaction), every key is checked
before the commit, and they are on again before the connection goes back
to the pool."""

from __future__ import annotations

from typing import Any

from alembic import context
from sqlalchemy import Connection

from pbem.store.database import UpgradeRefused
from pbem.store.models import Base

UPGRADE_LOCK = 7_262_021  # a key of ours among PostgreSQL's advisory locks


def refusal(database: str, broken: list[Any]) -> UpgradeRefused:
    """What to tell the host when rows point at rows that are not there."""
    table, row, parent = broken[0][:3]
    count = "1 row points" if len(broken) == 1 else f"{len(broken)} rows point"
    return UpgradeRefused(
        f"The database was not upgraded and stays as it was: {count} at "
        f"rows that are not there (the first: row {row} of {table}, its {parent} is "
        f"missing). Delete or mend them (sqlite3 {database} 'PRAGMA foreign_key_check' "
        "lists them all), or restore a copy made before, then start again."
    )


def foreign_keys(connection: Connection, on: bool) -> None:
    """Check SQLite's foreign keys, or not (outside any transaction)."""
    driver: Any = connection.connection.driver_connection
    driver.execute(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")


engine = context.config.attributes["engine"]
with engine.connect() as connection:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        foreign_keys(connection, False)
    try:
        context.configure(
            connection=connection,
            target_metadata=Base.metadata,
            render_as_batch=sqlite,
            # SQLite's DDL is transactional too (pbem's connections leave the
            # transactions to SQLAlchemy): all the steps commit together or
            # none does, as on PostgreSQL.
            transactional_ddl=True,
        )
        with context.begin_transaction():
            if connection.dialect.name == "postgresql":
                # Several servers starting at once on one database upgrade it one
                # after the other; the later ones then find nothing left to do.
                # (SQLite's BEGIN IMMEDIATE already makes them wait in turn.)
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({UPGRADE_LOCK})")
            context.run_migrations()
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                if broken:
                    raise refusal(str(connection.engine.url.database), list(broken))
        connection.commit()
    finally:
        if sqlite:
            connection.rollback()  # (after a failure: out of any transaction first)
            foreign_keys(connection, True)
