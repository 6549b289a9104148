"""Every kind of refusal, mailed through each real door (the SMTP listener,
`pbem receive` and the IMAP poller), on SQLite and PostgreSQL: each mail is
taken (never "try again later"), answered once with the reason, threaded to
the mail it answers, and changes nothing. `multiple` runs every line, and
answers its refused lines in one mail.

Mails come with and without a Message-ID, as replies (In-Reply-To) and as
multipart mail, the way mail programs send them."""

from __future__ import annotations

import smtplib
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

import pytest
from sqlalchemy import select

from pbem.mail.listener import start_listener
from pbem.server import Server
from pbem.settings import Settings
from pbem.store import Board, OpenChallenge, OutboxMessage, make_engine, session_factory
from tests.conftest import SUBPROCESS
from tests.mail.smtp_world import free_port
from tests.processes import Processes

ADDRESS = "pbem@games.test"
ANN, BOB = "ann@example.org", "bob@example.org"


@dataclass(frozen=True)
class Refusal:
    """A mail that must be refused: who sends it, its Subject, words its
    answer must hold, and the answer's Subject (pbmserv's, never holding
    the password)."""

    name: str
    sender: str
    subject: str
    reason: str
    answer: str = "Vasco Board 1 Error"
    message_id: bool = True
    in_reply_to: bool = False
    multipart: bool = False


REFUSALS = [
    Refusal("not your move", ANN, "vasco move 1 ann annpass1 b1,0", "It is not your move"),
    Refusal(
        "illegal move",
        BOB,
        "vasco move 1 bob bobpass1 a3,0",
        "the tile touches no tile on the board",
        in_reply_to=True,
    ),
    Refusal("stale #N", BOB, "vasco move 1 bob bobpass1 b1,0#1", "this mail was for move 1"),
    Refusal(
        "unreadable move",
        BOB,
        "Re: vasco move 1 bob bobpass1 zz9",
        "Move zz9 cannot be played",
        multipart=True,
    ),
    Refusal("wrong password", BOB, "vasco move 1 bob nope1234 b1,0", "do not match"),
    Refusal(
        "no such board",
        BOB,
        "vasco move 99 bob bobpass1 b1,0",
        "There is no Vasco board 99",
        "Vasco Board 99 Error",
    ),
    Refusal(
        "no such command",
        BOB,
        "vasco frobnicate 1",
        "'frobnicate' is no Vasco command",
        "Vasco error",
    ),
    Refusal("hints off", ANN, "vasco hint 1 ann annpass1", "Hints are off on board 1"),
    Refusal(
        "bots alone",
        ANN,
        "vasco challenge easybot hardbot",
        "Bots play only against people",
        "Vasco error",
    ),
    Refusal(
        "queue with a condition on your own turn",
        BOB,
        "vasco qmove 1 bob bobpass1 b1,0 if a2,0",
        "It is your move on board 1, so there is no reply to answer",
    ),
    Refusal(
        "a board alone for someone else",
        ANN,
        "vasco chal bob bob",
        "only on a board they start themselves",
        "Vasco error",
    ),
    Refusal(
        "a reply to a board mail",
        BOB,
        "Re: Vasco Board 1 bob **",
        "To move on board 1, send a mail whose Subject is\n  vasco move 1 bob PASSWORD MOVE#2",
        in_reply_to=True,
    ),
    Refusal("showas, wrong password", ANN, "vasco showas bob nope1234 1", "do not match"),
    Refusal(
        "an address one has already",
        ANN,
        "add ann annpass1 ann@example.org",
        "ann has ann@example.org already",
        "pbem error: add",
    ),
    # Open challenges (the fixture's: 1 is ann's, 2 is ann's for ratings
    # 1700-1800, 3 ann withdrew, 4 bob took and it became board 2).
    Refusal(
        "take one's own open challenge",
        ANN,
        "vasco take 1 ann annpass1",
        "Open challenge 1 is your own",
        "Vasco error",
    ),
    Refusal(
        "take outside the rating range",
        BOB,
        "vasco take 2 bob bobpass1",
        "Open challenge 2 is for ratings 1700-1800; your Vasco rating is 1600",
        "Vasco error",
    ),
    Refusal(
        "take a withdrawn open challenge",
        BOB,
        "vasco take 3 bob bobpass1",
        "Open challenge 3 was withdrawn",
        "Vasco error",
    ),
    Refusal(
        "take a taken open challenge",
        BOB,
        "vasco take 4 bob bobpass1",
        "Open challenge 4 was taken: it became board 2",
        "Vasco error",
    ),
    Refusal(
        "take a missing open challenge",
        BOB,
        "vasco take 99 bob bobpass1",
        "There is no open Vasco challenge 99",
        "Vasco error",
    ),
    Refusal(
        "withdraw another's open challenge",
        BOB,
        "vasco withdraw 1 bob bobpass1",
        "You have no open Vasco challenge 1",
        "Vasco error",
    ),
    Refusal(
        "post with the rating bounds reversed",
        ANN,
        "vasco open ann annpass1 --rating=1800-1700",
        "The lowest rating (1800) is above the highest (1700)",
        "Vasco error",
    ),
    Refusal(
        "no Message-ID",
        ANN,
        "vasco move 1 ann annpass1 c1,0",
        "It is not your move",
        message_id=False,
    ),
]


