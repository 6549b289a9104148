"""The compiled random-game loops are compiled once and then loaded from
numba's disk cache: a process's first search does not wait for a compile."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def test_every_compiled_loop_loads_from_its_cache_in_under_two_seconds(tmp_path: Path) -> None:
    """The first run writes numba's cache; a later process loads every
    game's loop from it (`pbem.games.warm_up`, as a bot's search process
    does at start) in under two seconds."""
    script = "from pbem.games import warm_up; warm_up()"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", script], check=True, env=env, timeout=300)
    timed = f"import time; t = time.perf_counter(); {script}; print(time.perf_counter() - t)"
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", timed], check=True, env=env, timeout=300, capture_output=True
    )
    assert float(out.stdout) < 2.0, f"warm-up took {out.stdout!r}"
    assert time.perf_counter() - start < 10
