"""Open connections per source address, capped at both listening doors, and
the SMTP door's cap.

One address holding thousands of idle connections once exhausted the
process's files and took the web and SMTP doors down for everyone. Each
door admits at most MAX_PER_SOURCE open connections from one address (per
server process): past that an SMTP connection is told `421` (try later)
and closed, and one idle for SMTP_IDLE_SECONDS is closed. The web door's
cap is host/web_connections.py, on the same counter.

aiosmtpd's own timeout starts again with every read, so a client sending
one byte every few seconds could hold a connection for ever. So a line
(a command, or a line of a message) must be whole within LINE_SECONDS of
its first byte, and a message within MESSAGE_SECONDS of its DATA; past
either, the client is told `421` and the connection is closed. A relay
that keeps a connection for many mails is not cut: only what it sends,
line by line and message by message, is timed.
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
LINE_SECONDS = 30.0  # from a line's first byte to its end
MESSAGE_SECONDS = 300.0  # from DATA to the message handled (a 256 kB body at 1 kB/s fits)


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
    """aiosmtpd's SMTP server, with the cap and the deadlines for a line
    and a message."""

    _host: str | None = None
    _line: asyncio.TimerHandle | None = None

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
        if self._host is None:
            return
        self._time_line(data)
        super().data_received(data)

    def _time_line(self, data: bytes) -> None:
        """Start the line's deadline at its first byte; end it at its
        newline (and start the next one's, if its bytes came along)."""
        if b"\n" in data:
            self._end_line()
            rest = data.rpartition(b"\n")[2]
        else:
            rest = data if self._line is None else b""
        if rest:
            loop = asyncio.get_running_loop()
            self._line = loop.call_later(LINE_SECONDS, self._too_slow, "a line")

    def _end_line(self) -> None:
        if self._line is not None:
            self._line.cancel()
            self._line = None

    def _too_slow(self, what: str) -> None:
        if self._host is None or self.transport is None:
            return
        log.warning("closed an SMTP connection from %s: %s came too slowly", self._host, what)
        self.transport.write(b"421 4.4.2 Too slow; closing the connection\r\n")  # type: ignore[attr-defined]
        self.transport.close()

    async def smtp_DATA(self, arg: str) -> None:  # noqa: N802 (aiosmtpd's name)
        """The message, with MESSAGE_SECONDS for all of it."""
        loop = asyncio.get_running_loop()
        deadline = loop.call_later(MESSAGE_SECONDS, self._too_slow, "a message")
        try:
            await super().smtp_DATA(arg)
        finally:
            deadline.cancel()

    def eof_received(self) -> bool | None:
        return super().eof_received() if self._host is not None else None

    def connection_lost(self, error: Exception | None) -> None:
        if self._host is None:
            return
        self._end_line()
        MAIL.release(self._host)
        self._host = None
        super().connection_lost(error)
