"""Logging for the server's processes: one line per event on standard
error, and no flood. A storm of connections or bad mails must not fill the
disk with the same line: each kind of line (its logger and message
template) is written at most BURST times per PERIOD seconds; then one line
says how many like it were held back."""

from __future__ import annotations

import logging
import sys
import threading
import time

BURST = 20  # lines of one kind written per period
PERIOD = 10.0  # seconds
FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"


class RateLimit(logging.Filter):
    """Let through BURST records of each kind per PERIOD, count the rest."""

    def __init__(self, burst: int = BURST, period: float = PERIOD) -> None:
        super().__init__()
        self.burst, self.period = burst, period
        self._lock = threading.Lock()
        self._kinds: dict[tuple[str, str], list[float]] = {}  # kind: [start, count, held]

    def filter(self, record: logging.LogRecord) -> bool:
        kind = (record.name, str(record.msg))
        now = time.monotonic()
        with self._lock:
            state = self._kinds.get(kind)
            if state is None or now - state[0] >= self.period:
                held = 0 if state is None else int(state[2])
                if len(self._kinds) > 10_000:
                    self._kinds.clear()
                self._kinds[kind] = [now, 1, 0]
                if held:
                    record.msg = f"{record.msg} (and {held} more like it held back)"
                return True
            state[1] += 1
            if state[1] <= self.burst:
                return True
            state[2] += 1
            return False


# Libraries' loggers whose INFO lines say nothing a host acts on: heard
# from only when something goes wrong.
QUIET = (
    "mail.log",  # aiosmtpd: a line per connection
    "alembic.runtime.plugins",  # "setup plugin ...": seven lines at every start
    "pyvips",  # "VIPS: threadpool completed with 1 workers": a line per board drawn
)


def configure(level: int = logging.INFO) -> None:
    """Standard error, one line per event, rate-limited; the libraries'
    routine lines (`QUIET`) only when something goes wrong."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(RateLimit())
    logging.basicConfig(level=level, handlers=[handler], force=True)
    for name in QUIET:
        logging.getLogger(name).setLevel(max(level, logging.WARNING))
