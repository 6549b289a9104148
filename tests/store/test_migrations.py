"""The migrations build exactly the tables the models describe, on both engines."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, inspect, text

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


def test_boards_that_ended_before_endings_were_kept_get_theirs_from_the_prose(
    tmp_path: Path,
) -> None:
    """Migration 0016 reads each finished board's ending from its result."""
    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    upgrade(engine, "0015")
    results = {
        "bob declined the challenge; not rated": "declined",
        "carol never answered the challenge in time; not rated": "unanswered",
        "drawn by agreement": "agreed draw",
        "drawn: the proposal stood unanswered until the forfeit time": "standing draw",
        "bob ran out of time (5 days in all); alice wins": "out of time",
        "bob forfeited: no move in 21 days; alice wins": "forfeit",
        "alice resigned; bob wins": "resignation",
        "Blue's path of 9 is the longest: Red wins": "rules",
    }
    with engine.begin() as connection:
        for number, result in enumerate([*results, None], 1):
            connection.execute(
                text(
                    "INSERT INTO boards (id, game, options, status, version, snapshot, result, "
                    "rated, created_at, updated_at) VALUES (:id, 'vasco', '{}', :status, 0, "
                    "'{}', :result, 0, '2026-01-01', '2026-01-01')"
                ),
                {
                    "id": number,
                    "status": "active" if result is None else "archived",
                    "result": result,
                },
            )
    upgrade(engine)
    with engine.connect() as connection:
        found = dict(connection.execute(text("SELECT result, ending FROM boards")).all())
    engine.dispose()
    assert found == {**results, None: None}
