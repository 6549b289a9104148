"""The mail door end to end, on real sockets: mail sent with smtplib to the
listener, board mails out through the relay setting to a second SMTP server
standing for the outside world."""

from __future__ import annotations

import smtplib
import threading
from dataclasses import replace
from datetime import timedelta
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

import pytest
from sqlalchemy import select

from pbem.mail.delivery import deliver_due
from pbem.store import User
from tests.mail.conftest import ADDRESS, Door
from tests.mail.smtp_world import start_world

PERSON = User.bot_level.is_(None)  # the database's own bots are no one's signup


def subjects(mails: list[EmailMessage]) -> list[str]:
    return [str(mail["Subject"]) for mail in mails]


def test_a_game_by_mail_reaches_the_outside_world(door: Door) -> None:
    door.send("alice@example.org", "signup alice secret1")
    door.send("Bob <bob@example.org>", "Re: signup bob secret2")
    door.send("alice@example.org", "vasco challenge alice bob", "Fancy a game?")
    door.send("alice@example.org", "vasco move 1 alice secret1 a0,0#1", "Good luck!\n-- \nAlice")
    assert door.deliver() == 6
    mails = door.world.wait_for(6)
    assert subjects(mails) == [
        "pbem signup alice",
        "pbem signup bob",
        "New Vasco Board 1 alice **",
        "New Vasco Board 1 alice **",
        "Vasco Board 1 bob **",
        "Vasco Board 1 bob **",
    ]
    challenged = next(m for m in mails[2:4] if "bob" in str(m["To"]))
    told = challenged.get_body(preferencelist=("plain",))
    assert told is not None
    assert "Challenger writes:\n> Fancy a game?" in told.get_content().replace("\r\n", "\n")
    to_bob = mails[-1] if "bob" in str(mails[-1]["To"]) else mails[-2]
    assert str(to_bob["To"]) == "bob@example.org"
    assert to_bob["In-Reply-To"] is not None and to_bob["Message-ID"] is not None
    assert str(to_bob["Auto-Submitted"]) == "auto-replied"
    text = to_bob.get_body(preferencelist=("plain",))
    assert text is not None and "> Good luck!" in text.get_content()
    assert "Alice" not in text.get_content().split("Comment from alice:")[1].split("\n")[2]
    html = to_bob.get_body(preferencelist=("html",))
    assert html is not None
    [png] = [part for part in to_bob.walk() if part.get_content_type() == "image/png"]
    data = png.get_content()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000
    cid = str(png["Content-ID"]).strip("<>")
    assert f"cid:{cid}" in html.get_content()
    assert door.deliver() == 0  # each mail once
    assert all(row.sent_at is not None for row in door.outbox())


def test_mail_waits_while_the_relay_is_down_and_all_arrives_once(door: Door) -> None:
    port = door.relay.port
    door.relay.stop()
    door.send("alice@example.org", "signup alice secret1")
    door.send("bob@example.org", "signup bob secret2")
    door.send("alice@example.org", "vasco challenge alice bob")
    assert door.deliver() == 0
    rows = door.outbox()
    assert len(rows) == 4 and all(r.sent_at is None and r.attempts == 1 for r in rows)
    assert all("Connection refused" in (r.last_error or "") for r in rows)
    assert door.deliver() == 0  # backing off: nothing tried yet
    assert door.outbox()[0].attempts == 1
    world, relay = start_world(port)
    try:
        door.clock.advance(minutes=1)
        assert door.deliver() == 4
        door.clock.advance(hours=2)
        assert door.deliver() == 0
        assert sorted(subjects(world.wait_for(4))) == sorted(r.subject for r in rows)
        assert len(world.mails) == 4
        assert len({str(m["Message-ID"]) for m in world.mails}) == 4
    finally:
        relay.stop()


