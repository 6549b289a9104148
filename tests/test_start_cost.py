"""`pbem receive` and `pbem send` start quickly: a mail server starts one
`pbem receive` per mail, and a process that spends a second of CPU
before its first statement makes a burst of mail a queue.

Each command runs as a real process, with one short mail or command on an
upgraded SQLite database, and its CPU (user + system, from wait4) is
bounded for the whole run: the work after the first statement is
milliseconds, so the run is its start. What a process imports before that
statement is bounded once more on its own (`python -c "import ..."`). The
machine is shared: the best of a few runs counts, and only the bounds are
written here; docs/performance.md keeps the figures measured and how.

The upgrade check every one of these processes makes is tested here too:
a database already at the newest revision is read once, without alembic."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import Engine

from pbem.store import make_engine, upgrade
from pbem.store.database import MIGRATIONS, head_revisions, is_up_to_date
from tests.conftest import ENGINES, empty_database_url
from tests.databases import upgraded_sqlite
from tests.processes import Processes

# The target (issue 48): under 0.5 s of CPU before the first statement.
# Measured (docs/performance.md): the import about 0.4 s, the work after
# the first statement about 0.05 s. A machine loaded beyond its cores
# stretches CPU seconds (the best of five imports took 0.52 s with 13
# runnable processes on 2 cores): the bounds leave that margin.
RUN_CPU = 0.7  # seconds of CPU for a whole `pbem receive` or `pbem send` of one short mail
IMPORT_CPU = 0.6  # seconds of CPU to import what they import before their first statement
TRIES = 5  # runs at most, until one is within its bound (the machine is shared)

# What `pbem receive` and `pbem send` import before their first statement.
STARTING = ["pbem.cli", "pbem.host.logs", "pbem.mail.receive", "pbem.server"]
STARTING += ["sqlalchemy.dialects.sqlite.pysqlite", "sqlite3"]
# Packages they must not import at all (the web door's, the listener's,
# the pictures', the bots' compiled code, alembic on a database at the head,
# PostgreSQL's dialect and driver on SQLite).
NOT_IMPORTED = {"aiosmtpd", "alembic", "fastapi", "jinja2", "mako", "numba", "numpy", "pydantic"}
NOT_IMPORTED |= {"pyvips", "starlette", "uvicorn", "sqlalchemy.dialects.postgresql", "psycopg"}


def mail(number: int) -> bytes:
    return (
        f"From: Ann <ann{number}@example.org>\r\nTo: pbem@localhost\r\n"
        f"Subject: signup ann{number} secret1\r\nMessage-ID: <start{number}@example.org>\r\n"
        "\r\nHello!\r\n"
    ).encode()


def send_line(number: int) -> list[str]:
    return ["send", "--from", f"ben{number}@example.org", f"signup ben{number} secret2"]


def environment(processes: Processes, url: str) -> dict[str, str]:
    """The tests' environment on the database `url`, writing bytecode: an
    installed pbem has its bytecode, and compiling it is not starting."""
    env = processes.env(database_url=url)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def cpu_of(
    processes: Processes, command: list[str], stdin: bytes, env: dict[str, str], cwd: Path
) -> tuple[float, str]:
    """The CPU seconds (user + system) `command` took from start to end, and
    what it wrote; it must exit 0."""
    with tempfile.TemporaryFile() as output:
        process = processes.start(
            command, stdin=subprocess.PIPE, stdout=output, stderr=subprocess.STDOUT,
            env=env, cwd=cwd,
        )  # fmt: skip
        assert process.stdin is not None
        process.stdin.write(stdin)
        process.stdin.close()
        deadline = time.monotonic() + 120
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                processes.kill(process)
                raise AssertionError(f"{command} still runs after 120 s")
            time.sleep(0.01)
        process.returncode = os.waitstatus_to_exitcode(status)
        output.seek(0)
        said = output.read().decode(errors="replace")
    assert process.returncode == 0, said[-3000:]
    return usage.ru_utime + usage.ru_stime, said


def best_of(run: Callable[[int], float], bound: float) -> list[float]:
    """The CPU seconds of run(0), run(1) ... until one is within `bound`."""
    seen: list[float] = []
    while len(seen) < TRIES and (not seen or seen[-1] >= bound):
        seen.append(run(len(seen)))
    return seen


def imported(importtime: str) -> set[str]:
    """The modules a `python -X importtime` run names on its standard error."""
    return set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \| +(\S+)$", importtime, re.MULTILINE))


def forbidden(modules: set[str]) -> set[str]:
    """The modules of `modules` in NOT_IMPORTED (a package there stands for
    its modules too)."""
    return {
        name
        for name in modules
        if any(name == package or name.startswith(f"{package}.") for package in NOT_IMPORTED)
    }


def pbem(*words: str) -> list[str]:
    return [sys.executable, "-m", "pbem.cli", *words]


@pytest.fixture
def env(processes: Processes, tmp_path: Path) -> dict[str, str]:
    """An upgraded database, and the bytecode of what a run imports written
    (that first run is not measured); it imports nothing it should not."""
    env = environment(processes, upgraded_sqlite(tmp_path / "pbem.sqlite3"))
    done = processes.run(
        [sys.executable, "-X", "importtime", "-m", "pbem.cli", "receive"],
        input=mail(999), env=env, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    modules = imported(done.stderr.decode())
    assert "pbem.mail.receive" in modules
    assert not forbidden(modules)
    return env


def test_pbem_receive_of_one_short_mail_starts_fast(
    processes: Processes, tmp_path: Path, env: dict[str, str]
) -> None:
    def run(number: int) -> float:
        cpu, said = cpu_of(processes, pbem("receive"), mail(number), env, tmp_path)
        assert f"ran 'signup ann{number} ...' from ann{number}@example.org: 1 mails" in said
        return cpu

    seen = best_of(run, RUN_CPU)
    assert min(seen) < RUN_CPU, f"pbem receive took {seen} s of CPU"


def test_pbem_send_of_one_short_command_starts_fast(
    processes: Processes, tmp_path: Path, env: dict[str, str]
) -> None:
    def run(number: int) -> float:
        cpu, said = cpu_of(processes, pbem(*send_line(number)), b"", env, tmp_path)
        assert f"Subject: pbem signup ben{number}\n" in said
        return cpu

    seen = best_of(run, RUN_CPU)
    assert min(seen) < RUN_CPU, f"pbem send took {seen} s of CPU"


def test_what_they_import_before_their_first_statement_imports_fast(
    processes: Processes, tmp_path: Path, env: dict[str, str]
) -> None:
    """With the collector paused, and what they made frozen at the end, as
    `pbem.cli` does (without gc.freeze, the collections at exit walk it all)."""
    imports = f"import gc; gc.disable(); import {', '.join(STARTING)}; gc.freeze()"
    probe = [sys.executable, "-c", imports]
    seen = best_of(lambda _: cpu_of(processes, probe, b"", env, tmp_path)[0], IMPORT_CPU)
    assert min(seen) < IMPORT_CPU, f"importing {STARTING} took {seen} s of CPU"


def test_the_newest_revision_is_read_as_alembic_reads_it() -> None:
    from alembic.script import ScriptDirectory

    assert head_revisions() == set(ScriptDirectory(str(MIGRATIONS)).get_heads())


def refuse_alembic(monkeypatch: pytest.MonkeyPatch) -> None:
    import alembic.command

    def refused(*_: object) -> None:
        raise AssertionError("alembic ran an upgrade")

    monkeypatch.setattr(alembic.command, "upgrade", refused)


def test_a_database_at_the_newest_revision_is_not_upgraded_again(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert is_up_to_date(engine)
    refuse_alembic(monkeypatch)
    upgrade(engine)


@pytest.mark.parametrize("kind", ENGINES)
def test_new_and_older_databases_are_upgraded_by_alembic(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    engine = make_engine(empty_database_url(kind, request, tmp_path))
    try:
        assert not is_up_to_date(engine)  # no alembic_version yet
        upgrade(engine, "0025")
        assert not is_up_to_date(engine)
        upgrade(engine)
        assert is_up_to_date(engine)
    finally:
        engine.dispose()


def test_a_database_newer_than_the_code_is_left_to_alembic(engine: Engine) -> None:
    """A revision the code does not know stops the start as it always did."""
    from alembic.util import CommandError

    with engine.begin() as connection:
        connection.exec_driver_sql("UPDATE alembic_version SET version_num = '9999'")
    assert not is_up_to_date(engine)
    with pytest.raises(CommandError, match="9999"):
        upgrade(engine)
