"""Open connections per source address, capped at both listening doors.

One address holding thousands of idle connections once exhausted the
process's files and took the web and SMTP doors down for everyone. Each
door now admits at most MAX_PER_SOURCE open connections from one address
(per server process): past that a web connection is closed at once and an
SMTP one is told `421` (try later) and closed. The web door also closes a
connection that sends no request within FIRST_REQUEST_SECONDS, and the SMTP
door one idle for SMTP_IDLE_SECONDS.

Among several web processes (web_workers.py), a process holding more
connections than its share answers a request with `Connection: close` now
and then (web_accept.FairAcceptor.over_share), and the client's next
connection goes to the process holding fewest. A board page's live stream
is not counted as held: it is open for long and costs nothing while idle.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from aiosmtpd.smtp import SMTP
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

log = logging.getLogger("pbem.connections")
MAX_PER_SOURCE = 256  # open connections from one address, per door and process (a relay sends many)
FIRST_REQUEST_SECONDS = 10.0
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


WEB = OpenConnections()
MAIL = OpenConnections()


STREAM_SUFFIX = "/events"  # a board page's live stream (web/live.py): open for long, idle


class CappedHttp(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol (httptools, its fast parser), with the cap,
    the first-request timeout and, among several web processes, letting a
    kept-alive connection go when its process holds more than its share."""

    _host: str | None = None
    _first: asyncio.TimerHandle | None = None
    streaming = False  # its request in hand is a live stream: held, but no work
    over_share: Callable[[], bool] | None = None  # (web_accept.FairAcceptor.over_share)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        host = host_of(transport)
        if not WEB.admit(host):
            log.warning("refused a web connection from %s: %d open already", host, WEB.most)
            transport.close()
            return
        self._host = host
        super().connection_made(transport)  # type: ignore[arg-type]
        self._first = asyncio.get_running_loop().call_later(FIRST_REQUEST_SECONDS, self._no_request)

    def _no_request(self) -> None:
        if self.cycle is None and self.transport is not None:  # not one request begun
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._host is None:
            return  # refused
        if self._first is not None:
            self._first.cancel()
            self._first = None
        super().data_received(data)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        cycle = self.cycle
        if cycle is None or cycle.response_complete:
            return  # (an upgrade: no new request)
        scope = cycle.scope
        self.streaming = scope["method"] == "GET" and scope["path"].endswith(STREAM_SUFFIX)
        if self.streaming or not cycle.keep_alive or self.over_share is None:
            return
        if self.over_share():
            cycle.keep_alive = False  # uvicorn answers with Connection: close, then closes

    def eof_received(self) -> None:
        if self._host is not None:
            super().eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._host is None:
            return
        if self._first is not None:
            self._first.cancel()
        WEB.release(self._host)
        self._host = None
        super().connection_lost(exc)


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
