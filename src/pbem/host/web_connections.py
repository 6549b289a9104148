"""The web door's cap on open connections per source address (the counter
is mail/connections.py's, shared by both doors).

Past MAX_PER_SOURCE open connections from one address a web connection is
closed at once, and one that sends no request within FIRST_REQUEST_SECONDS
is closed too.

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

WEB = OpenConnections()


class CappedHttp(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol (httptools, its fast parser), with the cap
    and the first-request timeout."""

    _host: str | None = None  # the address it counts against; None: refused (or closed)
    _pbem_transport: asyncio.BaseTransport | None = None
    _first: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        host = host_of(transport)
        if not WEB.admit(host):
            log.warning("refused a web connection from %s: %d open already", host, WEB.most)
            transport.close()
            return
        self._host, self._pbem_transport = host, transport
        super().connection_made(transport)  # type: ignore[arg-type]
        self._first = asyncio.get_running_loop().call_later(FIRST_REQUEST_SECONDS, self._silent)

    def _silent(self) -> None:
        """No byte came within FIRST_REQUEST_SECONDS: close it."""
        self._first = None
        if self._pbem_transport is not None:
            self._pbem_transport.close()

    def data_received(self, data: bytes) -> None:
        if self._host is None:
            return  # refused
        if self._first is not None:
            self._first.cancel()
            self._first = None
        super().data_received(data)

    def eof_received(self) -> None:
        if self._host is not None:
            super().eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._host is None:
            return
        if self._first is not None:
            self._first.cancel()
            self._first = None
        WEB.release(self._host)
        self._host = self._pbem_transport = None
        super().connection_lost(exc)
