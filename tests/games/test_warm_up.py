"""The compiled random-game loops are compiled once and then loaded from
numba's disk cache: a process's first search does not wait for a compile."""

from __future__ import annotations

import sys

import pytest

from tests.processes import Processes


@pytest.mark.usefixtures("numba_cache")
def test_every_compiled_loop_loads_from_its_cache_in_under_two_seconds(
    processes: Processes,
) -> None:
    """Once a first process wrote numba's cache, a later one loads every
    game's loop from it (`pbem.games.warm_up`, as a bot's search process
    does at start) in under two seconds of CPU (a compile takes tens)."""
    timed = (
        "import time; t = time.process_time(); "
        "from pbem.games import warm_up; warm_up(); print(time.process_time() - t)"
    )
    out = processes.run([sys.executable, "-c", timed], check=True, timeout=120)
    assert float(out.stdout) < 2.0, f"warm-up took {out.stdout!r} s of CPU"
