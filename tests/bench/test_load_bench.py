"""The load benchmark runs end to end, as a user runs it: it starts the real
server (and PostgreSQL), prints a row for every phase, and stops what it started."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ENGINES
from tests.databases import upgraded_sqlite
from tests.processes import Processes

ROOT = Path(__file__).resolve().parents[2]
PHASES = [
    "bare FastAPI GET /",
    "API move",
    "board page",
    "board JSON",
    "game list",
    "standings",
    "player page",
    "mail burst",
    "tick, nothing due",
]


@pytest.mark.parametrize("db", ENGINES)
def test_the_load_benchmark_prints_a_row_for_every_phase(processes: Processes, db: str) -> None:
    # (the fewest clients, seconds and mails that still run every phase)
    command = [sys.executable, "-m", "bench.load", "--db", db, "--clients", "2", "--seconds", "1"]
    command += ["--mails", "20"]
    run = processes.run(command, cwd=ROOT, text=True, timeout=240)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "Traceback" not in output, output
    lines = run.stdout.splitlines()
    for phase in PHASES:
        rows = [line for line in lines if line.startswith(phase)]
        assert rows, f"no row for {phase!r}:\n{output}"
        assert "|" in rows[0], rows[0]
    assert "board mails in the Maildir" in run.stdout, output
    # where the CPU went in each phase, by kind of process (/proc)
    spent = [line for line in lines if "CPU seconds in" in line]
    assert len(spent) == len(PHASES) - 2, output  # (the burst has its own line; the tick none)
    assert "CPU seconds from the burst" in run.stdout, output
    assert all("web " in line for line in spent[1:]), output  # (the first: bare FastAPI)
    if len(os.sched_getaffinity(0)) > 1:  # (one CPU: one web process, nothing to split)
        # how the clients' connections fell among the web processes (/proc)
        split = [line for line in lines if "connections per web process" in line]
        assert len(split) == 6, output  # the moves and the five page phases
        counts = [int(n) for n in re.findall(r"\d+", split[0].split("halfway:")[1].split("(")[0])]
        assert len(counts) > 1 and sum(counts) == 2, split[0]  # both clients, busiest first
        assert counts == sorted(counts, reverse=True), split[0]


def test_a_large_run_moves_and_shows_fresh_boards_of_its_own(tmp_path: Path) -> None:
    """The large run's moves and board pages are on a second set of boards,
    as fresh as the small run's first set was, so that the two runs' answers
    are the same size (a board's page grows with its moves)."""
    import random

    from bench.load import BOARDS_PER_CLIENT, fill
    from pbem.store import make_engine

    engine = make_engine(upgraded_sqlite(tmp_path / "bench.sqlite3"))
    plan = fill(engine, "vasco", 2, 0, random.Random(1), sets=2)
    engine.dispose()
    first = [board.id for group in plan.api_boards for board in group]
    assert len(first) == 2 * BOARDS_PER_CLIENT and len(plan.fresh) == 1
    plan.api_boards[0][0].played = 3
    plan.next_boards()
    second = [board.id for group in plan.api_boards for board in group]
    assert len(second) == len(first) and not set(first) & set(second)
    assert not plan.fresh and all(board.played == 0 for board in plan.boards_with_moves())


DECOY = """
import socket, sys, time
from pbem.host.processes import name_this_process
name_this_process("pbem-web")
listener = socket.create_server(("127.0.0.1", 0))
client = socket.create_connection(listener.getsockname())
held, _ = listener.accept()
end = time.process_time() + 0.3
while time.process_time() < end:
    pass
print(listener.getsockname()[1], flush=True)
time.sleep(120)
"""


def test_the_bench_counts_only_the_processes_of_its_own_server(processes: Processes) -> None:
    """Another pbem on the machine (here a decoy named as pbem's web
    processes are, in a session of its own, holding a connection) is
    neither one of the server's web processes nor its CPU: it is "other"."""
    from bench.load import cpu_by_kind, web_connections

    decoy = processes.start([sys.executable, "-c", DECOY], stdout=subprocess.PIPE, text=True)
    assert decoy.stdout is not None
    port = int(decoy.stdout.readline())
    assert web_connections(port, decoy.pid) == [1]  # (the decoy's session is its pid)
    assert web_connections(port, os.getsid(0)) == []
    assert web_connections(port, None) == []
    mine = cpu_by_kind(os.getsid(0))
    theirs = cpu_by_kind(decoy.pid)
    assert theirs["web"] >= 0.2 and "web" not in mine
