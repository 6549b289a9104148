"""The relay setting with STARTTLS and a login, against a real SMTP server
that demands both (aiosmtpd with a certificate made for the test)."""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from sqlalchemy import select

from pbem.mail.delivery import SmtpTransport, deliver_due, tls_context
from pbem.server import Server
from pbem.settings import Settings
from pbem.store import OutboxMessage, make_engine, session_factory
from tests.databases import upgraded_sqlite
from tests.mail.smtp_world import World, free_port
from tests.processes import Processes


def authenticate(
    server: object, session: object, envelope: object, mechanism: str, auth_data: object
) -> AuthResult:
    ok = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == (
        b"pbem",
        b"p@ss word",
    )
    return AuthResult(success=ok, handled=False)


@pytest.fixture
def secure_relay(processes: Processes, tmp_path: Path) -> Iterator[tuple[World, int, Path]]:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    processes.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True,
    )  # fmt: skip
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    world = World()
    port = free_port()
    controller = Controller(
        world,
        hostname="127.0.0.1",
        port=port,
        tls_context=context,
        require_starttls=True,
        auth_required=True,
        authenticator=authenticate,
    )
    controller.start()
    try:
        yield world, port, cert
    finally:
        controller.stop()


def test_starttls_and_login_reach_a_strict_relay(
    tmp_path: Path, secure_relay: tuple[World, int, Path]
) -> None:
    world, port, cert = secure_relay
    engine = make_engine(upgraded_sqlite(tmp_path / "db.sqlite3"))
    server = Server(session_factory(engine))
    server.handle("ann@example.org", "help")
    now = datetime(2026, 11, 21, 9, 0)
    wrong = f"smtp://pbem:wrong@127.0.0.1:{port}?starttls=required&cafile={cert}"
    settings = Settings(address="pbem@games.test", smtp_url=wrong)
    assert deliver_due(server.sessions, settings, SmtpTransport(wrong), now) == 0
    with server.sessions() as session:
        row = session.scalars(select(OutboxMessage)).one()
        assert row.sent_at is None and "SMTPAuthenticationError" in (row.last_error or "")
    right = f"smtp://pbem:p%40ss%20word@127.0.0.1:{port}?starttls=required&cafile={cert}"
    later = datetime(2026, 11, 21, 10, 0)
    assert deliver_due(server.sessions, settings, SmtpTransport(right), later) == 1
    [mail] = world.wait_for(1)
    assert str(mail["Subject"]) == "pbem help"
    untrusted = f"smtp://pbem:p%40ss%20word@127.0.0.1:{port}"
    server.handle("ann@example.org", "help")
    assert deliver_due(server.sessions, settings, SmtpTransport(untrusted), later) == 0
    with server.sessions() as session:
        last = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id.desc())).first()
        assert last is not None and "CERTIFICATE_VERIFY_FAILED" in (last.last_error or "")
    engine.dispose()


def test_the_relay_s_tls_settings_are_made_once_for_every_pass(
    tmp_path: Path, secure_relay: tuple[World, int, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loading the certificate authorities cost 50 ms of CPU at every
    pass's connection; the context is made once and serves them all."""
    world, port, cert = secure_relay
    made: list[str | None] = []
    real = ssl.create_default_context

    def counted(*args: object, cafile: str | None = None, **kwargs: object) -> ssl.SSLContext:
        made.append(cafile)
        return real(*args, cafile=cafile, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ssl, "create_default_context", counted)
    tls_context.cache_clear()
    engine = make_engine(upgraded_sqlite(tmp_path / "db.sqlite3"))
    server = Server(session_factory(engine))
    url = f"smtp://pbem:p%40ss%20word@127.0.0.1:{port}?starttls=required&cafile={cert}"
    settings = Settings(address="pbem@games.test", smtp_url=url)
    for hour in range(3):
        server.handle("ann@example.org", "help")
        now = datetime(2026, 11, 21, 9 + hour, 0)
        assert deliver_due(server.sessions, settings, SmtpTransport(url), now) == 1
    assert len(world.wait_for(3)) == 3
    assert made == [str(cert)]
    tls_context.cache_clear()
    engine.dispose()
