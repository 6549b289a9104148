"""Failed password checks, counted to stop guessing.

Every pbmserv command carries a password, by mail, on the web and through
the API, so a guesser can try as fast as the server answers. Wrong passwords
are counted per userid and per source (the sender's address for mail, the
client's address on the web) over the last WINDOW; past the limits, the
password is not even checked until the oldest failure is WINDOW old, and the
refusal says when to try again. The counts are kept in each server process
(with several servers, each counts its own). An unknown userid counts like
a known one, so the refusals tell nothing about which userids exist.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable

from ..errors import FORBIDDEN, CommandError

WINDOW = 15 * 60.0  # seconds over which failures count
PER_USERID = 10  # wrong passwords for one userid in the window
PER_SOURCE = 30  # wrong passwords from one address in the window
MAX_KEYS = 100_000  # the most userids and sources tracked (the oldest dropped)


class Failures:
    """Times of recent failures by key, thread-safe."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._times: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._times.get(key)
        if times is None:
            return deque()
        while times and times[0] <= now - WINDOW:
            times.popleft()
        if not times:
            del self._times[key]
        return times

    def wait(self, key: str, limit: int) -> float:
        """Seconds until `key` may try again (0: it may now)."""
        with self._lock:
            now = self._clock()
            times = self._recent(key, now)
            return 0.0 if len(times) < limit else times[-limit] + WINDOW - now

    def add(self, key: str) -> None:
        with self._lock:
            now = self._clock()
            self._recent(key, now)
            if len(self._times) >= MAX_KEYS and key not in self._times:
                self._times.pop(next(iter(self._times)))
            self._times.setdefault(key, deque()).append(now)


FAILURES = Failures()


def check_allowed(userid: str, source: str) -> None:
    """Refuse before any password check when the userid or the source has
    failed too often lately."""
    waits = [FAILURES.wait(f"user:{userid.lower()}", PER_USERID)] if userid else [0.0]
    if source:
        waits.append(FAILURES.wait(f"from:{source.lower()}", PER_SOURCE))
    wait = max(waits)
    if wait > 0:
        minutes = math.ceil(wait / 60)
        raise CommandError(
            f"Too many wrong passwords lately for '{userid[:40] or 'you'}' or from your address: "
            f"no password is checked for it for {minutes} more minute"
            f"{'s' if minutes != 1 else ''}. Try again then.",
            kind=FORBIDDEN,
        )


def record_failure(userid: str, source: str) -> None:
    """Count a wrong password (or, with no userid, an unknown API token)."""
    if userid:
        FAILURES.add(f"user:{userid.lower()}")
    if source:
        FAILURES.add(f"from:{source.lower()}")


def forget_failures() -> None:
    """Start counting afresh (tests, and a keeper who lifted a block)."""
    global FAILURES
    FAILURES = Failures()