def mail_bytes(
    sender: str,
    subject: str,
    body: str = "",
    *,
    message_id: str | None,
    in_reply_to: str | None = None,
    multipart: bool = False,
) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = ADDRESS
    message["Subject"] = subject
    if message_id is not None:
        message["Message-ID"] = message_id
    if in_reply_to is not None:
        message["In-Reply-To"] = in_reply_to
        message["References"] = in_reply_to
    message.set_content(body or "Here goes.\n")
    if multipart:
        message.add_alternative(f"<p>{body or 'Here goes.'}</p>", subtype="html")
    return message.as_bytes(policy=SMTP)


# ------------------------------------------------------------------ the doors


class SmtpDoor:
    """The listener on a real port; smtplib raises unless each mail gets 250."""

    def __init__(self, server: Server, tmp_path: Path) -> None:
        self.settings = Settings(address=ADDRESS, smtp_port=free_port())
        self.listener = start_listener(server, self.settings)

    def send_all(self, mails: list[tuple[str, bytes]]) -> None:
        with smtplib.SMTP(self.settings.smtp_host, self.settings.smtp_port, timeout=60) as smtp:
            for sender, raw in mails:
                assert smtp.sendmail(sender, [ADDRESS], raw) == {}

    def close(self) -> None:
        self.listener.stop()


class PipeDoor:
    """`pbem receive` as a mail server runs it: exit status 0 means taken."""

    def __init__(self, server: Server, tmp_path: Path) -> None:
        self.url = str(server.sessions.kw["bind"].url.render_as_string(hide_password=False))
        self.folder = tmp_path
        self.processes = Processes()

    def send_all(self, mails: list[tuple[str, bytes]]) -> None:
        env = self.processes.env(database_url=self.url, address=ADDRESS)
        for _, raw in mails:
            done = self.processes.run(
                [sys.executable, "-m", "pbem.cli", "receive"],
                input=raw,
                env=env,
                cwd=self.folder,
                timeout=60,
            )
            assert done.returncode == 0, done.stderr.decode()[-2000:]

    def close(self) -> None:
        self.processes.close()


class ImapDoor:
    """The poller on a real Dovecot: every mail marked done, none failed."""

    def __init__(self, server: Server, tmp_path: Path) -> None:
        from tests.mail.dovecot import Dovecot

        self.server = server
        self.processes = Processes()
        self.dovecot = Dovecot(self.processes)
        self.dovecot.start()
        self.settings = Settings(address=ADDRESS, imap_url=self.dovecot.url, imap_seconds=0.2)

    def send_all(self, mails: list[tuple[str, bytes]]) -> None:
        from pbem.mail.imap_poll import DONE, FAILED, poll_once

        with self.dovecot.mailbox() as mailbox:
            for _, raw in mails:
                mailbox.append(raw, "INBOX")
        assert poll_once(self.server, self.settings) == len(mails)
        with self.dovecot.mailbox() as mailbox:
            flags = [set(m.flags) for m in mailbox.fetch(mark_seen=False, headers_only=True)]
        assert all(DONE in marks and FAILED not in marks for marks in flags), flags

    def close(self) -> None:
        self.dovecot.close()
        self.processes.close()


DOORS: dict[str, Callable[[Server, Path], SmtpDoor | PipeDoor | ImapDoor]] = {
    "smtp": SmtpDoor,
    "receive": PipeDoor,
    "imap": ImapDoor,
}


@pytest.fixture(
    params=["smtp", *(pytest.param(name, marks=SUBPROCESS) for name in ("receive", "imap"))]
)
def door_name(request: pytest.FixtureRequest) -> str:
    """Each door by name: `pbem receive` and the IMAP poller's Dovecot start
    programs of their own (the subprocess tier)."""
    return str(request.param)


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    engine = make_engine(database_url)
    server = Server(session_factory(engine))
    server.handle(ANN, "signup ann annpass1")
    server.handle(BOB, "signup bob bobpass1")
    server.handle(ANN, "vasco challenge ann bob")
    server.handle(ANN, "vasco move 1 ann annpass1 a0,0#1")
    server.handle(ANN, "vasco open ann annpass1")
    server.handle(ANN, "vasco open ann annpass1 --rating=1700-1800")
    server.handle(ANN, "vasco open ann annpass1")
    server.handle(ANN, "vasco withdraw 3 ann annpass1")
    server.handle(ANN, "vasco open ann annpass1")
    server.handle(BOB, "vasco take 4 bob bobpass1")
    yield server
    engine.dispose()


