"""The web door's cap on open connections per source address (the counter
is mail/connections.py's, shared by both doors).

Past MAX_PER_SOURCE open connections from one address a web connection is
closed at once, and one that sends no request within FIRST_REQUEST_SECONDS
is closed too.

Among several web processes (web_workers.py), a process holding more
connections than its share answers a request with `Connection: close` now
and then (web_accept.FairAcceptor.over_share), and the client's next
connection goes to the process holding fewest. A board page's live stream
is not counted as held: it is open for long and costs nothing while idle.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..mail.connections import OpenConnections, host_of

log = logging.getLogger("pbem.connections")
FIRST_REQUEST_SECONDS = 10.0

WEB = OpenConnections()


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
