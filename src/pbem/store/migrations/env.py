"""Alembic's entry point: migrate the engine `pbem.store.upgrade` passes in."""

from __future__ import annotations

from alembic import context

from pbem.store.models import Base

UPGRADE_LOCK = 7_262_021  # a key of ours among PostgreSQL's advisory locks
engine = context.config.attributes["engine"]
with engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Several servers starting at once on one database upgrade it one
            # after the other; the later ones then find nothing left to do.
            # (SQLite's BEGIN IMMEDIATE already makes them wait in turn.)
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({UPGRADE_LOCK})")
        context.run_migrations()
    connection.commit()