def answers(server: Server) -> list[OutboxMessage]:
    with server.sessions() as session:
        return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def open_challenges(server: Server) -> list[tuple[int, int | None, bool | None]]:
    """Each open challenge: its number, its board, whether it was withdrawn."""
    with server.sessions() as session:
        return [
            (row.id, row.board_id, row.withdrawn_at is not None or None)
            for row in session.scalars(select(OpenChallenge).order_by(OpenChallenge.id))
        ]


def board_version(server: Server) -> int:
    with server.sessions() as session:
        return session.get_one(Board, 1).version


def test_every_refusal_is_answered_once_through_the_door(
    server: Server, door_name: str, tmp_path: Path
) -> None:
    before = len(answers(server))
    mails = []
    for number, refusal in enumerate(REFUSALS):
        mails.append(
            (
                refusal.sender,
                mail_bytes(
                    refusal.sender,
                    refusal.subject,
                    message_id=f"<refusal{number}.{door_name}@example.org>"
                    if refusal.message_id
                    else None,
                    in_reply_to="<board1.1@games.test>" if refusal.in_reply_to else None,
                    multipart=refusal.multipart,
                ),
            )
        )
    door = DOORS[door_name](server, tmp_path)
    try:
        door.send_all(mails)
        door.send_all(mails[:1])  # the same mail again (a retry): not answered twice
    finally:
        door.close()

    replies = answers(server)[before:]
    assert len(replies) == len(REFUSALS), [r.subject for r in replies]
    for number, (refusal, reply) in enumerate(zip(REFUSALS, replies, strict=True)):
        assert reply.recipients == [refusal.sender], refusal.name
        assert reply.subject == refusal.answer, refusal.name
        assert refusal.reason in reply.body, (refusal.name, reply.body[:300])
        expected = f"<refusal{number}.{door_name}@example.org>" if refusal.message_id else None
        assert reply.in_reply_to == expected, refusal.name
    assert board_version(server) == 1  # nothing was played
    assert open_challenges(server) == [
        (1, None, None),
        (2, None, None),
        (3, None, True),
        (4, 2, None),
    ]


def test_multiple_runs_every_line_and_answers_in_one_mail_for_the_refused(
    server: Server, door_name: str, tmp_path: Path
) -> None:
    before = len(answers(server))
    body = (
        "vasco move 1 bob bobpass1 a3,0\n"  # illegal: refused, and the rest still runs
        "vasco move 1 bob wrongpass b1,0\n"  # refused
        "vasco move 1 bob bobpass1 b1,0#2\n"  # played
        "vasco show 1\n"
    )
    raw = mail_bytes(BOB, "multiple", body, message_id=f"<multiple.{door_name}@example.org>")
    door = DOORS[door_name](server, tmp_path)
    try:
        door.send_all([(BOB, raw)])
    finally:
        door.close()
    replies = answers(server)[before:]
    subjects = [reply.subject for reply in replies]
    assert subjects[:2] == ["Vasco Board 1 ann", "Vasco Board 1 ann"]  # to ann and to bob
    assert subjects[2] == "Vasco Board 1 ann"  # the show
    # the refused lines, answered together in one mail (never one per line)
    assert subjects[3] == "pbem error: multiple" and len(replies) == 4
    refusal = replies[3].body
    assert "2 of the 4 commands" in refusal
    assert "Line 1: vasco move 1 bob bobpass1 a3,0" in refusal
    assert "the tile touches no tile on the board" in refusal
    assert "Line 2: vasco move 1 bob wrongpass b1,0" in refusal and "do not match" in refusal
    assert replies[3].recipients == [BOB]
    assert board_version(server) == 2


def test_a_mailed_move_sent_twice_is_played_and_answered_once(
    server: Server, door_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's password is known to this process, so the listener and the
    poller play his mailed move the quick way (server/boards/quick_move.py; `pbem
    receive` is a process of its own and checks it afresh); the same mail
    again, as a mail server's retry, runs nothing and gets no answer."""
    from pbem.server import service

    quick: list[bool] = []
    real = service.quick_move

    def counting(*args: object, **kwargs: object) -> object:
        played = real(*args, **kwargs)  # type: ignore[arg-type]
        quick.append(played is not None)
        return played

    monkeypatch.setattr(service, "quick_move", counting)
    server.handle(BOB, "mail bob bobpass1 every")  # his password is checked (and remembered)
    before = len(answers(server))
    raw = mail_bytes(BOB, "vasco move 1 bob bobpass1 b1,0", message_id="<twice@example.org>")
    door = DOORS[door_name](server, tmp_path)
    try:
        door.send_all([(BOB, raw)])
        door.send_all([(BOB, raw)])
    finally:
        door.close()
    replies = answers(server)[before:]
    assert sorted(reply.recipients[0] for reply in replies) == [ANN, BOB]
    assert all(reply.in_reply_to == "<twice@example.org>" for reply in replies)
    assert board_version(server) == 2
    if door_name != "receive":
        assert quick[0] is True  # the first copy went the quick way
