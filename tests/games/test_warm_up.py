"""The compiled random-game loops are compiled once and then loaded from
numba's disk cache: a process's first search does not wait for a compile."""

from __future__ import annotations

import sys

from tests.processes import Processes


def test_every_compiled_loop_loads_from_its_cache_in_under_two_seconds(
    processes: Processes, numba_cache: dict[str, str]
) -> None:
    """After a first process wrote numba's cache, a later one loads every
    game's loop from it (`pbem.games.warm_up`, as a bot's search process
    does at start) in under two seconds."""
    timed = (
        "import time; t = time.perf_counter(); "
        "from pbem.games import warm_up; warm_up(); print(time.perf_counter() - t)"
    )
    out = processes.run([sys.executable, "-c", timed], env=numba_cache, check=True, timeout=60)
    assert float(out.stdout) < 2.0, f"warm-up took {out.stdout!r}"
