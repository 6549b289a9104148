"""The web door's cap on open connections per source address (the counter
is mail/connections.py's, shared by both doors).

Past MAX_PER_SOURCE open connections from one address a web connection is
closed at once, and one that sends no request within FIRST_REQUEST_SECONDS
is closed too. A slow client is dropped as well: a request's head (its line
and headers) must arrive whole within HEAD_SECONDS of its first byte, and
its body (by Content-Length, or chunked to its last chunk) within
BODY_SECONDS of the head's end; a client trickling a byte every few seconds
once held a connection for minutes. An answer that streams (the live
updates) has no deadline: only what the client sends is timed.

`CappedHttp` is uvicorn's httptools protocol (the class its `http="httptools"`
setting names) with asyncio's own Protocol callbacks wrapped: it reads no
attribute of uvicorn's and passes its constructor's arguments through
untouched, so an upgrade of uvicorn that keeps the class keeps the cap
(tests/host/test_connections.py runs it in a real uvicorn).
"""

from __future__ import annotations

import asyncio
import logging

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..mail.connections import OpenConnections, host_of

log = logging.getLogger("pbem.connections")
FIRST_REQUEST_SECONDS = 10.0
HEAD_SECONDS = 15.0  # a request's line and headers, from its first byte
BODY_SECONDS = 60.0  # a request's body (at most 1 MB, web/limits.py), from its head's end
HEAD_MOST = 65536  # bytes of a head kept to find its end (httptools refuses larger)

WEB = OpenConnections()


class RequestClock:
    """Where the client is in what it sends (idle, in a head, in a body),
    read from the bytes alone, and when each part began: `feed` says
    whether a deadline starts (a head or a body begun) or ends."""

    def __init__(self) -> None:
        self.state = "idle"  # "head", "body", "chunked"
        self.head = bytearray()
        self.remaining = 0
        self.deadline: float | None = None  # (loop time) None: nothing pending

    def feed(self, data: bytes, now: float) -> None:
        at = 0
        while at < len(data):
            if self.state == "idle":
                self.state, self.deadline = "head", now + HEAD_SECONDS
                self.head.clear()
            if self.state == "head":
                before = len(self.head)
                self.head += data[at:]
                end = self.head.find(b"\r\n\r\n")
                if end < 0:
                    del self.head[: max(0, len(self.head) - HEAD_MOST)]
                    return
                at += end + 4 - before
                self._head_ended(bytes(self.head[:end]).lower(), now)
            elif self.state == "body":
                taken = min(self.remaining, len(data) - at)
                self.remaining -= taken
                at += taken
                if self.remaining == 0:
                    self.state, self.deadline = "idle", None
            else:  # chunked: to the last chunk's empty line
                self.head += data[at:]
                del self.head[: max(0, len(self.head) - 5)]
                if self.head.endswith(b"0\r\n\r\n"):
                    self.state, self.deadline = "idle", None
                return

    def _head_ended(self, head: bytes, now: float) -> None:
        self.head.clear()
        length = 0
        chunked = False
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip() == b"content-length" and value.strip().isdigit():
                length = int(value.strip())
            elif name.strip() == b"transfer-encoding" and b"chunked" in value:
                chunked = True
        if chunked:
            self.state, self.deadline = "chunked", now + BODY_SECONDS
        elif length > 0:
            self.state, self.remaining, self.deadline = "body", length, now + BODY_SECONDS
        else:
            self.state, self.deadline = "idle", None


class CappedHttp(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol (httptools, its fast parser), with the cap,
    the first-request timeout and the head and body deadlines."""

    _host: str | None = None  # the address it counts against; None: refused (or closed)
    _pbem_transport: asyncio.BaseTransport | None = None
    _first: asyncio.TimerHandle | None = None
    _clock: RequestClock | None = None
    _late_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        host = host_of(transport)
        if not WEB.admit(host):
            log.warning("refused a web connection from %s: %d open already", host, WEB.most)
            transport.close()
            return
        self._host, self._pbem_transport = host, transport
        self._clock = RequestClock()
        super().connection_made(transport)  # type: ignore[arg-type]
        self._first = asyncio.get_running_loop().call_later(FIRST_REQUEST_SECONDS, self._silent)

    def _silent(self) -> None:
        """No byte came within FIRST_REQUEST_SECONDS: close it."""
        self._first = None
        if self._pbem_transport is not None:
            self._pbem_transport.close()

    def _late(self) -> None:
        """A head or a body is not whole by its deadline: close it."""
        self._late_timer = None
        if self._pbem_transport is not None:
            log.warning("closed a slow web connection from %s", self._host)
            self._pbem_transport.close()

    def data_received(self, data: bytes) -> None:
        if self._host is None:
            return  # refused
        if self._first is not None:
            self._first.cancel()
            self._first = None
        if self._clock is not None:
            loop = asyncio.get_running_loop()
            had = self._clock.deadline
            self._clock.feed(data, loop.time())
            if self._clock.deadline != had:
                if self._late_timer is not None:
                    self._late_timer.cancel()
                    self._late_timer = None
                if self._clock.deadline is not None:
                    self._late_timer = loop.call_at(self._clock.deadline, self._late)
        super().data_received(data)

    def eof_received(self) -> None:
        if self._host is not None:
            super().eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._host is None:
            return
        for timer in (self._first, self._late_timer):
            if timer is not None:
                timer.cancel()
        self._first = self._late_timer = None
        WEB.release(self._host)
        self._host = self._pbem_transport = None
        super().connection_lost(exc)