def test_bad_mail_gets_the_right_reply_or_none_and_the_door_keeps_serving(door: Door) -> None:
    door.send("alice@example.org", "signup alice secret1")
    door.send("alice@example.org", None)  # no Subject
    door.send("alice@example.org", "help", "")  # an empty body
    binary = EmailMessage()
    binary["From"] = "alice@example.org"
    binary["Subject"] = "vasco help"
    binary.set_content(b"\x00\xff\xfe" * 1000, maintype="application", subtype="octet-stream")
    door.send_bytes("alice@example.org", binary.as_bytes(policy=SMTP))
    eight_bit = b"From: j\xf6rg@example.org\r\nSubject: list \xe9\r\n\r\nGr\xfc\xdfe\r\n"
    door.send_bytes("jorg@example.org", eight_bit)
    door.send("mallory@example.org", "vasco challenge alice alice")  # no such board yet
    door.send("alice@example.org", "change password alice wrong stolen1")  # a forged From
    door.send("alice@example.org", "help", Auto_Submitted="auto-replied")
    door.send(ADDRESS, "pbem error: help")  # our own mail coming back
    door.send("mailer-daemon@example.org", "Undelivered Mail Returned to Sender")
    huge = EmailMessage()
    huge["From"] = "alice@example.org"
    huge["Subject"] = "help"
    huge.set_content("see attachment")
    huge.add_attachment(b"x" * 30_000_000, maintype="application", subtype="zip")
    raw = huge.as_bytes(policy=SMTP)
    with pytest.raises(smtplib.SMTPSenderRefused) as refused:  # told by SIZE up front
        door.send_bytes("alice@example.org", raw)
    assert refused.value.smtp_code == 552
    with smtplib.SMTP(door.settings.smtp_host, door.settings.smtp_port, timeout=60) as smtp:
        smtp.ehlo()
        smtp.mail("alice@example.org")  # no SIZE: refused once the data is in
        smtp.rcpt(ADDRESS)
        code, _ = smtp.data(raw)
    assert code == 552
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        door.send_bytes("alice@example.org", b"Subject: help\r\n\r\n", to="other@games.test")
    door.send("alice@example.org", "list")  # still serving
    rows = door.outbox()
    got = [(r.recipients[0], r.subject) for r in rows]
    assert got == [
        ("alice@example.org", "pbem signup alice"),
        ("alice@example.org", "pbem error"),
        ("alice@example.org", "pbem help"),
        ("alice@example.org", "Vasco help"),
        ("jorg@example.org", "pbem error: list"),
        ("mallory@example.org", "Vasco error"),
        ("alice@example.org", "pbem error: change"),
        ("alice@example.org", "pbem list"),
    ]
    assert "The command line is empty" in rows[1].body
    assert "password" in rows[6].body.lower()
    with door.server.sessions() as session:
        alice = session.scalars(select(User).where(PERSON)).one()
        assert alice.userid == "alice"


def test_the_same_mail_twice_runs_once(door: Door) -> None:
    door.send("alice@example.org", "signup alice secret1", Message_ID="<same@example.org>")
    door.send("alice@example.org", "signup alice secret1", Message_ID="<same@example.org>")
    assert [r.subject for r in door.outbox()] == ["pbem signup alice"]


def test_a_failing_database_asks_the_sender_to_retry(door: Door, tmp_path: Path) -> None:
    def broken(*args: object, **kwargs: object) -> list[object]:
        raise RuntimeError("database away")

    door.server.handle = broken  # type: ignore[method-assign]
    with pytest.raises(smtplib.SMTPDataError) as retry:
        door.send_bytes("alice@example.org", b"From: alice@example.org\r\nSubject: help\r\n\r\n")
    assert retry.value.smtp_code == 451


def test_maildir_delivery_for_a_newcomer(door: Door) -> None:
    from pbem.mail.delivery import MaildirTransport

    door.send("alice@example.org", "help")
    settings = replace(door.settings, smtp_url="")
    transport = MaildirTransport(settings.maildir)
    assert deliver_due(door.server.sessions, settings, transport, door.clock()) == 1
    [name] = (Path(settings.maildir) / "new").iterdir()
    assert b"Subject: pbem help" in name.read_bytes()


def test_the_delivery_loop_drains_and_stops(door: Door) -> None:
    from pbem.mail.delivery import delivery_loop

    stop, wake = threading.Event(), threading.Event()
    loop = threading.Thread(
        target=delivery_loop, args=(door.server.sessions, door.settings, stop, wake, door.clock)
    )
    loop.start()
    try:
        door.send("alice@example.org", "help")
        wake.set()
        door.world.wait_for(1)
    finally:
        stop.set()
        wake.set()
        loop.join(10)
    assert not loop.is_alive()
    door.clock.advance(seconds=1)
    assert timedelta(0) <= door.clock() - door.outbox()[0].created_at


def test_the_relay_gets_rendered_bytes_and_a_utf8_address_goes_by_send_message() -> None:
    """ASCII addresses (nearly all): the bytes `render` makes, by sendmail;
    an address in UTF-8: send_message, which asks the relay for SMTPUTF8."""
    from pbem.mail.compose import render
    from pbem.mail.delivery import SmtpTransport

    calls: list[tuple[str, object]] = []

    class Relay:
        def sendmail(self, sender: str, to: list[str], data: bytes) -> dict[str, object]:
            calls.append(("sendmail", data))
            return {}

        def send_message(
            self, message: EmailMessage, sender: str, to: list[str]
        ) -> dict[str, object]:
            calls.append(("send_message", to))
            return {}

    message = EmailMessage(policy=SMTP)
    message["Subject"] = "pbem help"
    message.set_content("Hello\n")
    transport = SmtpTransport("smtp://relay.example.org")
    transport.connection = Relay()  # type: ignore[assignment]
    transport.send(message, "pbem@example.net", ["ann@example.org"])
    transport.send(message, "pbem@example.net", ["jürgen@exämple.org"])
    assert calls == [
        ("sendmail", render(message, "\r\n")),
        ("send_message", ["jürgen@exämple.org"]),
    ]
