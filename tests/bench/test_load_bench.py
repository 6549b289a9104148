"""The load benchmark runs end to end, as a user runs it: it starts the real
server (and PostgreSQL), prints a row for every phase, and stops what it started."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_the_load_benchmark_prints_a_row_for_every_phase(db: str) -> None:
    command = [sys.executable, "-m", "bench.load", "--db", db, "--clients", "2", "--seconds", "1"]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240)
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
    from pbem.store import make_engine, upgrade

    engine = make_engine(f"sqlite:///{tmp_path / 'bench.sqlite3'}")
    upgrade(engine)
    plan = fill(engine, "vasco", 2, 0, random.Random(1), sets=2)
    engine.dispose()
    first = [board.id for group in plan.api_boards for board in group]
    assert len(first) == 2 * BOARDS_PER_CLIENT and len(plan.fresh) == 1
    plan.api_boards[0][0].played = 3
    plan.next_boards()
    second = [board.id for group in plan.api_boards for board in group]
    assert len(second) == len(first) and not set(first) & set(second)
    assert not plan.fresh and all(board.played == 0 for board in plan.boards_with_moves())
