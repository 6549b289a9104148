"""The migrations build exactly the tables the models describe, on both engines."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, inspect

from pbem.store import Base, upgrade


def test_upgrade_builds_every_table_the_models_describe(engine: Engine) -> None:
    tables = set(inspect(engine).get_table_names())
    assert {"users", "addresses", "boards", "board_players", "moves", "outbox"} <= tables
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []


def test_upgrade_twice_changes_nothing(engine: Engine) -> None:
    before = sorted(inspect(engine).get_table_names())
    upgrade(engine)
    assert sorted(inspect(engine).get_table_names()) == before
