"""Open connections per source address, capped at both listening doors, and
the SMTP door's cap.

One address holding thousands of idle connections once exhausted the
process's files and took the web and SMTP doors down for everyone. Each
door admits at most MAX_PER_SOURCE open connections from one address (per
server process): past that an SMTP connection is told `421` (try later)
and closed, and one idle for SMTP_IDLE_SECONDS is closed. The web door's
cap is host/web_connections.py, on the same counter.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import Counter
from typing import Any

from aiosmtpd.smtp import SMTP

log = logging.getLogger("pbem.connections")
MAX_PER_SOURCE = 256  # open connections from one address, per door and process (a relay sends many)
SMTP_IDLE_SECONDS = 60


class OpenConnections:
    """How many connections each address has open (thread-safe)."""

    def __init__(self, most: int = MAX_PER_SOURCE) -> None:
        self.most = most
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()

    def admit(self, host: str) -> bool:
        with self._lock:
            if self._open[host] >= self.most:
                return False
            self._open[host] += 1
            return True

    def release(self, host: str) -> None:
        with self._lock:
            self._open[host] -= 1
            if self._open[host] <= 0:
                del self._open[host]


def host_of(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"


MAIL = OpenConnections()


class CappedSmtp(SMTP):
    """aiosmtpd's SMTP server, with the cap."""

    _host: str | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("timeout", SMTP_IDLE_SECONDS)
        super().__init__(*args, **kwargs)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        host = host_of(transport)
        if not MAIL.admit(host):
            log.warning("refused an SMTP connection from %s: %d open already", host, MAIL.most)
            transport.write(b"421 4.7.0 Too many connections from your address; try later\r\n")  # type: ignore[attr-defined]
            transport.close()
            return
        self._host = host
        super().connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._host is not None:
            super().data_received(data)

    def eof_received(self) -> bool | None:
        return super().eof_received() if self._host is not None else None

    def connection_lost(self, error: Exception | None) -> None:
        if self._host is None:
            return
        MAIL.release(self._host)
        self._host = None
        super().connection_lost(error)
