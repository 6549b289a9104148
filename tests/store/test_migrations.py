"""The migrations build exactly the tables the models describe, on both engines."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, inspect

from pbem.store import Base, make_engine, upgrade
from tests.conftest import empty_database_url


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


def _upgrade(url: str, start: Any) -> None:
    engine = make_engine(url)
    start.wait(60)
    upgrade(engine)
    engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_servers_starting_at_once_upgrade_a_new_database_in_turn(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = empty_database_url(kind, request, tmp_path)
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(3)
    servers = [context.Process(target=_upgrade, args=(url, start)) for _ in range(3)]
    for process in servers:
        process.start()
    for process in servers:
        process.join(120)
    assert [process.exitcode for process in servers] == [0, 0, 0]
    engine = make_engine(url)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    engine.dispose()
