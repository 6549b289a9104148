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
from fastapi import FastAPI, Request

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
    monkeypatch.setattr(web_connections, "HEAD_SECONDS", 3.0)
    monkeypatch.setattr(web_connections, "BODY_SECONDS", 3.0)
    app = FastAPI()
    app.get("/")(lambda: {"ok": True})

    @app.post("/")
    async def echo(request: Request) -> dict[str, int]:
        return {"got": len(await request.body())}

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
    assert overridden - {"_silent", "_late"} <= callbacks, overridden
    assert "__init__" not in vars(CappedHttp)  # uvicorn's arguments pass through untouched
    from pbem.host import web_workers

    for module in (web_connections, web_workers):
        source = Path(module.__file__ or "").read_text()
        for private in ("_loop=", "server_state", ".cycle", "self.transport", "protocols.http"):
            if module is web_connections and private == "protocols.http":
                continue  # (the one import: the class named above)
            assert private not in source, (module.__name__, private)


def trickle(port: int, head: bytes, body: bytes = b"") -> tuple[float, bytes]:
    """Send the head then the body one byte a second (a slow client); how
    long until the server closed the connection, and what it answered."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(0.05)
        answer = b""
        for byte in head + body:
            try:
                sock.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                break
            try:
                got = sock.recv(200)
            except TimeoutError:
                got = None
            except ConnectionResetError:
                got = b""
            if got is not None:
                answer += got
                if not got:
                    break  # closed
            time.sleep(1.0)
            if time.monotonic() - started > 20:
                break
        return time.monotonic() - started, answer


def test_a_head_sent_a_byte_a_second_is_dropped_at_its_deadline(web: int) -> None:
    head = b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 40 + b"\r\n\r\n"
    took, answer = trickle(web, head)
    assert answer == b""
    assert 2.5 < took < 6  # HEAD_SECONDS (3 here; 15 by default), not the 60 s it takes


def test_a_body_sent_a_byte_a_second_is_dropped_at_its_deadline(web: int) -> None:
    head = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n"
    with socket.create_connection(("127.0.0.1", web)) as sock:
        sock.sendall(head)
        started = time.monotonic()
        sock.settimeout(0.05)
        closed = False
        for _ in range(15):
            try:
                sock.sendall(b"b")
                closed = sock.recv(200) == b""
            except TimeoutError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                closed = True
            if closed:
                break
            time.sleep(1.0)
        assert closed and time.monotonic() - started < 6


def test_quick_requests_on_one_connection_outlive_the_deadlines(web: int) -> None:
    """A kept-alive connection with requests, a body and pipelining, whose
    whole life is past HEAD_SECONDS and BODY_SECONDS: each part came in
    time, so none is cut off."""
    with socket.create_connection(("127.0.0.1", web)) as sock:
        sock.settimeout(10)
        for _ in range(4):
            sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
            assert sock.recv(500).startswith(b"HTTP/1.1 200")
            time.sleep(1.2)  # (4.8 s in all; uvicorn keeps an idle connection 5 s)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
        answers = b""
        while answers.count(b"HTTP/1.1 200") < 2:
            answers += sock.recv(1000)


def test_the_request_clock_reads_heads_bodies_and_chunks() -> None:
    clock = web_connections.RequestClock()
    clock.feed(b"GET / HTTP/1.1\r\nHo", 0.0)
    assert clock.state == "head" and clock.deadline == web_connections.HEAD_SECONDS
    clock.feed(b"st: x\r\n\r\nPOST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nab", 1.0)
    assert clock.state == "body" and clock.deadline == 1.0 + web_connections.BODY_SECONDS
    clock.feed(b"c", 2.0)
    assert clock.state == "idle" and clock.deadline is None
    clock.feed(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r", 3.0)
    assert clock.state == "chunked"
    clock.feed(b"\n\r\n", 4.0)
    assert clock.state == "idle" and clock.deadline is None


@pytest.fixture
def slow_door(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    """A real SMTP listener with deadlines short enough to wait for: a line
    in 1.5 s, a message in 3 s."""
    monkeypatch.setattr(connections, "LINE_SECONDS", 1.5)
    monkeypatch.setattr(connections, "MESSAGE_SECONDS", 3.0)
    engine = make_engine(upgraded_sqlite(tmp_path / "pbem.sqlite3"))
    settings = Settings(address="pbem@games.test", smtp_port=free_port())
    listener = start_listener(Server(session_factory(engine)), settings)
    try:
        yield settings
    finally:
        listener.stop()
        engine.dispose()


def trickle_smtp(sock: socket.socket, data: bytes, every: float, until: float) -> bytes:
    """Send `data` a byte at a time, `every` seconds apart, until the server
    answers or closes (what it said) or `until` seconds have gone by."""
    sock.settimeout(every)
    ends = time.monotonic() + until
    for byte in data:
        try:
            sock.sendall(bytes([byte]))
            said = sock.recv(200)
        except TimeoutError:
            if time.monotonic() > ends:
                return b""
            continue
        except (BrokenPipeError, ConnectionResetError):
            return b"(closed)"
        return said
    return b""


def test_a_command_trickled_a_byte_at_a_time_is_cut_off(slow_door: Settings) -> None:
    """aiosmtpd's timeout starts again with each read: without the line's
    own deadline, a byte every 0.4 s held the connection for ever."""
    with socket.create_connection(("127.0.0.1", slow_door.smtp_port)) as sock:
        assert line_from(sock).startswith(b"220")
        started = time.monotonic()
        said = trickle_smtp(sock, b"EHLO " + b"x" * 40 + b"\r\n", every=0.4, until=10)
        assert said.startswith(b"421") and b"Too slow" in said, said
        assert time.monotonic() - started < 4


def test_a_message_trickled_line_by_line_is_cut_off(slow_door: Settings) -> None:
    """Each line quick enough, the message as a whole too slow."""
    with socket.create_connection(("127.0.0.1", slow_door.smtp_port)) as sock:
        assert line_from(sock).startswith(b"220")
        for command in (b"HELO x\r\n", b"MAIL FROM:<ann@example.org>\r\n",
                        b"RCPT TO:<pbem@games.test>\r\n", b"DATA\r\n"):  # fmt: skip
            sock.sendall(command)
            assert line_from(sock)[:1] in (b"2", b"3")
        started = time.monotonic()
        said = b""
        sock.settimeout(0.5)
        while time.monotonic() - started < 10 and not said:
            sock.sendall(b"X-Slow: header\r\n")
            try:
                said = sock.recv(200)
            except TimeoutError:
                continue
        assert said.startswith(b"421"), said
        assert 2.5 < time.monotonic() - started < 5


def test_a_relay_keeping_its_connection_for_several_mails_is_not_cut(
    slow_door: Settings,
) -> None:
    """Only what the client sends is timed: one connection carrying mails
    over longer than a message's deadline serves them all."""
    with smtplib.SMTP("127.0.0.1", slow_door.smtp_port, timeout=30) as smtp:
        for number in range(3):
            smtp.sendmail(
                "ann@example.org",
                [slow_door.address],
                f"From: ann@example.org\r\nSubject: help\r\nMessage-ID: <k{number}@x>\r\n\r\n",
            )
            time.sleep(1.2)
        assert smtp.noop()[0] == 250
