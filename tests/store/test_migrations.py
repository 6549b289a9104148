"""The migrations build exactly the tables the models describe, on both engines."""

from __future__ import annotations

import sqlite3
from multiprocessing.context import SpawnContext
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, inspect, text

from pbem.cli import main
from pbem.store import Base, make_engine, upgrade
from tests.conftest import ENGINES, empty_database_url


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


@pytest.mark.parametrize("kind", ENGINES)
def test_servers_starting_at_once_upgrade_a_new_database_in_turn(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path, spawn: SpawnContext
) -> None:
    url = empty_database_url(kind, request, tmp_path)
    context = spawn
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


def test_boards_made_before_with_bot_was_kept_know_whether_a_bot_plays_them(
    tmp_path: Path,
) -> None:
    """Migration 0022 marks the boards a bot sits at, from their seats."""
    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    upgrade(engine, "0021")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (id, userid, userid_key, password_hash, mail_preference, "
                "vacation, signed_off, created_at, session_generation) VALUES "
                "(100, 'ann', 'ann', '!', 'every', 0, 0, '2026-01-01', 0), "
                "(101, 'bob', 'bob', '!', 'every', 0, 0, '2026-01-01', 0)"
            )
        )
        bot = connection.execute(text("SELECT id FROM users WHERE userid = 'hardbot'")).scalar()
        for board, players in ((1, (100, 101)), (2, (100, bot)), (3, (bot, 101))):
            connection.execute(
                text(
                    "INSERT INTO boards (id, game, options, status, version, snapshot, rated, "
                    "created_at, updated_at) VALUES (:id, 'vasco', '{}', 'active', 0, '{}', 0, "
                    "'2026-01-01', '2026-01-01')"
                ),
                {"id": board},
            )
            for seat, user in enumerate(players):
                connection.execute(
                    text(
                        "INSERT INTO board_players (board_id, seat, user_id, accepted) "
                        "VALUES (:board, :seat, :user, 1)"
                    ),
                    {"board": board, "seat": seat, "user": user},
                )
    upgrade(engine)
    with engine.connect() as connection:
        found = dict(connection.execute(text("SELECT id, with_bot FROM boards")).all())
    engine.dispose()
    assert found == {1: False, 2: True, 3: True}


OLD_ROWS = {  # a small server's database as migration 0014 left it, table by table
    "users": "(id, userid, userid_key, password_hash, mail_preference, vacation, created_at) "
    "VALUES (10, 'ann', 'ann', 'x', 'every', 0, '2026-01-01'), "
    "(11, 'bob', 'bob', 'x', 'every', 0, '2026-01-01')",
    "addresses": "(user_id, address, address_key) VALUES (10, 'ann@ex.org', 'ann@ex.org'), "
    "(11, 'bob@ex.org', 'bob@ex.org')",
    "api_tokens": "(user_id, label, token_hash, created_at) VALUES (10, 'cli', 'h', '2026-01-01')",
    "boards": "(id, game, options, status, version, snapshot, created_at, updated_at) "
    "VALUES (1, 'vasco', '{}', 'active', 1, '{}', '2026-01-01', '2026-01-01'), "
    "(2, 'vacu', '{}', 'finished', 3, '{}', '2026-01-01', '2026-01-02')",
    "board_players": "(board_id, seat, user_id) "
    "VALUES (1, 0, 10), (1, 1, 11), (2, 0, 11), (2, 1, 10)",
    "moves": "(board_id, number, seat, text, note, comment, auto, played_at) "
    "VALUES (1, 1, 0, 'a0,0', '', '', 0, '2026-01-01'), (2, 1, 0, 'e5', '', '', 0, '2026-01-01')",
    "votes": "(board_id, kind, seat, created_at) VALUES (1, 'draw', 0, '2026-01-01')",
    "queued_moves": "(board_id, seat, text, condition, comment, created_at) "
    "VALUES (1, 0, 'a1,0', '', '', '2026-01-01')",
    "pending_moves": "(board_id, seat, text, version, comment, created_at) "
    "VALUES (1, 1, 'b0,0', 1, '', '2026-01-01')",
    "subscriptions": "(user_id, game, kind, board_id, created_at) "
    "VALUES (10, 'vasco', 'board', 1, '2026-01-01')",
    "ratings": "(user_id, game, rating, games, wins, losses, draws, provisional_sum, seeking) "
    "VALUES (10, 'vacu', 1616, 1, 1, 0, 0, 1800, 0), (11, 'vacu', 1584, 1, 0, 1, 0, 1400, 0)",
    "rating_events": "(board_id, user_id, opponent_id, game, outcome, before, after, created_at) "
    "VALUES (2, 10, 11, 'vacu', 1.0, 1600, 1616, '2026-01-02')",
}


def test_upgrading_an_old_sqlite_database_loses_no_row(tmp_path: Path) -> None:
    """SQLite alters a table by copying it to a new one and dropping the old:
    with foreign keys on, the drop deleted every row that pointed at it (ON
    DELETE CASCADE). Upgrading a database from before 0016 and 0017, which
    alter boards and users, lost every board's players and moves and every
    player's addresses and ratings."""
    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    upgrade(engine, "0014")
    with engine.begin() as connection:
        for table, values in OLD_ROWS.items():
            connection.exec_driver_sql(f"INSERT INTO {table} {values}")
    counts = {table: _count(engine, table) for table in OLD_ROWS}
    upgrade(engine)
    assert {table: _count(engine, table) for table in OLD_ROWS} == {
        **counts,
        "users": counts["users"] + 3,  # the bots (0017)
    }
    with engine.connect() as connection:  # and the server's connections check keys again
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        seats = connection.exec_driver_sql(  # (0025: a seat is active while its board is)
            "SELECT board_id, active FROM board_players ORDER BY board_id, seat"
        ).all()
        played = connection.exec_driver_sql(  # (0026: games but no last play: long ago)
            "SELECT DISTINCT last_played FROM ratings"
        ).all()
    assert seats == [(1, 1), (1, 1), (2, 0), (2, 0)]
    assert [str(day)[:10] for (day,) in played] == ["1970-01-01"]
    engine.dispose()


def _count(engine: Engine, table: str) -> int:
    with engine.connect() as connection:
        return int(connection.exec_driver_sql(f"SELECT count(*) FROM {table}").scalar() or 0)


def test_an_upgrade_that_would_leave_rows_pointing_nowhere_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Keys are off while migrations run, so each is checked before the
    commit: a move of a board that is not there (written by some tool with
    keys off) stops `pbem db upgrade` with a message that says what to do,
    and the database stays as it was."""
    path = tmp_path / "old.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine, "0021")
    engine.dispose()
    with sqlite3.connect(path) as raw:  # keys are off on a bare connection
        raw.execute(
            "INSERT INTO moves (board_id, number, seat, text, note, comment, auto, played_at) "
            "VALUES (99, 1, 0, 'a0,0', '', '', 0, '2026-01-01')"
        )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_DATABASE_URL", f"sqlite:///{path}")
    assert main(["db", "upgrade"]) == 1
    said = capsys.readouterr().err
    assert "The database was not upgraded and stays as it was: 1 row points at" in said, said
    assert "row 1 of moves, its boards is missing" in said
    assert f"sqlite3 {path} 'PRAGMA foreign_key_check'" in said and "Traceback" not in said
    engine = make_engine(f"sqlite:///{path}")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == (
            "0021"
        )
        assert "with_bot" not in {c["name"] for c in inspect(connection).get_columns("boards")}
    engine.dispose()
