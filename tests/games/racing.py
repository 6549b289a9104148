"""Run a check in several threads at once, the interpreter switching
between them as often as it can: how the compiled loops' kept windows are
shown to serve one playout at a time."""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any


def in_threads(check: Callable[[int], Any], count: int, threads: int = 4) -> None:
    """`check(seed)` for seeds 0 to `count - 1`, spread over `threads`."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(check, range(count)))
    finally:
        sys.setswitchinterval(interval)
