"""Connections per address are capped at both doors: the idle flood of one
address is turned away while the doors keep serving, and a web connection
that never sends a request is closed."""

from __future__ import annotations

import smtplib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from fastapi import FastAPI

from pbem.host import web_connections
from pbem.host.web_connections import CappedHttp
from pbem.mail import connections
from pbem.mail.connections import OpenConnections
from pbem.mail.listener import start_listener
from pbem.server import Server
from pbem.settings import Settings
from pbem.store import make_engine, session_factory
from tests.databases import upgraded_sqlite
from tests.mail.smtp_world import free_port

CAP = 5


def line_from(sock: socket.socket) -> bytes:
    sock.settimeout(10)
    try:
        return sock.recv(200)
    except (ConnectionResetError, TimeoutError):
        return b""


def test_the_smtp_door_turns_a_flood_away_and_keeps_serving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connections, "MAIL", OpenConnections(CAP))
    engine = make_engine(upgraded_sqlite(tmp_path / "pbem.sqlite3"))
    settings = Settings(address="pbem@games.test", smtp_port=free_port())
    listener = start_listener(Server(session_factory(engine)), settings)
    flood = []
    try:
        for _ in range(CAP):
            sock = socket.create_connection(("127.0.0.1", settings.smtp_port))
            flood.append(sock)
            assert line_from(sock).startswith(b"220")
        extra = socket.create_connection(("127.0.0.1", settings.smtp_port))
        assert line_from(extra).startswith(b"421")  # try later: the sender's server will
        extra.close()
        for sock in flood:
            sock.close()
        time.sleep(0.3)
        with smtplib.SMTP("127.0.0.1", settings.smtp_port, timeout=30) as smtp:
            smtp.sendmail(
                "ann@example.org",
                [settings.address],
                b"From: ann@example.org\r\nSubject: help\r\n\r\n",
            )
    finally:
        for sock in flood:
            sock.close()
        listener.stop()
        engine.dispose()


def test_the_smtp_door_looks_up_its_own_name_once_not_per_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A resolver that takes a second to answer (a slow DNS) would hold up
    the listener's event loop, and so every mail, at each connection."""
    asked: list[float] = []

    def slow_fqdn(name: str = "") -> str:
        asked.append(time.monotonic())
        time.sleep(1.0)
        return "mail.games.test"

    monkeypatch.setattr(socket, "getfqdn", slow_fqdn)
    engine = make_engine(upgraded_sqlite(tmp_path / "pbem.sqlite3"))
    settings = Settings(address="pbem@games.test", smtp_port=free_port())
    listener = start_listener(Server(session_factory(engine)), settings)
    try:
        asked.clear()  # (the one look-up at start)
        client = {"local_hostname": "client.example.org", "timeout": 30}  # (no look-up)
        start = time.monotonic()
        for _ in range(3):
            with smtplib.SMTP("127.0.0.1", settings.smtp_port, **client) as smtp:
                code, greeting = smtp.ehlo()
                assert code == 250 and greeting.startswith(b"mail.games.test")
        assert asked == []
        assert time.monotonic() - start < 2.0
    finally:
        listener.stop()
        engine.dispose()


@pytest.fixture
def web(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    monkeypatch.setattr(web_connections, "WEB", OpenConnections(CAP))
    monkeypatch.setattr(web_connections, "FIRST_REQUEST_SECONDS", 1.0)
    app = FastAPI()
    app.get("/")(lambda: {"ok": True})
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, port=port, http=CappedHttp, log_config=None, log_level="warning")
    )
    thread = threading.Thread(target=server.run)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(10)


def get(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return line_from(sock)


def test_the_web_door_turns_a_flood_away_and_closes_silent_connections(web: int) -> None:
    flood = [socket.create_connection(("127.0.0.1", web)) for _ in range(CAP)]
    time.sleep(0.2)
    assert get(web) == b""  # the sixth from this address: closed at once
    started = time.monotonic()
    assert all(line_from(sock) == b"" for sock in flood)  # closed: no request came
    assert time.monotonic() - started < 5
    for sock in flood:
        sock.close()
    time.sleep(0.2)
    assert get(web).startswith(b"HTTP/1.1 200")


def test_the_web_cap_wraps_only_asyncios_protocol_callbacks() -> None:
    """CappedHttp is the class uvicorn's own `http="httptools"` setting
    serves with, and overrides only what asyncio calls on every protocol;
    the web door reads no attribute of uvicorn's own (`_loop`, its
    `server_state`, a protocol's `cycle` or `transport`). An upgrade of
    uvicorn that moves its protocol fails here, not at a host's start."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    config = uvicorn.Config(FastAPI(), http="httptools", log_config=None)
    config.load()
    assert config.http_protocol_class is HttpToolsProtocol
    assert CappedHttp.__mro__[1] is HttpToolsProtocol
    overridden = {
        name
        for name, value in vars(CappedHttp).items()
        if callable(value) and not name.startswith("__")
    }
    callbacks = {"connection_made", "data_received", "eof_received", "connection_lost"}
    assert overridden - {"_silent"} <= callbacks, overridden
    assert "__init__" not in vars(CappedHttp)  # uvicorn's arguments pass through untouched
    from pbem.host import web_workers

    for module in (web_connections, web_workers):
        source = Path(module.__file__ or "").read_text()
        for private in ("_loop=", "server_state", ".cycle", "self.transport", "protocols.http"):
            if module is web_connections and private == "protocols.http":
                continue  # (the one import: the class named above)
            assert private not in source, (module.__name__, private)
