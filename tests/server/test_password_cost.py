"""argon2's cost is a host's setting (argon2_time_cost, argon2_memory_kib,
argon2_parallelism): new hashes are made at the cost set, by `pbem` commands
and web processes alike; a hash already stored is checked at the cost it
was made with. The default is argon2-cffi's own (3 passes over 64 MiB in 4
lanes). The rest of the tests run at the cheapest cost (tests/conftest.py);
these run at the real ones."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from argon2 import extract_parameters
from sqlalchemy import select

from pbem.cli import main
from pbem.server import Server
from pbem.server.players import passwords
from pbem.settings import Settings, SettingsError, load_settings
from pbem.store import User, make_engine, session_factory
from tests.databases import upgraded_sqlite


@pytest.fixture(autouse=True)
def _cost_restored() -> Iterator[None]:
    """Each test here sets a cost of its own; the tests' cheap one after it."""
    yield
    passwords.set_cost(1, 8, 1)


def stored_hash(url: str, userid: str) -> str:
    engine = make_engine(url)
    with session_factory(engine)() as session:
        found = session.scalars(select(User.password_hash).where(User.userid == userid)).one()
    engine.dispose()
    return found


def cost_of(password_hash: str) -> tuple[int, int, int]:
    made = extract_parameters(password_hash)
    return (made.time_cost, made.memory_cost, made.parallelism)


def test_the_default_is_argon2_s_own_and_costs_real_time(tmp_path: Path) -> None:
    assert Settings().argon2_cost == (3, 65_536, 4)
    assert load_settings({}, tmp_path / "missing.toml").argon2_cost == (3, 65_536, 4)
    passwords.set_cost(*Settings().argon2_cost)
    server = Server(session_factory(make_engine(upgraded_sqlite(tmp_path / "pbem.sqlite3"))))
    started = time.perf_counter()
    server.handle("ann@example.org", "signup ann annpass1")
    assert time.perf_counter() - started > 0.02  # (64 MiB written three times over)
    assert cost_of(stored_hash(str(server.writer.url), "ann")) == (3, 65_536, 4)
    # the unknown userid's dummy hash is made at the same cost, so it takes as long
    assert cost_of(passwords.dummy_hash()) == (3, 65_536, 4)


def send(sender: str, line: str, capsys: pytest.CaptureFixture[str]) -> str:
    """`pbem send` in this process: what it printed."""
    capsys.readouterr()
    assert main(["send", "--from", f"{sender}@example.org", line, "--body", ""]) == 0
    return capsys.readouterr().out


def test_pbem_commands_hash_at_the_host_s_cost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = upgraded_sqlite(tmp_path / "pbem.sqlite3")
    monkeypatch.setenv("PBEM_DATABASE_URL", url)
    for name, value in (("TIME_COST", "2"), ("MEMORY_KIB", "1024"), ("PARALLELISM", "2")):
        monkeypatch.setenv(f"PBEM_ARGON2_{name}", value)
    send("ann", "signup ann annpass1", capsys)
    assert cost_of(stored_hash(url, "ann")) == (2, 1024, 2)
    # a cheaper cost later: ann's stored hash is still checked at its own
    for name, value in (("TIME_COST", "1"), ("MEMORY_KIB", "8"), ("PARALLELISM", "1")):
        monkeypatch.setenv(f"PBEM_ARGON2_{name}", value)
    send("bob", "signup bob bobpass1", capsys)
    send("ann", "vasco challenge ann bob", capsys)
    assert "Board 1 Error" not in send("ann", "vasco move 1 ann annpass1 a0,0", capsys)
    assert "do not match" in send("ann", "vasco move 1 ann wrongpass b1,0", capsys)
    assert cost_of(stored_hash(url, "bob")) == (1, 8, 1)
    assert cost_of(stored_hash(url, "ann")) == (2, 1024, 2)


@pytest.mark.parametrize(
    ("environ", "words"),
    [
        ({"PBEM_ARGON2_TIME_COST": "0"}, "must be 1 or more"),
        ({"PBEM_ARGON2_PARALLELISM": "0"}, "must be 1 or more"),
        (
            {"PBEM_ARGON2_MEMORY_KIB": "16", "PBEM_ARGON2_PARALLELISM": "4"},
            r"argon2_memory_kib must be at least 8 per lane \(32 for argon2_parallelism = 4\)",
        ),
        ({"PBEM_ARGON2_MEMORY_KIB": "lots"}, "argon2_memory_kib must be a number"),
    ],
)
def test_a_cost_argon2_cannot_take_is_named(
    tmp_path: Path, environ: dict[str, str], words: str
) -> None:
    with pytest.raises(SettingsError, match=words):
        load_settings(environ, tmp_path / "missing.toml")
